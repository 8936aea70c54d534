// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 the cuda-graph authors
package cuda.graph.testkit;

import cuda.graph.spi.CopyEndpoint;
import cuda.graph.spi.CuContext;
import cuda.graph.spi.CuFunction;
import cuda.graph.spi.CuHandle;
import cuda.graph.spi.CuModule;
import cuda.graph.spi.CuStream;
import cuda.graph.spi.DriverCall;
import cuda.graph.spi.HandleKind;
import cuda.graph.testkit.LoggedCall.Outcome;
import java.lang.foreign.MemorySegment;
import java.util.ArrayList;
import java.util.List;
import java.util.function.Supplier;
import org.jspecify.annotations.Nullable;

/**
 * The lifetime checks of one {@link InstrumentedDriver}, on its {@link HandleLedger}: a check that
 * fails keeps its {@link LifetimeViolation}, logs the call as {@link Outcome#REFUSED}, and throws
 * the violation. Checks made before a call keep the driver from ever seeing a dangling handle;
 * checks made after it (a handle handed out twice) blame the driver. Thread-safe.
 */
final class LifetimeChecks {

  private final HandleLedger ledger;
  private final CallLog log;
  private final List<LifetimeViolation> violations = new ArrayList<>();

  /** The context each thread made current through the decorator: the owner of what it creates. */
  private final ThreadLocal<@Nullable CuContext> current = new ThreadLocal<>();

  LifetimeChecks(HandleLedger ledger, CallLog log) {
    this.ledger = ledger;
    this.log = log;
  }

  List<LifetimeViolation> violations() {
    synchronized (violations) {
      return List.copyOf(violations);
    }
  }

  void makeCurrent(@Nullable CuContext context) {
    current.set(context);
  }

  // ---- before a call: the driver must not see it if it fails

  private static final int[] NO_POINTERS = {};

  private static final int[] FIRST = {0};
  private static final int[] SECOND = {1};
  private static final int[] FIRST_AND_SECOND = {0, 1};
  private static final int[] THIRD = {2};

  /**
   * {@return the positions of the device pointers among a call's arguments} A {@code long} may be a
   * size or a count as well, so the pointers are named here; the pointer a free call ends is {@link
   * #free}'s to check. The test kit's tests find every pointer parameter of {@link
   * cuda.graph.spi.CudaDriver} by name and prove that each is checked.
   */
  private static int[] devicePointers(DriverCall call) {
    return switch (call) {
      case MEMCPY_HTOD,
          MEMCPY_HTOD_ASYNC,
          MEMSET_D8_ASYNC,
          MEMSET_D16_ASYNC,
          MEMSET_D32_ASYNC,
          MEMSET_D2D32_ASYNC ->
          FIRST;
      case MEMCPY_DTOH, MEMCPY_DTOH_ASYNC -> SECOND;
      case MEMCPY_DTOD_ASYNC -> FIRST_AND_SECOND;
      case GRAPH_EXEC_MEMSET_NODE_SET_PARAMS -> THIRD;
      default -> NO_POINTERS;
    };
  }

  /**
   * Refuses a call whose arguments name something destroyed, in this order: its handles (except the
   * one a destroy call ends: {@link #destroy} checks that), its device pointers, then the ends of a
   * copy node and its pinned host memory (except the memory a free ends: {@link #free} checks
   * that).
   *
   * @param arguments the call's arguments in declaration order, as {@link
   *     cuda.graph.spi.support.ForwardingCudaDriver} describes them
   */
  void arguments(DriverCall call, @Nullable Object[] arguments) {
    if (!endsItsHandle(call)) {
      for (Object argument : arguments) {
        if (argument instanceof CuHandle handle) {
          usable(call, handle);
        }
      }
    }
    for (int position : devicePointers(call)) {
      accessible(call, (Long) arguments[position]);
    }
    for (Object argument : arguments) {
      switch (argument) {
        case CopyEndpoint.Device device -> accessible(call, device.address());
        case CopyEndpoint.Host host -> accessibleHost(call, host.memory());
        case MemorySegment host when call != DriverCall.MEM_FREE_HOST -> accessibleHost(call, host);
        case null, default -> {}
      }
    }
  }

