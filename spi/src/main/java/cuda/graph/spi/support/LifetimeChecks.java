package cuda.graph.spi.support;

import cuda.graph.spi.CuContext;
import cuda.graph.spi.CuFunction;
import cuda.graph.spi.CuHandle;
import cuda.graph.spi.CuModule;
import cuda.graph.spi.CuStream;
import cuda.graph.spi.DriverCall;
import cuda.graph.spi.HandleKind;
import cuda.graph.spi.support.LoggedCall.Outcome;
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
