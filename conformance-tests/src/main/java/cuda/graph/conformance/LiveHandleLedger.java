package cuda.graph.conformance;

import cuda.graph.spi.CuContext;
import cuda.graph.spi.CuFunction;
import cuda.graph.spi.CuHandle;
import cuda.graph.spi.CuModule;
import cuda.graph.spi.DriverCall;
import cuda.graph.spi.HandleKind;
import java.util.ArrayList;
import java.util.EnumMap;
import java.util.HashMap;
import java.util.HashSet;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.NavigableMap;
import java.util.Set;
import java.util.TreeMap;
import org.jspecify.annotations.Nullable;

/**
 * Live-handle accounting of one {@link InstrumentedDriver}, built only from what crosses the driver
 * boundary: the handles each create call returns and each destroy call receives.
 *
 * <p>Counted: streams, events, modules, functions (created when first returned by {@code
 * cuModuleGetFunction}, destroyed when their module is unloaded), graphs (from {@code
 * cuStreamEndCapture} and {@code cuGraphCreate}; graphs that capture info lends out are not owned
 * and not counted), execs, device memory ({@code cuMemAlloc_v2}, and {@code cuMemAllocAsync} on a
 * stream that is not capturing; an allocation made during capture belongs to the graph), pinned
 * host memory, and primary-context retains ({@code created(CONTEXT)} counts retains, {@code
 * destroyed(CONTEXT)} releases). Graph nodes are borrowed from their graph and not counted.
 *
 * <p><b>Stricter than a driver.</b> A handle counts as destroyed only when its own destroy call
 * receives it. When the last retain of a primary context is released, the driver destroys
 * everything the context still owns; the ledger then remembers those handles as dead (so using them
 * is still caught) but keeps them {@linkplain #live live} and counts them in {@link
 * #reclaimedWithContext}: a caller that relies on the context to clean up leaks whenever someone
 * else holds a retain of the same primary context, as another library in the process may. (The
 * simulator's own ledger counts such handles as destroyed.)
 *
 * <p>Thread-safe. Counts are a consistent snapshot only while no other thread calls the driver.
 */
public final class LiveHandleLedger {

  private static final HandleKind[] KINDS = HandleKind.values();

  /** A live handle or memory block: the context current when it was made, and how it was made. */
  private record Origin(@Nullable CuContext owner, String how) {}

  private record Block(
      HandleKind kind, long address, long bytes, @Nullable CuContext owner, String how) {
    boolean contains(long pointer) {
      return pointer >= address && pointer - address < Math.max(bytes, 1);
    }
  }

  private record Retains(CuContext context, int count) {}

  private final long[] created = new long[KINDS.length];
  private final long[] destroyed = new long[KINDS.length];
  private final long[] reclaimed = new long[KINDS.length];
  private final Map<CuHandle, Origin> live = new LinkedHashMap<>();
  private final Map<CuHandle, String> dead = new HashMap<>();
  private final Map<HandleKind, NavigableMap<Long, Block>> liveMemory =
      new EnumMap<>(HandleKind.class);
  private final Map<HandleKind, NavigableMap<Long, Block>> deadMemory =
      new EnumMap<>(HandleKind.class);
  private final Map<CuModule, Set<CuFunction>> functionsOf = new HashMap<>();
  private final Map<Integer, Retains> contexts = new HashMap<>();

  LiveHandleLedger() {
    for (HandleKind kind : List.of(HandleKind.DEVICE_MEMORY, HandleKind.HOST_MEMORY)) {
      liveMemory.put(kind, new TreeMap<>());
      deadMemory.put(kind, new TreeMap<>());
    }
  }

  // ---- reading

  /** {@return how many handles of a kind were created (for contexts: retains)} */
  public synchronized long created(HandleKind kind) {
    return created[kind.ordinal()];
  }

  /**
   * {@return how many handles of a kind were destroyed by their destroy call (for contexts:
   * releases)}
   */
  public synchronized long destroyed(HandleKind kind) {
    return destroyed[kind.ordinal()];
  }

  /** {@return how many handles of a kind were created and not destroyed by their destroy call} */
  public synchronized long live(HandleKind kind) {
    return created[kind.ordinal()] - destroyed[kind.ordinal()];
  }

  /**
   * {@return how many handles of a kind were never destroyed, but went with their context when its
   * last retain was released} They are included in {@link #live}.
   */
  public synchronized long reclaimedWithContext(HandleKind kind) {
    return reclaimed[kind.ordinal()];
  }

  /** {@return the live count of every kind that has live handles, in {@link HandleKind} order} */
  public synchronized Map<HandleKind, Long> liveCounts() {
    Map<HandleKind, Long> counts = new EnumMap<>(HandleKind.class);
    for (HandleKind kind : KINDS) {
      long n = created[kind.ordinal()] - destroyed[kind.ordinal()];
      if (n != 0) {
        counts.put(kind, n);
      }
    }
    return counts;
  }