  private static boolean endsItsHandle(DriverCall call) {
    return switch (call) {
      case STREAM_DESTROY, EVENT_DESTROY, MODULE_UNLOAD, GRAPH_DESTROY, GRAPH_EXEC_DESTROY -> true;
      default -> false;
    };
  }

  /** Refuses a call that passes a destroyed handle; default streams are never destroyed. */
  void usable(DriverCall call, CuHandle... handles) {
    for (CuHandle h : handles) {
      if (!(h instanceof CuStream s && s.isDefaultStream())) {
        before(
            call,
            h,
            () -> {
              ledger.requireUsable(h, call);
              return h;
            });
      }
    }
  }

  /** Refuses a call that passes a pointer into freed device memory. */
  void accessible(DriverCall call, long... devicePointers) {
    for (long p : devicePointers) {
      before(
          call,
          p,
          () -> {
            ledger.requireAccessible(HandleKind.DEVICE_MEMORY, p, call);
            return p;
          });
    }
  }

  /** Refuses a call that passes freed pinned host memory; heap segments are not the driver's. */
  void accessibleHost(DriverCall call, MemorySegment host) {
    if (host.isNative()) {
      before(
          call,
          host,
          () -> {
            ledger.requireAccessible(HandleKind.HOST_MEMORY, host.address(), call);
            return host;
          });
    }
  }

  void retainedBefore(DriverCall call, int device) {
    before(
        call,
        device,
        () -> {
          ledger.requireRetained(device, call);
          return device;
        });
  }

  private @Nullable Object claimDestroy(DriverCall call, CuHandle handle) {
    return before(call, handle, () -> ledger.claimDestroy(handle, call));
  }

  private @Nullable Object claimFree(DriverCall call, HandleKind kind, long address) {
    return before(call, address, () -> ledger.claimFree(kind, address, call));
  }

  /** Runs a destroy call: refused if already destroyed, counted before it, restored if it fails. */
  void destroy(DriverCall call, CuHandle handle, Runnable destroyCall) {
    Object claim = claimDestroy(call, handle);
    try {
      destroyCall.run();
    } catch (RuntimeException | Error e) {
      ledger.undoDestroy(handle, claim);
      throw e;
    }
  }

  /** Runs a free call: refused if already freed, counted before it, restored if it fails. */
  void free(DriverCall call, HandleKind kind, long address, Runnable freeCall) {
    Object claim = claimFree(call, kind, address);
    try {
      freeCall.run();
    } catch (RuntimeException | Error e) {
      ledger.undoFree(kind, claim);
      throw e;
    }
  }

  // ---- after a call returned

  /** Counts a handle the call returned, owned by the calling thread's current context. */
  <H extends CuHandle> H created(DriverCall call, H handle) {
    return createdIn(call, handle, current.get());
  }

  /** Counts a handle the call returned, owned by {@code owner} (null: by no context). */
  <H extends CuHandle> H createdIn(DriverCall call, H handle, @Nullable CuContext owner) {
    after(call, () -> ledger.created(handle, call, owner));
    return handle;
  }

  void allocated(DriverCall call, HandleKind kind, long address, long bytes) {
    CuContext owner = current.get();
    after(call, () -> ledger.allocated(kind, address, bytes, owner, call));
  }

  /** Remembers the device range of host memory the call mapped; a clash blames the driver. */
  void mapped(DriverCall call, long hostAddress, long devicePointer) {
    after(call, () -> ledger.mapped(hostAddress, devicePointer, call));
  }

  void functionReturned(DriverCall call, CuModule module, CuFunction function) {
    ledger.functionReturned(module, function, call, current.get());
  }

  private <T> T before(DriverCall call, @Nullable Object argument, Supplier<T> check) {
    try {
      return check.get();
    } catch (LifetimeViolation v) {
      keep(v);
      log.add(call, CallLog.describe(new Object[] {argument}), -1, Outcome.REFUSED);
      throw v;
    }
  }

  private void after(DriverCall call, Runnable check) {
    try {
      check.run();
    } catch (LifetimeViolation v) {
      keep(v);
      log.finished(call, -1, Outcome.REFUSED);
      throw v;
    }
  }

  private void keep(LifetimeViolation v) {
    synchronized (violations) {
      violations.add(v);
    }
  }
}
