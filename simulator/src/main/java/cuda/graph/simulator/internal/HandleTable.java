// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 the cuda-graph authors
package cuda.graph.simulator.internal;

import cuda.graph.simulator.UndefinedBehaviorException;
import cuda.graph.spi.CuHandle;
import cuda.graph.spi.CuResult;
import cuda.graph.spi.CudaDriverException;
import cuda.graph.spi.DriverCall;
import java.util.ArrayDeque;
import java.util.Deque;
import java.util.HashMap;
import java.util.Map;

/**
 * Maps handle values to simulator objects. A destroyed handle is remembered, so that using it again
 * is reported as the undefined behaviour it is on the real driver: the model's own check, which
 * holds however the simulator is called (counting live handles is the job of a decorator such as
 * {@code cuda.graph.testkit.InstrumentedDriver}).
 *
 * <p>By default a value is never handed out twice, so every stale handle is caught. In reuse mode
 * ({@code Simulator.Builder.reuseHandleValues}) the values of destroyed objects go back to a pool
 * per kind of object (the class of the simulator object) and the next object of that kind takes the
 * one freed last, as the real driver's handles (addresses of its own allocations) come back: a
 * stale handle whose value was taken again then names the new object, and only values still in the
 * pool are reported as destroyed. Guarded by the simulator lock.
 */
final class HandleTable {

  /** Handle values look like host pointers and never collide with the special stream values. */
  private static final long FIRST_HANDLE = 0x5500_0000_1000L;

  /** How many destroyed handles keep the name of the call that destroyed them. */
  static final int REMEMBERED_DESTRUCTIONS = 4096;

  private final boolean reuse;
  private long next = FIRST_HANDLE;
  private final Map<Long, Object> live = new HashMap<>();

  /** In reuse mode: the values of destroyed objects per kind, the one freed last on top. */
  private final Map<Class<?>, Deque<Long>> freed = new HashMap<>();

  /**
   * Every handle value ever registered, one bit each, so that a destroyed handle is recognised
   * however long the simulator runs, in bounded memory.
   */
  private final java.util.BitSet registered = new java.util.BitSet();

  /** The calls that destroyed the most recent handles, for the diagnostic. */
  private final Map<Long, String> destroyedBy =
      new java.util.LinkedHashMap<>(16, 0.75f, false) {
        @Override
        protected boolean removeEldestEntry(Map.Entry<Long, String> eldest) {
          return size() > REMEMBERED_DESTRUCTIONS;
        }
      };

  HandleTable(boolean reuse) {
    this.reuse = reuse;
  }

  /**
   * {@return a handle value for an object of class {@code kind} about to be {@link #add added}}: in
   * reuse mode the value of the last destroyed object of that kind, if any, else a fresh one
   */
  long newAddress(Class<?> kind) {
    Deque<Long> values = freed.get(kind);
    if (values != null && !values.isEmpty()) {
      return values.pop();
    }
    long address = next;
    next += 0x40;
    return address;
  }

  /** Registers an object under a value from {@link #newAddress()}. */
  void add(long address, Object object) {
    live.put(address, object);
    registered.set(index(address));
  }

  private static int index(long address) {
    return Math.toIntExact((address - FIRST_HANDLE) / 0x40);
  }

  private boolean wasRegistered(long address) {
    return address >= FIRST_HANDLE
        && (address - FIRST_HANDLE) % 0x40 == 0
        && address < next
        && registered.get(index(address));
  }

  /** Registers a new object; {@return its handle value} */
  long register(Object object) {
    long address = newAddress(object.getClass());
    add(address, object);
    return address;
  }

  /** Unregisters a handle; {@code how} names the call that destroyed it, for later diagnostics. */
  void unregister(long address, String how) {
    Object object = live.remove(address);
    if (object != null) {
      destroyedBy.put(address, how);
      if (reuse) {
        freed.computeIfAbsent(object.getClass(), k -> new ArrayDeque<>()).push(address);
      }
    }
  }

  /**
   * Resolves a handle to its object, failing as the driver does: a zero handle is {@code
   * CUDA_ERROR_INVALID_HANDLE}; a destroyed or unknown handle is undefined behaviour.
   */
  <T> T resolve(CuHandle handle, Class<T> type, DriverCall call) {
    long address = handle.address();
    if (address == 0) {
      throw new CudaDriverException(CuResult.INVALID_HANDLE, call, handle + " is NULL");
    }
    Object object = live.get(address);
    if (object == null) {
      if (wasRegistered(address)) {
        String how = destroyedBy.getOrDefault(address, "was destroyed earlier");
        throw new UndefinedBehaviorException(
            call.symbol()
                + " was passed "
                + handle
                + ", which "
                + how
                + "; on the real driver this use-after-destroy may crash the process");
      }
      throw new UndefinedBehaviorException(
          call.symbol()
              + " was passed "
              + handle
              + ", which this driver never created"
              + "; on the real driver this is a wild pointer");
    }
    if (!type.isInstance(object)) {
      throw new UndefinedBehaviorException(
          call.symbol()
              + " was passed "
              + handle
              + ", which names a "
              + object.getClass().getSimpleName());
    }
    return type.cast(object);
  }

  /** An object that knows its own handle. */
  interface Handled {
    CuHandle handle();
  }
}
