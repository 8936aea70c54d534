// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 the cuda-graph authors
package cuda.graph.testkit;

import static org.apiguardian.api.API.Status.EXPERIMENTAL;

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
import java.util.Set;
import org.apiguardian.api.API;
import org.jspecify.annotations.Nullable;

/**
 * Live-handle accounting of one {@link InstrumentedDriver}, built only from what crosses the driver
 * boundary: the handles each create call returns and each destroy call receives.
 *
 * <p>Counted: streams, events, modules, functions (created when first returned by {@code
 * cuModuleGetFunction}, destroyed when their module is unloaded), graphs (from {@code
 * cuStreamEndCapture} and {@code cuGraphCreate}), execs, device memory ({@code cuMemAlloc_v2}, and
 * {@code cuMemAllocAsync} on a stream that is not capturing; an allocation made during capture
 * belongs to the graph), pinned host memory (mapped or not), and primary-context retains ({@code
 * created(CONTEXT)} counts retains, {@code destroyed(CONTEXT)} releases). Graph nodes are borrowed
 * from their graph and not counted. A create or destroy call that fails changes no count.
 *
 * <p><b>Handles the driver makes itself.</b> The graph a capture records into exists from {@code
 * cuStreamBeginCapture} on, and the bodies of a conditional node from {@code cuGraphAddNode} on,
 * though no create call returns them. The ledger knows them as <em>lent</em>: usable, not counted
 * and not the caller's. A capture's graph becomes the caller's, and counted, when {@code
 * cuStreamEndCapture} hands it out; it is destroyed when the capture fails; a body is destroyed
 * with the graph it belongs to. The real driver hands a destroyed handle's value out again, to
 * explicit and implicit creations alike, so a value the ledger saw destroyed is live again once the
 * driver returns it from any of these; a destroyed value the driver did not hand out again is still
 * a use after destroy.
 *
 * <p><b>Mapped host memory.</b> The device pointer {@code cuMemHostGetDevicePointer_v2} gives for
 * host memory is not counted (it allocates nothing), but its range is remembered with the host
 * memory: once {@code cuMemFreeHost} has freed that memory, a call that passes a pointer into the
 * range is a use after free, like a pointer into freed device memory.
 *
 * <p><b>Stricter than a driver.</b> A handle counts as destroyed only when its own destroy call
 * receives it. When the last retain of a primary context is released, the driver destroys
 * everything the context still owns; the ledger then remembers those handles as dead (so using them
 * is still caught) but keeps them {@linkplain #live live} and counts them in {@link
 * #reclaimedWithContext}: a caller that relies on the context to clean up leaks whenever someone
 * else holds a retain of the same primary context, as another library in the process may.
 *
 * <p>Thread-safe. Counts are a consistent snapshot only while no other thread calls the driver.
 *
 * @since 0.1.0
 */
@API(status = EXPERIMENTAL, since = "0.1.0")
public final class HandleLedger {

  private static final HandleKind[] KINDS = HandleKind.values();

  /** A live handle: the context current when it was made, and how it was made. */
  private record Origin(@Nullable CuContext owner, String how) {}

  private record Retains(CuContext context, int count) {}

  /** A lent handle: the driver made it and owns it; it goes when {@code parent} goes. */
  private record Lent(@Nullable CuHandle parent) {}

  /** What {@link #claimDestroy} took from the lent handles, for {@link #undoDestroy}. */
  private record LentClaim(Lent lent) {}

  private final long[] created = new long[KINDS.length];
  private final long[] destroyed = new long[KINDS.length];
  private final long[] reclaimed = new long[KINDS.length];
  private final Map<CuHandle, Origin> live = new LinkedHashMap<>();
  private final Map<CuHandle, String> dead = new HashMap<>();

  /**
   * Handles the driver made itself and lends out; disjoint from {@link #live} and {@link #dead}.
   */
  private final Map<CuHandle, Lent> lent = new HashMap<>();

  private final Map<HandleKind, AllocationMap> memory = new EnumMap<>(HandleKind.class);

  /** The device ranges of mapped host memory, by device pointer; never counted. */
  private final AllocationMap mappings = new AllocationMap(HandleKind.DEVICE_MEMORY);

  /** The live device ranges of each mapped host block, by the host block's address. */
  private final Map<Long, List<AllocationMap.Block>> mappingsOf = new HashMap<>();

  /** What {@link #claimFree} took, for {@link #undoFree}: a block and its device mappings. */
  private record FreeClaim(AllocationMap.Block block, List<AllocationMap.Block> mappings) {}

  private final Map<CuModule, Set<CuFunction>> functionsOf = new HashMap<>();
  private final Map<Integer, Retains> contexts = new HashMap<>();

  HandleLedger() {
    memory.put(HandleKind.DEVICE_MEMORY, new AllocationMap(HandleKind.DEVICE_MEMORY));
    memory.put(HandleKind.HOST_MEMORY, new AllocationMap(HandleKind.HOST_MEMORY));
  }

