// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 the cuda-graph authors
package cuda.graph.simulator.internal;

import cuda.graph.spi.GraphMemAttribute;
import java.util.ArrayList;
import java.util.IdentityHashMap;
import java.util.List;
import java.util.Map;
import org.jspecify.annotations.Nullable;

/**
 * The memory one device maps for graph allocations, and the amounts {@code
 * cuDeviceGetGraphMemAttribute} reports of it: the rule the H200 showed (driver 580, CUDA 13.0;
 * {@code benchmarks/anchors/graphmem/graph_mem_probe.cu}), in the simplest form that gives its
 * numbers. See docs/DESIGN.md, "The rule of graph memory, measured on the H200".
 *
 * <ul>
 *   <li><b>Footprint.</b> An exec needs the sum of its allocation nodes' sizes, each rounded up to
 *       {@link #GRANULARITY}: fixed at instantiation, as the exec's allocation nodes are.
 *   <li><b>Mapping.</b> Memory is mapped when an exec is uploaded or launched on a stream, as much
 *       as its footprint exceeds what that stream may reuse, rounded up to the mapping unit ({@link
 *       #MAPPING_UNIT} unless the simulator was built with another): every mapped byte except those
 *       held by the work in flight on <em>other</em> streams and by graph allocations not yet
 *       freed. Work earlier on the same stream is ordered before the new launch, so its memory is
 *       reusable even while it runs: graphs launched in turn on one stream cost the largest
 *       footprint, not the sum; a launch on another stream can reuse only memory whose launches
 *       have completed.
 *   <li><b>Holding.</b> An upload or launch holds its footprint on its stream until its command
 *       completes; a stream holds the largest of what its uncompleted commands hold. A graph
 *       allocation the graph does not free itself is held from its launch until it is freed (at
 *       once by {@code cuMemFree}; by {@code cuMemFreeAsync} until the free runs on its stream).
 *   <li><b>Accounting.</b> Reserved is what is mapped; used equals reserved (as in every scenario
 *       measured). High-water marks are the largest values since the last reset; a reset sets them
 *       to the current value. Destroying an exec unmaps nothing; a trim unmaps everything not held,
 *       so a trim with every graph idle brings both to 0. A context's destruction unmaps all.
 * </ul>
 *
 * <p>Deterministic wherever the hardware is: a command is complete or not at the moment of a call,
 * so on the deterministic engine every amount is a function of the seed and the calls. Not
 * modelled: graph memory counting against the device's memory ({@code cuMemGetInfo}), and
 * allocation failures of the pool. Guarded by the simulator lock.
 */
final class GraphMemoryPool {

  /**
   * The unit each allocation node is assumed to be placed in: 2 MiB, the H200's large page. Not
   * measured on its own: the H200 maps in {@link #MAPPING_UNIT}s, which hide it for graphs of up to
   * 32 MiB.
   */
  static final long GRANULARITY = 2L << 20;

  /**
   * The unit the driver maps graph memory in: one allocation node of 64 KiB, 1 MiB or 3 MiB made
   * the H200 report 32 MiB used and reserved (benchmarks/runs/2026-12-03-graphmem/graphmem.csv,
   * rows G).
   */
  static final long MAPPING_UNIT = cuda.graph.simulator.Simulator.DEFAULT_GRAPH_MEMORY_MAPPING_UNIT;

  /** The unit this device maps in: {@link #MAPPING_UNIT}, or what the simulator was built with. */
  private final long mappingUnit;

  /** Memory an upload, a launch or a stream-ordered free holds on a stream until {@code done}. */
  private record Hold(SimStream stream, long bytes, Completion done) {}

  private final List<Hold> holds = new ArrayList<>();

  /** Graph allocations launched and not freed, with their rounded sizes. */
  private final Map<Allocation, Long> live = new IdentityHashMap<>();

  private long reserved;
  private long usedHigh;
  private long reservedHigh;

  GraphMemoryPool(long mappingUnit) {
    this.mappingUnit = mappingUnit;
  }

