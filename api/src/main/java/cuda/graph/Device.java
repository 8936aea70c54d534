// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 the cuda-graph authors
package cuda.graph;

import static org.apiguardian.api.API.Status.EXPERIMENTAL;
import static org.apiguardian.api.API.Status.MAINTAINED;

import cuda.graph.internal.runtime.DeviceImpl;
import java.util.Objects;
import org.apiguardian.api.API;

/**
 * One GPU of a {@link CudaPlatform}: its identity and limits, and the factory of its streams,
 * events and pinned host buffers.
 *
 * <p>A device's primary context is retained the first time the device is used and released when its
 * platform closes; the library makes it current on every thread before that thread issues work for
 * the device. Instances are created by the platform, one per ordinal, and are safe to use from any
 * thread.
 *
 * @since 0.1.0
 */
@API(status = MAINTAINED, since = "0.1.0")
public sealed interface Device permits DeviceImpl {

  /** {@return the platform this device belongs to} */
  CudaPlatform platform();

  /** {@return the device's ordinal, from 0} */
  int ordinal();

  /** {@return the device's name, e.g. {@code NVIDIA H200}} */
  String name();

  /** {@return the device's compute capability} */
  ComputeCapability computeCapability();

  /** {@return the device's memory size in bytes} */
  long totalMemory();

  /** {@return the device memory not yet allocated, in bytes (a snapshot)} */
  long freeMemory();

  /**
   * {@return the memory the device's graphs use for their allocation nodes (temporaries, {@link
   * Scope#temporary}), as the driver reports it now}: a snapshot, read with four driver calls, of
   * the whole device (every graph of the process on it, not only this platform's)
   *
   * @throws IllegalStateException if the platform is closed
   * @throws CudaDriverError if the driver fails to report it
   */
  GraphMemory graphMemory();

  /**
   * Gives back to the system the device's graph memory that no launch executing or waiting to
   * execute needs ({@code cuDeviceGraphMemTrim}): with every graph idle, {@link #graphMemory()}'s
   * used and reserved amounts drop to 0. Graphs stay valid; their next upload or launch maps their
   * memory again, which costs that launch the mapping. Useful after closing graphs, whose memory
   * the driver otherwise keeps for later graphs.
   *
   * @throws IllegalStateException if the platform is closed
   * @throws CudaDriverError if the driver fails to trim
   */
  void trimGraphMemory();

  /**
   * Resets both high-water marks of {@link #graphMemory()} to the current amounts ({@code
   * cuDeviceSetGraphMemAttribute} of {@code CU_GRAPH_MEM_ATTR_USED_MEM_HIGH} and {@code
   * CU_GRAPH_MEM_ATTR_RESERVED_MEM_HIGH}), so that they measure from now on.
   *
   * @throws IllegalStateException if the platform is closed
   * @throws CudaDriverError if the driver fails to reset them
   */
  void resetGraphMemoryHighWater();

  /**
   * {@return the value of a named device attribute, e.g. {@code MULTIPROCESSOR_COUNT}}
   *
   * @param attribute the attribute to query
   */
  default int attribute(Attribute attribute) {
    return attribute(Objects.requireNonNull(attribute, "attribute").cudaNumber());
  }

  /**
   * {@return the value of a device attribute by its {@code CUdevice_attribute} number}, for
   * attributes {@link Attribute} does not name
   *
   * @param cudaDeviceAttribute the attribute's {@code CUdevice_attribute} number, as in {@code
   *     cuda.h}
   * @throws CudaDriverError if the driver does not know the number
   */
  int attribute(int cudaDeviceAttribute);

