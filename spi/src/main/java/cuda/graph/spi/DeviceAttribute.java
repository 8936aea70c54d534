// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 the cuda-graph authors
package cuda.graph.spi;

import static org.apiguardian.api.API.Status.EXPERIMENTAL;

import org.apiguardian.api.API;

/**
 * {@code CUdevice_attribute} values for {@link CudaDriver#deviceGetAttribute}.
 *
 * @since 0.1.0
 */
@API(status = EXPERIMENTAL, since = "0.1.0")
public final class DeviceAttribute {
  /** Threads per block at most. */
  public static final int MAX_THREADS_PER_BLOCK = 1;

  /** Block size in x at most. */
  public static final int MAX_BLOCK_DIM_X = 2;

  /** Block size in y at most. */
  public static final int MAX_BLOCK_DIM_Y = 3;

  /** Block size in z at most. */
  public static final int MAX_BLOCK_DIM_Z = 4;

  /** Grid size in x at most, in blocks. */
  public static final int MAX_GRID_DIM_X = 5;

  /** Grid size in y at most, in blocks. */
  public static final int MAX_GRID_DIM_Y = 6;

  /** Grid size in z at most, in blocks. */
  public static final int MAX_GRID_DIM_Z = 7;

  /** Static shared memory per block at most, in bytes. */
  public static final int MAX_SHARED_MEMORY_PER_BLOCK = 8;

  /** Constant memory, in bytes. */
  public static final int TOTAL_CONSTANT_MEMORY = 9;

  /** Threads per warp. */
  public static final int WARP_SIZE = 10;

  /** 32-bit registers per block at most. */
  public static final int MAX_REGISTERS_PER_BLOCK = 12;

  /** Peak clock, in kHz. */
  public static final int CLOCK_RATE = 13;

  /** Streaming multiprocessors. */
  public static final int MULTIPROCESSOR_COUNT = 16;

  /** The {@code CUcomputemode} the device is in (0 is the default, shared mode). */
  public static final int COMPUTE_MODE = 20;

  /** Whether kernels of one context can run concurrently (1) or not (0). */
  public static final int CONCURRENT_KERNELS = 31;

  /** The device's PCI bus number. */
  public static final int PCI_BUS_ID = 33;

  /** L2 cache, in bytes. */
  public static final int L2_CACHE_SIZE = 38;

  /** Resident threads per multiprocessor at most. */
  public static final int MAX_THREADS_PER_MULTIPROCESSOR = 39;

  /** Copy engines that overlap copies with kernels. */
  public static final int ASYNC_ENGINE_COUNT = 40;

  /** Whether the device shares one virtual address space with the host (1) or not (0). */
  public static final int UNIFIED_ADDRESSING = 41;

  /** Major compute capability. */
  public static final int COMPUTE_CAPABILITY_MAJOR = 75;

  /** Minor compute capability. */
  public static final int COMPUTE_CAPABILITY_MINOR = 76;

  /** Shared memory per multiprocessor, in bytes. */
  public static final int MAX_SHARED_MEMORY_PER_MULTIPROCESSOR = 81;

  /** Shared memory per block a kernel can opt in to, in bytes. */
  public static final int MAX_SHARED_MEMORY_PER_BLOCK_OPTIN = 97;

  /** Resident blocks per multiprocessor at most. */
  public static final int MAX_BLOCKS_PER_MULTIPROCESSOR = 106;

  /** Whether stream-ordered allocation (memory pools) is supported (1) or not (0). */
  public static final int MEMORY_POOLS_SUPPORTED = 115;

  private DeviceAttribute() {}
}