  // ---- reading

  /**
   * {@return how many handles of a kind were created (for contexts: retains)}
   *
   * @param kind the kind of handle
   */
  public synchronized long created(HandleKind kind) {
    return created[kind.ordinal()];
  }

  /**
   * {@return how many handles of a kind their destroy call destroyed (for contexts: releases)}
   *
   * @param kind the kind of handle
   */
  public synchronized long destroyed(HandleKind kind) {
    return destroyed[kind.ordinal()];
  }

  /**
   * {@return how many handles of a kind were created and not destroyed by their destroy call}
   *
   * @param kind the kind of handle
   */
  public synchronized long live(HandleKind kind) {
    return created[kind.ordinal()] - destroyed[kind.ordinal()];
  }

  /**
   * {@return how many handles of a kind were never destroyed, but went with their context when its
   * last retain was released} They are included in {@link #live}.
   *
   * @param kind the kind of handle
   */
  public synchronized long reclaimedWithContext(HandleKind kind) {
    return reclaimed[kind.ordinal()];
  }

  /** {@return the live count of every kind that has live handles, in {@link HandleKind} order} */
  public synchronized Map<HandleKind, Long> liveCounts() {
    Map<HandleKind, Long> counts = new EnumMap<>(HandleKind.class);
    for (HandleKind kind : KINDS) {
      long n = live(kind);
      if (n != 0) {
        counts.put(kind, n);
      }
    }
    return counts;
  }

  /**
   * {@return a snapshot of the live handles of a kind} Memory and contexts are counted, not listed.
   *
   * @param kind the kind of handle
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

  /** {@return one line per live handle or memory block, saying how it was made, for messages} */
  public synchronized List<String> describeLive() {
    List<String> lines = new ArrayList<>();
    for (HandleKind kind : KINDS) {
      lines.addAll(describeLive(kind));
    }
    return lines;
  }

  /**
   * {@return one line per live handle or memory block of {@code kind}, saying how it was made}
   *
   * @param kind the kind of handle
   */
  public synchronized List<String> describeLive(HandleKind kind) {
    List<String> lines = new ArrayList<>();
    live.forEach(
        (h, origin) -> {
          if (h.kind() == kind) {
            lines.add(h + " from " + origin.how());
          }
        });
    AllocationMap blocks = memory.get(kind);
    if (blocks != null) {
      lines.addAll(blocks.describeLive());
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
      throw new LifetimeViolation(
          call,
          "the driver returned "
              + handle
              + ", which is still live"
              + " (from "
              + previous.how()
              + "); a driver never hands out a live handle twice");
    }
    // A lent handle handed out (the graph of an ended capture) becomes the caller's; a value seen
    // destroyed is an object the driver made anew.
    lent.remove(handle);
    dead.remove(handle);
    live.put(handle, new Origin(owner, describe(call)));
    created[handle.kind().ordinal()]++;
  }

  /**
   * A handle the driver made itself and reported: live (again, if its value was seen destroyed),
   * not counted, and gone with {@code parent} when that is destroyed. A handle already live or lent
   * stays as it is.
   */
  synchronized void lent(CuHandle handle, @Nullable CuHandle parent) {
    if (!live.containsKey(handle) && !lent.containsKey(handle)) {
      dead.remove(handle);
      lent.put(handle, new Lent(parent));
    }
  }

  /**
   * The driver destroyed a lent handle itself (the graph of a capture that failed): using it is now
   * a use after destroy, as it is for what belonged to it.
   */
  synchronized void lentDestroyed(CuHandle handle, String how) {
    if (lent.remove(handle) != null) {
      dead.put(handle, how);
      destroyedWith(handle, how);
    }
  }

  /** A graph's destroy call returned: the lent handles that belonged to it went with it. */
  synchronized void graphDestroyed(CuHandle graph, DriverCall call) {
    destroyedWith(graph, "was destroyed with its graph " + graph + " by " + describe(call));
  }

  private void destroyedWith(CuHandle parent, String how) {
    List<CuHandle> children = new ArrayList<>();
    lent.forEach(
        (h, l) -> {
          if (parent.equals(l.parent())) {
            children.add(h);
          }
        });
    for (CuHandle child : children) {
      lent.remove(child);
      dead.put(child, how);
      destroyedWith(child, how);
    }
  }

