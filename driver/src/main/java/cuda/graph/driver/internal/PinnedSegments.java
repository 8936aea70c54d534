// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 the cuda-graph authors
package cuda.graph.driver.internal;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

/**
 * Scopes the segments of page-locked host memory to the memory's life: each allocation gets a
 * shared arena, and freeing the memory closes it, so the segment and every slice of it refuse
 * access from then on instead of touching freed memory (which can crash the JVM). Closing a shared
 * arena waits for accesses in flight on other threads, so a free never races a read.
 */
final class PinnedSegments {

  private final Map<Long, Arena> arenas = new ConcurrentHashMap<>();

  /** {@return a segment of {@code bytes} at {@code address}, valid until {@link #free}} */
  @SuppressWarnings("restricted") // the address is pinned memory the driver just allocated
  MemorySegment scoped(long address, long bytes) {
    Arena arena = Arena.ofShared();
    arenas.put(address, arena);
    return MemorySegment.ofAddress(address).reinterpret(bytes, arena, null);
  }

  /** Invalidates the segment of the memory at {@code address}, which is about to be freed. */
  void free(long address) {
    Arena arena = arenas.remove(address);
    if (arena != null) {
      arena.close();
    }
  }

  /** {@return how many allocations are still scoped (for tests)} */
  int live() {
    return arenas.size();
  }
}