  /** {@return {@code bytes} rounded up to a multiple of {@link #GRANULARITY}} */
  static long footprint(long bytes) {
    return (bytes + GRANULARITY - 1) / GRANULARITY * GRANULARITY;
  }

  /** An upload of {@code exec} on {@code stream}: maps its footprint, held until {@code done}. */
  void upload(SimStream stream, SimExec exec, Completion done) {
    long need = exec.graphMemoryFootprint;
    map(stream, need);
    hold(stream, need, done);
  }

  /**
   * A launch of {@code exec} on {@code stream}: {@code freedFirst} (the previous launch's
   * allocations, freed by {@code AUTO_FREE_ON_LAUNCH}) are released, the footprint is mapped, the
   * part the graph frees itself is held until {@code done} and the rest until it is freed.
   */
  void launch(SimStream stream, SimExec exec, List<Allocation> freedFirst, Completion done) {
    for (Allocation a : freedFirst) {
      live.remove(a);
    }
    map(stream, exec.graphMemoryFootprint);
    long kept = 0;
    for (Allocation a : exec.unfreedAllocations) {
      long bytes = footprint(a.size);
      live.put(a, bytes);
      kept += bytes;
    }
    hold(stream, exec.graphMemoryFootprint - kept, done);
  }

  /** A graph allocation was freed outside its graph at once ({@code cuMemFree}). */
  void freed(Allocation a) {
    live.remove(a);
  }

  /**
   * A graph allocation was freed outside its graph in stream order ({@code cuMemFreeAsync}): its
   * memory stays held on {@code stream} until the free has run.
   */
  void freedOn(Allocation a, SimStream stream, Completion done) {
    Long bytes = live.remove(a);
    if (bytes != null) {
      hold(stream, bytes, done);
    }
  }

  /** {@code cuDeviceGraphMemTrim}: unmaps what no uncompleted work and no live allocation holds. */
  void trim() {
    reserved = held(null);
  }

  /** {@return the amount {@code attribute} names, in bytes} */
  long get(GraphMemAttribute attribute) {
    return switch (attribute) {
      case USED_MEM_CURRENT, RESERVED_MEM_CURRENT -> reserved;
      case USED_MEM_HIGH -> usedHigh;
      case RESERVED_MEM_HIGH -> reservedHigh;
    };
  }

  /** Resets a high-water mark to the current amount (the driver's only setting of it). */
  void resetHighWater(GraphMemAttribute attribute) {
    switch (attribute) {
      case USED_MEM_HIGH -> usedHigh = reserved;
      case RESERVED_MEM_HIGH -> reservedHigh = reserved;
      default -> throw new IllegalArgumentException(attribute + " is no high-water mark");
    }
  }

  /** The device's context was destroyed, and its graph memory with it. */
  void unmapAll() {
    holds.clear();
    live.clear();
    reserved = 0;
  }

  private void map(SimStream stream, long need) {
    long reusable = reserved - held(stream);
    if (need > reusable) {
      reserved += (need - reusable + mappingUnit - 1) / mappingUnit * mappingUnit;
      usedHigh = Math.max(usedHigh, reserved);
      reservedHigh = Math.max(reservedHigh, reserved);
    }
  }

  private void hold(SimStream stream, long bytes, Completion done) {
    if (bytes > 0 && !done.isDone()) {
      holds.add(new Hold(stream, bytes, done));
    }
  }

  /**
   * {@return what live allocations hold and, on each stream other than {@code except} (every stream
   * when null), the largest hold of its uncompleted work}; forgets completed holds
   */
  private long held(@Nullable SimStream except) {
    holds.removeIf(h -> h.done.isDone());
    Map<SimStream, Long> byStream = new IdentityHashMap<>();
    for (Hold h : holds) {
      if (h.stream != except) {
        byStream.merge(h.stream, h.bytes, Math::max);
      }
    }
    long total = 0;
    for (long bytes : byStream.values()) {
      total += bytes;
    }
    for (long bytes : live.values()) {
      total += bytes;
    }
    return total;
  }
}