  /**
   * Device attributes by name, each with its {@code CUdevice_attribute} number.
   *
   * @since 0.1.0
   */
  enum Attribute {
    /** Threads per block at most. */
    MAX_THREADS_PER_BLOCK(1),
    /** Block size in x at most. */
    MAX_BLOCK_DIM_X(2),
    /** Block size in y at most. */
    MAX_BLOCK_DIM_Y(3),
    /** Block size in z at most. */
    MAX_BLOCK_DIM_Z(4),
    /** Grid size in x at most. */
    MAX_GRID_DIM_X(5),
    /** Grid size in y at most. */
    MAX_GRID_DIM_Y(6),
    /** Grid size in z at most. */
    MAX_GRID_DIM_Z(7),
    /** Static shared memory per block at most, in bytes. */
    MAX_SHARED_MEMORY_PER_BLOCK(8),
    /** Constant memory, in bytes. */
    TOTAL_CONSTANT_MEMORY(9),
    /** Threads per warp. */
    WARP_SIZE(10),
    /** 32-bit registers per block at most. */
    MAX_REGISTERS_PER_BLOCK(12),
    /** Peak clock, in kHz. */
    CLOCK_RATE(13),
    /** Streaming multiprocessors. */
    MULTIPROCESSOR_COUNT(16),
    /** Whether kernels of one context can run concurrently (1) or not (0). */
    CONCURRENT_KERNELS(31),
    /** L2 cache, in bytes. */
    L2_CACHE_SIZE(38),
    /** Resident threads per multiprocessor at most. */
    MAX_THREADS_PER_MULTIPROCESSOR(39),
    /** Copy engines that overlap copies with kernels. */
    ASYNC_ENGINE_COUNT(40),
    /** Major compute capability. */
    COMPUTE_CAPABILITY_MAJOR(75),
    /** Minor compute capability. */
    COMPUTE_CAPABILITY_MINOR(76),
    /** Shared memory per multiprocessor, in bytes. */
    MAX_SHARED_MEMORY_PER_MULTIPROCESSOR(81),
    /** Shared memory per block a kernel can opt in to, in bytes. */
    MAX_SHARED_MEMORY_PER_BLOCK_OPTIN(97),
    /** Resident blocks per multiprocessor at most. */
    MAX_BLOCKS_PER_MULTIPROCESSOR(106),
    /** Whether stream-ordered allocation (memory pools) is supported (1) or not (0). */
    MEMORY_POOLS_SUPPORTED(115);

    private final int cudaNumber;

    Attribute(int cudaNumber) {
      this.cudaNumber = cudaNumber;
    }

    /** {@return the attribute's {@code CUdevice_attribute} number} */
    public int cudaNumber() {
      return cudaNumber;
    }
  }

  /**
   * Creates a stream on this device. Streams are non-blocking (independent of the legacy default
   * stream), which is what graph capture requires; close them when done.
   *
   * @return a new non-blocking stream owned by the caller
   */
  Stream newStream();

  /**
   * Creates an event on this device; close it when done.
   *
   * @return a new event, never recorded, owned by the caller
   */
  CudaEvent newEvent();

  /**
   * Allocates {@code length} elements of page-locked host memory, which asynchronous copies and
   * graph memcpy nodes can read and write while the host goes on. Close it when done: its memory is
   * freed once no queued copy uses it.
   *
   * @param <T> the Java type of one element
   * @param type the element type, which fixes the byte size of one element
   * @param length the number of elements, at least 1
   * @return a new pinned buffer owned by the caller; its contents are unspecified
   * @throws IllegalArgumentException if {@code length} is not positive, or the buffer's byte size
   *     would overflow a {@code long}
   */
  <T> HostBuffer<T> allocateHost(ElementType<T> type, long length);

  /**
   * Allocates {@code length} elements of page-locked host memory mapped into this device's address
   * space ({@code cuMemHostAlloc} with {@code CU_MEMHOSTALLOC_DEVICEMAP |
   * CU_MEMHOSTALLOC_PORTABLE}, then {@code cuMemHostGetDevicePointer}): kernels on this device read
   * and write it through {@link MappedHostBuffer#deviceView()} while Java reads and writes it,
   * without copies; see {@link MappedHostBuffer} for the ordering protocol. Close it when done: its
   * memory is freed once no queued op or captured graph uses it or its view. Like {@link
   * #allocateHost} it is a driver allocation: make it before capturing, since the driver refuses to
   * allocate page-locked memory while a stream captures in {@link CaptureMode#GLOBAL} mode.
   *
   * @param <T> the Java type of one element
   * @param type the element type, which fixes the byte size of one element
   * @param length the number of elements, at least 1
   * @return a new mapped buffer owned by the caller; its contents are unspecified
   * @throws IllegalArgumentException if {@code length} is not positive, or the buffer's byte size
   *     would overflow a {@code long}
   * @throws CudaDriverError if the driver cannot pin that much host memory ({@code cuMemHostAlloc})
   *     or this device cannot map host memory ({@code cuMemHostGetDevicePointer_v2}; the memory is
   *     freed again)
   */
  @API(status = EXPERIMENTAL, since = "0.1.0")
  <T> MappedHostBuffer<T> allocateMapped(ElementType<T> type, long length);
}
