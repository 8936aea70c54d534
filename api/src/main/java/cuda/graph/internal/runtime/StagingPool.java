// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 the cuda-graph authors
package cuda.graph.internal.runtime;

import java.lang.foreign.MemorySegment;
import java.util.ArrayDeque;
import java.util.HashMap;
import java.util.Map;

/**
 * Pinned host memory through which copies from and to Java arrays are staged (the driver copies
 * asynchronously only from page-locked memory). Blocks come in power-of-two sizes and are reused:
 * pinning memory is expensive. A block returns to the pool when the execution that used it
 * finishes, so no copy can still be reading it. Thread-safe.
 */
public final class StagingPool {

  private static final long MIN_BLOCK = 64 * 1024;
  private static final int KEEP_PER_SIZE = 4;

  private final DeviceImpl device;
  private final Map<Long, ArrayDeque<MemorySegment>> free = new HashMap<>();
  private boolean closed;

  public StagingPool(DeviceImpl device) {
    this.device = device;
  }

  /** Takes a block of at least {@code bytes} for {@code execution}, returned when it finishes. */
  public MemorySegment lease(long bytes, Execution execution) {
    long size = Math.max(MIN_BLOCK, Long.highestOneBit(Math.max(1, bytes - 1)) << 1);
    MemorySegment block;
    synchronized (this) {
      ArrayDeque<MemorySegment> blocks = free.get(size);
      block = blocks == null ? null : blocks.pollFirst();
    }
    if (block == null) {
      block = execution.driver.memAllocHost(size);
    }
    MemorySegment leased = block;
    execution.hold(new RefCount(() -> giveBack(size, leased)));
    return leased.asSlice(0, bytes);
  }

  private void giveBack(long size, MemorySegment block) {
    synchronized (this) {
      if (!closed) {
        ArrayDeque<MemorySegment> blocks = free.computeIfAbsent(size, s -> new ArrayDeque<>());
        if (blocks.size() < KEEP_PER_SIZE) {
          blocks.addLast(block);
          return;
        }
      }
    }
    device.release(driver -> driver.memFreeHost(block));
  }

  /** Frees the pooled blocks; blocks still leased are freed when returned. */
  public void close() {
    synchronized (this) {
      closed = true;
      for (ArrayDeque<MemorySegment> blocks : free.values()) {
        for (MemorySegment block : blocks) {
          device.platform().driver().memFreeHost(block);
        }
      }
      free.clear();
    }
  }
}
