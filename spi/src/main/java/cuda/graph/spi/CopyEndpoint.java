// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 the cuda-graph authors
package cuda.graph.spi;

import static org.apiguardian.api.API.Status.EXPERIMENTAL;

import java.lang.foreign.MemorySegment;
import org.apiguardian.api.API;

/**
 * One side of a copy node's 1D copy: device memory, or pinned host memory.
 *
 * @since 0.1.0
 */
@API(status = EXPERIMENTAL, since = "0.1.0")
public sealed interface CopyEndpoint {

  /**
   * Device memory ({@code CU_MEMORYTYPE_DEVICE}).
   *
   * @param address the device address of the first byte
   * @since 0.1.0
   */
  record Device(long address) implements CopyEndpoint {}

  /**
   * Pinned host memory from {@link CudaDriver#memAllocHost} ({@code CU_MEMORYTYPE_HOST}).
   *
   * @param memory the host memory, starting at the first byte copied
   * @since 0.1.0
   */
  record Host(MemorySegment memory) implements CopyEndpoint {}
}