  /**
   * {@return the handles of a kind the driver still holds (memory and contexts are counted, not
   * listed)}
   */
  public synchronized List<CuHandle> liveHandles(HandleKind kind) {
    List<CuHandle> handles = new ArrayList<>();
    for (CuHandle h : live.keySet()) {
      if (h.kind() == kind) {
        handles.add(h);
      }
    }
    return handles;
  }

  /**
   * {@return one line per live handle or memory block, saying how it was made, for failure
   * messages}
   */
  public synchronized List<String> describeLive() {
    List<String> lines = new ArrayList<>();
    for (HandleKind kind : KINDS) {
      lines.addAll(describeLive(kind));
    }
    return lines;
  }

  /** {@return one line per live handle or memory block of {@code kind}, saying how it was made} */
  public synchronized List<String> describeLive(HandleKind kind) {
    List<String> lines = new ArrayList<>();
    live.forEach(
        (h, origin) -> {
          if (h.kind() == kind) {
            lines.add(h + " from " + origin.how());
          }
        });
    NavigableMap<Long, Block> blocks = liveMemory.get(kind);
    if (blocks != null) {
      blocks
          .values()
          .forEach(
              b ->
                  lines.add(
                      kind
                          + " 0x"
                          + Long.toHexString(b.address())
                          + " ("
                          + b.bytes()
                          + " bytes) from "
                          + b.how()));
    }
    if (kind == HandleKind.CONTEXT) {
      contexts.forEach(
          (device, r) -> {
            if (r.count() > 0) {
              lines.add(
                  r.context()
                      + " of device "
                      + device
                      + ", retained "
                      + r.count()
                      + " more time(s) than released");
            }
          });
    }
    long n = reclaimed[kind.ordinal()];
    if (n > 0) {
      lines.add(
          n
              + " "
              + kind
              + " handle(s) never destroyed, reclaimed only when their context was destroyed");
    }
    return lines;
  }

  // ---- handles

  synchronized void created(CuHandle handle, DriverCall call, @Nullable CuContext owner) {
    Origin previous = live.get(handle);
    if (previous != null) {
      throw new ConformanceViolation(
          call,
          "the provider returned "
              + handle
              + ", which is still live (from "
              + previous.how()
              + "); a driver never hands out a live handle twice");
    }
    dead.remove(handle);
    live.put(handle, new Origin(owner, describe(call)));
    created[handle.kind().ordinal()]++;
  }

  /**
   * A function handle from {@code cuModuleGetFunction}: counted once per module, however often it
   * is looked up.
   */
  synchronized void functionReturned(
      CuModule module, CuFunction function, DriverCall call, @Nullable CuContext owner) {
    Set<CuFunction> functions = functionsOf.computeIfAbsent(module, m -> new HashSet<>());
    if (functions.add(function)) {
      dead.remove(function);
      live.put(function, new Origin(owner, describe(call)));
      created[HandleKind.FUNCTION.ordinal()]++;
    }
  }

  /** Fails when {@code handle} was destroyed (and not handed out again since). */
  synchronized void requireUsable(CuHandle handle, DriverCall call) {
    if (!live.containsKey(handle)) {
      String how = dead.get(handle);
      if (how != null) {
        throw new ConformanceViolation(call, "uses " + handle + ", which " + how);
      }
    }
  }

  /**
   * Marks {@code handle} destroyed before its destroy call reaches the driver, so a concurrent
   * second destroy is caught too. {@return what to hand back to {@link #undoDestroy} if the call
   * fails, or null for a handle this ledger never saw}
   *
   * @throws ConformanceViolation if the handle is already destroyed
   */
  synchronized @Nullable Object claimDestroy(CuHandle handle, DriverCall call) {
    Origin origin = live.remove(handle);
    if (origin == null) {
      String how = dead.get(handle);
      if (how != null) {
        throw new ConformanceViolation(call, "destroys " + handle + " a second time: it " + how);
      }
      return null;
    }
    dead.put(handle, "was destroyed by " + describe(call));
    destroyed[handle.kind().ordinal()]++;
    return origin;
  }

  /** The destroy call failed: the handle is live again. */
  synchronized void undoDestroy(CuHandle handle, @Nullable Object claim) {
    if (claim instanceof Origin origin) {
      dead.remove(handle);
      live.put(handle, origin);
      destroyed[handle.kind().ordinal()]--;
    }
  }

  /** A module was unloaded: its functions are gone with it. */
  synchronized void moduleUnloaded(CuModule module) {
    Set<CuFunction> functions = functionsOf.remove(module);
    if (functions != null) {
      for (CuFunction f : functions) {
        if (live.remove(f) != null) {
          destroyed[HandleKind.FUNCTION.ordinal()]++;
        }
        dead.put(f, "was unloaded with " + module);
      }
    }
  }

  // ---- primary contexts

  synchronized void retained(int device, CuContext context) {
    Retains r = contexts.get(device);
    contexts.put(device, new Retains(context, r == null ? 1 : r.count() + 1));
    dead.remove(context);
    created[HandleKind.CONTEXT.ordinal()]++;
  }

