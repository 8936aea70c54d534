// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 the cuda-graph authors
package cuda.graph.driver.internal;

import cuda.graph.spi.CuResult;
import cuda.graph.spi.CudaDriverException;
import cuda.graph.spi.DriverCall;
import java.lang.foreign.MemorySegment;

/**
 * Checks on host memory arguments, made before any native call so that a bad argument never reaches
 * the driver.
 *
 * <p>The driver reads and writes host buffers by raw address, possibly long after the call returned
 * (asynchronous copies), so a heap segment (whose address the garbage collector may change) can
 * never be passed, and a byte count beyond the segment would let the driver touch memory the
 * segment does not own. Both fail the way the driver fails bad arguments: with {@code
 * CUDA_ERROR_INVALID_VALUE}.
 */
final class HostSegments {

  private HostSegments() {}

  /**
   * Checks that {@code segment} is native memory of at least {@code bytes} bytes.
   *
   * @throws CudaDriverException with {@code CUDA_ERROR_INVALID_VALUE} when it is not
   */
  static void requireNative(MemorySegment segment, long bytes, DriverCall call) {
    requireNative(segment, call);
    if (bytes < 0 || bytes > segment.byteSize()) {
      throw new CudaDriverException(
          CuResult.INVALID_VALUE,
          call,
          "byte count "
              + bytes
              + " does not fit the "
              + segment.byteSize()
              + "-byte host segment; pass at most segment.byteSize() bytes");
    }
  }

  /**
   * Checks that {@code segment} is native memory.
   *
   * @throws CudaDriverException with {@code CUDA_ERROR_INVALID_VALUE} when it is a heap segment
   */
  static void requireNative(MemorySegment segment, DriverCall call) {
    if (!segment.isNative()) {
      throw new CudaDriverException(
          CuResult.INVALID_VALUE,
          call,
          "host memory must be native (off-heap), not a heap segment: allocate it from an Arena or"
              + " with memAllocHost (pinned, needed for truly asynchronous copies)");
    }
  }
}
