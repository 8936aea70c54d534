// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 the cuda-graph authors
package cuda.graph.simulator.internal;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import org.jspecify.annotations.Nullable;

/**
 * One range of simulated device memory at a fake device address, backed by real off-heap memory
 * while it is live. Graph allocations exist as reserved ranges from capture on and are backed only
 * between the execution of their alloc node and their free. Mapped host memory is a range backed by
 * the host segment itself, so device accesses and host accesses reach the same bytes.
 */
final class Allocation {

  enum Kind {
    /** {@code cuMemAlloc_v2}. */
    SYNC,
    /** {@code cuMemAllocAsync} outside capture. */
    ASYNC,
    /** {@code cuMemAllocAsync} inside capture: owned by the graph, fixed address. */
    GRAPH,
    /**
     * The device range of host memory from {@code cuMemHostAlloc} with {@code
     * CU_MEMHOSTALLOC_DEVICEMAP}: backed by the host segment, reachable from every device (unified
     * addressing), not device memory (it counts against no device), gone at {@code cuMemFreeHost}.
     */
    MAPPED
  }

  final long base;
  final long size;
  final SimDevice device;
  final Kind kind;

  /** For graph allocations: the graph whose alloc node made it. */
  final @Nullable SimGraph owner;

  private @Nullable Arena arena;
  private volatile @Nullable MemorySegment backing;

  /** The caller freed it (or, for graph allocations, no launch holds it): new uses are rejected. */
  boolean freeRequested;

  /** Graph allocations: a launch allocated it and nothing has freed it yet (API-level state). */
  boolean outstanding;

  Allocation(long base, long size, SimDevice device, Kind kind, @Nullable SimGraph owner) {
    this.base = base;
    this.size = size;
    this.device = device;
    this.kind = kind;
    this.owner = owner;
  }

  boolean contains(long address, long bytes) {
    return address >= base && bytes >= 0 && address - base <= size - bytes;
  }

  /** Gives the range real memory; zero-filled. */
  synchronized void back() {
    if (backing == null) {
      Arena a = Arena.ofShared();
      arena = a;
      backing = a.allocate(Math.max(size, 1), 256);
    }
  }

  /**
   * Backs the range with memory someone else owns (mapped host memory): accesses reach {@code
   * memory} itself, and {@link #unback()} forgets it without freeing it.
   */
  synchronized void backWith(MemorySegment memory) {
    backing = memory;
  }

  /** Releases the real memory; accesses racing with this fail as illegal addresses. */
  synchronized void unback() {
    Arena a = arena;
    arena = null;
    backing = null;
    if (a != null) {
      a.close();
    }
  }

  boolean isBacked() {
    return backing != null;
  }

  /** {@return the backing memory for [address, address + bytes), or null when not backed} */
  @Nullable MemorySegment view(long address, long bytes) {
    MemorySegment b = backing;
    return b == null ? null : b.asSlice(address - base, bytes);
  }

  @Override
  public String toString() {
    return kind + " allocation [0x" + Long.toHexString(base) + ", +" + size + ")";
  }
}