  /** A function from {@code cuModuleGetFunction}: counted once per module, however often found. */
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
    if (!live.containsKey(handle) && !lent.containsKey(handle)) {
      String how = dead.get(handle);
      if (how != null) {
        throw new LifetimeViolation(call, "uses " + handle + ", which " + how);
      }
    }
  }

  /**
   * Marks {@code handle} destroyed before its destroy call reaches the driver, so that a concurrent
   * second destroy is caught too. {@return what to hand back to {@link #undoDestroy} if the call
   * fails, or null for a handle this ledger never saw}
   *
   * @throws LifetimeViolation if the handle is already destroyed
   */
  synchronized @Nullable Object claimDestroy(CuHandle handle, DriverCall call) {
    Origin origin = live.remove(handle);
    if (origin == null) {
      Lent borrowed = lent.remove(handle);
      if (borrowed != null) {
        // Not the caller's to destroy, but destroyed all the same: later uses are caught.
        dead.put(handle, "was destroyed by " + describe(call));
        return new LentClaim(borrowed);
      }
      String how = dead.get(handle);
      if (how != null) {
        throw new LifetimeViolation(call, "destroys " + handle + " a second time: it " + how);
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
    } else if (claim instanceof LentClaim(Lent borrowed)) {
      dead.remove(handle);
      lent.put(handle, borrowed);
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

  /** Fails when device's primary context is released more often than it was seen retained. */
  synchronized void requireRetained(int device, DriverCall call) {
    Retains r = contexts.get(device);
    if (r != null && r.count() == 0) {
      throw new LifetimeViolation(
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
    memory.forEach((kind, blocks) -> reclaimed[kind.ordinal()] += blocks.reclaim(context, reason));
    mappings.reclaim(context, reason); // not counted: they went with their host memory
  }

  // ---- memory

  synchronized void allocated(
      HandleKind kind, long address, long bytes, @Nullable CuContext owner, DriverCall call) {
    memory.get(kind).allocated(address, bytes, owner, describe(call), call);
    if (kind == HandleKind.HOST_MEMORY) {
      mappingsOf.remove(address); // the mappings of memory freed earlier at this address
    }
    created[kind.ordinal()]++;
  }

  /**
   * The driver gave {@code devicePointer} as the device address of host memory at {@code
   * hostAddress}: the device range of the whole host block is remembered, and dies with it. Host
   * memory this ledger never saw, and a range it already knows, change nothing.
   */
  synchronized void mapped(long hostAddress, long devicePointer, DriverCall call) {
    AllocationMap.Block host = memory.get(HandleKind.HOST_MEMORY).live(hostAddress);
    if (host == null) {
      return;
    }
    long base = devicePointer - (hostAddress - host.address());
    List<AllocationMap.Block> known =
        mappingsOf.computeIfAbsent(host.address(), a -> new ArrayList<>());
    for (AllocationMap.Block b : known) {
      if (b.address() == base) {
        return;
      }
    }
    mappings.allocated(
        base,
        host.bytes(),
        host.owner(),
        describe(call)
            + " (the device range of host memory 0x"
            + Long.toHexString(host.address())
            + ")",
        call);
    AllocationMap.Block mapping = mappings.live(base);
    if (mapping != null) {
      known.add(mapping);
    }
  }

  /**
   * Marks the allocation at {@code address} freed before the free reaches the driver. {@return what
   * to hand to {@link #undoFree} if the call fails, or null for memory this ledger never saw}
   *
   * @throws LifetimeViolation if that memory was already freed
   */
  synchronized @Nullable Object claimFree(HandleKind kind, long address, DriverCall call) {
    String how = "was freed by " + describe(call);
    AllocationMap.Block block = memory.get(kind).claimFree(address, how, call);
    if (block == null) {
      return null;
    }
    destroyed[kind.ordinal()]++;
    List<AllocationMap.Block> mapped = mappingsOf.remove(address);
    if (mapped == null) {
      return new FreeClaim(block, List.of());
    }
    for (AllocationMap.Block m : mapped) {
      mappings.claimFree(
          m.address(),
          "was the device range of host memory 0x" + Long.toHexString(address) + ", which " + how,
          call);
    }
    return new FreeClaim(block, mapped);
  }

  /** The free failed: the memory, and its device ranges if it is mapped, are live again. */
  synchronized void undoFree(HandleKind kind, @Nullable Object claim) {
    if (claim instanceof FreeClaim(AllocationMap.Block block, List<AllocationMap.Block> mapped)) {
      memory.get(kind).undoFree(block);
      destroyed[kind.ordinal()]--;
      for (AllocationMap.Block m : mapped) {
        mappings.undoFree(m);
      }
      if (!mapped.isEmpty()) {
        mappingsOf.put(block.address(), new ArrayList<>(mapped));
      }
    }
  }

  /**
   * Fails when {@code pointer} lies in memory that was freed (and not allocated again since); a
   * device pointer may also lie in the device range of mapped host memory.
   */
  synchronized void requireAccessible(HandleKind kind, long pointer, DriverCall call) {
    if (kind == HandleKind.DEVICE_MEMORY && mappings.live(pointer) != null) {
      return;
    }
    memory.get(kind).requireAccessible(pointer, call);
    if (kind == HandleKind.DEVICE_MEMORY) {
      mappings.requireAccessible(pointer, call);
    }
  }

  private static String describe(DriverCall call) {
    return call.symbol() + " on thread " + Thread.currentThread().getName();
  }
}