  /**
   * Fails when device's primary context is released more often than this ledger saw it retained.
   */
  synchronized void requireRetained(int device, DriverCall call) {
    Retains r = contexts.get(device);
    if (r != null && r.count() == 0) {
      throw new ConformanceViolation(
          call,
          "releases device "
              + device
              + "'s primary context "
              + r.context()
              + " more often than it retained it");
    }
  }

  /** A release returned: at the last one the context is destroyed, with all it still owns. */
  synchronized void released(int device, DriverCall call) {
    Retains r = contexts.get(device);
    if (r == null) {
      return;
    }
    destroyed[HandleKind.CONTEXT.ordinal()]++;
    int count = r.count() - 1;
    contexts.put(device, new Retains(r.context(), count));
    if (count > 0) {
      return;
    }
    CuContext context = r.context();
    dead.put(
        context,
        "was destroyed by " + describe(call) + " (the last retain of its primary context)");
    String reason =
        "was destroyed with its context "
            + context
            + " by "
            + describe(call)
            + ", without ever being destroyed itself";
    for (Iterator<Map.Entry<CuHandle, Origin>> it = live.entrySet().iterator(); it.hasNext(); ) {
      Map.Entry<CuHandle, Origin> e = it.next();
      if (context.equals(e.getValue().owner())) {
        it.remove();
        dead.put(e.getKey(), reason);
        reclaimed[e.getKey().kind().ordinal()]++;
      }
    }
    for (NavigableMap<Long, Block> blocks : liveMemory.values()) {
      for (Iterator<Block> it = blocks.values().iterator(); it.hasNext(); ) {
        Block b = it.next();
        if (context.equals(b.owner())) {
          it.remove();
          deadMemory
              .get(b.kind())
              .put(b.address(), new Block(b.kind(), b.address(), b.bytes(), null, reason));
          reclaimed[b.kind().ordinal()]++;
        }
      }
    }
  }

  // ---- memory

  synchronized void allocated(
      HandleKind kind, long address, long bytes, @Nullable CuContext owner, DriverCall call) {
    NavigableMap<Long, Block> blocks = liveMemory.get(kind);
    Block overlapping = find(blocks, address);
    if (overlapping != null) {
      throw new ConformanceViolation(
          call,
          "the provider returned "
              + kind
              + " 0x"
              + Long.toHexString(address)
              + ", inside a live allocation from "
              + overlapping.how());
    }
    NavigableMap<Long, Block> freed = deadMemory.get(kind);
    freed.subMap(address, true, address + Math.max(bytes, 1) - 1, true).clear();
    Block before = find(freed, address);
    if (before != null) {
      freed.remove(before.address());
    }
    blocks.put(address, new Block(kind, address, bytes, owner, describe(call)));
    created[kind.ordinal()]++;
  }

  /**
   * Marks the allocation at {@code address} freed before the free reaches the driver. {@return what
   * to hand to {@link #undoFree} if the call fails, or null for memory this ledger never saw}
   *
   * @throws ConformanceViolation if that memory was already freed
   */
  synchronized @Nullable Object claimFree(HandleKind kind, long address, DriverCall call) {
    Block block = liveMemory.get(kind).remove(address);
    if (block == null) {
      Block freed = deadMemory.get(kind).get(address);
      if (freed != null) {
        throw new ConformanceViolation(
            call,
            "frees "
                + kind
                + " 0x"
                + Long.toHexString(address)
                + " a second time: it "
                + freed.how());
      }
      Block inside = find(liveMemory.get(kind), address);
      if (inside != null) {
        throw new ConformanceViolation(
            call,
            "frees 0x"
                + Long.toHexString(address)
                + ", which is inside the "
                + kind
                + " allocation at 0x"
                + Long.toHexString(inside.address())
                + " but not its start");
      }
      return null;
    }
    deadMemory
        .get(kind)
        .put(
            address,
            new Block(kind, address, block.bytes(), null, "was freed by " + describe(call)));
    destroyed[kind.ordinal()]++;
    return block;
  }

  synchronized void undoFree(HandleKind kind, @Nullable Object claim) {
    if (claim instanceof Block block) {
      deadMemory.get(kind).remove(block.address());
      liveMemory.get(kind).put(block.address(), block);
      destroyed[kind.ordinal()]--;
    }
  }

  /** Fails when {@code pointer} lies in memory that was freed (and not allocated again since). */
  synchronized void requireAccessible(HandleKind kind, long pointer, DriverCall call) {
    if (pointer == 0 || find(liveMemory.get(kind), pointer) != null) {
      return;
    }
    Block freed = find(deadMemory.get(kind), pointer);
    if (freed != null) {
      throw new ConformanceViolation(
          call,
          "touches "
              + kind
              + " 0x"
              + Long.toHexString(pointer)
              + ", inside the allocation at 0x"
              + Long.toHexString(freed.address())
              + ", which "
              + freed.how());
    }
  }

  private static @Nullable Block find(NavigableMap<Long, Block> blocks, long pointer) {
    Map.Entry<Long, Block> e = blocks.floorEntry(pointer);
    return e != null && e.getValue().contains(pointer) ? e.getValue() : null;
  }

  private static String describe(DriverCall call) {
    return call.symbol() + " on thread " + Thread.currentThread().getName();
  }
}
