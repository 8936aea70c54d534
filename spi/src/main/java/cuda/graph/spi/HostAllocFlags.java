// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 the cuda-graph authors
package cuda.graph.spi;

import static org.apiguardian.api.API.Status.EXPERIMENTAL;

import org.apiguardian.api.API;

/**
 * Flags of {@code cuMemHostAlloc} ({@code CU_MEMHOSTALLOC_*}); they combine freely.
 *
 * @since 0.1.0
 */
@API(status = EXPERIMENTAL, since = "0.1.0")
public final class HostAllocFlags {

  /** No flag: page-locked memory, like {@code cuMemAllocHost_v2}'s. */
  public static final int DEFAULT = 0;

  /**
   * {@code CU_MEMHOSTALLOC_PORTABLE}: the memory is pinned memory for every context, not only the
   * one that allocated it.
   */
  public static final int PORTABLE = 0x01;

  /**
   * {@code CU_MEMHOSTALLOC_DEVICEMAP}: the memory is mapped into the device address space; {@code
   * cuMemHostGetDevicePointer_v2} gives its device pointer, through which kernels read and write
   * it.
   */
  public static final int DEVICEMAP = 0x02;

  /**
   * {@code CU_MEMHOSTALLOC_WRITECOMBINED}: write-combined memory, fast for the device to read and
   * slow for the host to read.
   */
  public static final int WRITECOMBINED = 0x04;

  /** Every flag the driver defines; any other bit is {@code CUDA_ERROR_INVALID_VALUE}. */
  public static final int ALL = PORTABLE | DEVICEMAP | WRITECOMBINED;

  private HostAllocFlags() {}
}
