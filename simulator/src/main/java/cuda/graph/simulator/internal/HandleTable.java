package cuda.graph.simulator.internal;

import cuda.graph.simulator.HandleLedger;
import cuda.graph.simulator.UndefinedBehaviorException;
import cuda.graph.spi.CuHandle;
import cuda.graph.spi.CuResult;
import cuda.graph.spi.CudaDriverException;
import cuda.graph.spi.DriverCall;
import cuda.graph.spi.HandleKind;
import java.util.ArrayList;
import java.util.EnumMap;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicLongArray;

/**
 * Maps handle values to simulator objects and keeps the ledger of created and destroyed handles. A
 * destroyed handle is remembered, so using it again is reported as the undefined behaviour it is on
 * the real driver. Guarded by the simulator lock.
 */
final class HandleTable implements HandleLedger {

  /** Handle values look like host pointers and never collide with the special stream values. */
  private static final long FIRST_HANDLE = 0x5500_0000_1000L;

  private long next = FIRST_HANDLE;
  private final Map<Long, Object> live = new HashMap<>();
  private final Map<Long, HandleKind> liveKinds = new HashMap<>();
  private final Map<Long, String> destroyed = new HashMap<>();
  private final AtomicLongArray created = new AtomicLongArray(HandleKind.values().length);
  private final AtomicLongArray released = new AtomicLongArray(HandleKind.values().length);

  /** {@return a fresh handle value, for an object about to be {@link #add added}} */
  long newAddress() {
    long address = next;
    next += 0x40;
    return address;
  }

  /**
   * Registers an object under a value from {@link #newAddress()}; counted in the ledger when {@code
   * counted}.
   */
  void add(long address, HandleKind kind, Object object, boolean counted) {
    live.put(address, object);
    liveKinds.put(address, kind);
    if (counted) {
      created.incrementAndGet(kind.ordinal());
    }
  }

  /**
   * Registers a new object and returns its handle value; counted in the ledger when {@code
   * counted}.
   */
  long register(HandleKind kind, Object object, boolean counted) {
    long address = newAddress();
    add(address, kind, object, counted);
    return address;
  }

  /** Counts a handle created elsewhere (memory, retained contexts). */
  void countCreated(HandleKind kind) {
    created.incrementAndGet(kind.ordinal());
  }

  /** Counts a handle destroyed elsewhere (memory, released contexts). */
  void countDestroyed(HandleKind kind) {
    released.incrementAndGet(kind.ordinal());
  }

  /** Counts an already registered handle as created (a capture graph handed to its caller). */
  void countRegistered(long address) {
    created.incrementAndGet(liveKinds.get(address).ordinal());
  }

  /** Unregisters a handle; {@code how} names the call that destroyed it, for later diagnostics. */
  void unregister(long address, String how, boolean counted) {
    HandleKind kind = liveKinds.remove(address);
    if (kind == null) {
      return;
    }
    live.remove(address);
    destroyed.put(address, how);
    if (counted) {
      released.incrementAndGet(kind.ordinal());
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
      String how = destroyed.get(address);
      if (how != null) {
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

  @Override
  public long created(HandleKind kind) {
    return created.get(kind.ordinal());
  }

  @Override
  public long destroyed(HandleKind kind) {
    return released.get(kind.ordinal());
  }

  @Override
  public Map<HandleKind, Long> liveCounts() {
    Map<HandleKind, Long> counts = new EnumMap<>(HandleKind.class);
    for (HandleKind kind : HandleKind.values()) {
      long n = live(kind);
      if (n != 0) {
        counts.put(kind, n);
      }
    }
    return counts;
  }

  @Override
  public List<CuHandle> liveHandles(HandleKind kind) {
    List<CuHandle> handles = new ArrayList<>();
    for (Map.Entry<Long, HandleKind> e : liveKinds.entrySet()) {
      if (e.getValue() == kind && live.get(e.getKey()) instanceof Handled h && h.counted()) {
        handles.add(h.handle());
      }
    }
    handles.sort((a, b) -> Long.compare(a.address(), b.address()));
    return handles;
  }

  /** An object that knows its own handle. */
  interface Handled {
    CuHandle handle();

    /** Whether the ledger counts this object (capture graphs count only once handed out). */
    default boolean counted() {
      return true;
    }
  }
}
