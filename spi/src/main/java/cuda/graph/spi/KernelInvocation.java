// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 the cuda-graph authors
package cuda.graph.spi;

import static org.apiguardian.api.API.Status.EXPERIMENTAL;

import java.lang.foreign.MemorySegment;
import org.apiguardian.api.API;

/**
 * One launch of a kernel as a {@link KernelBody} sees it: the launch shape, the argument values
 * (copied when the launch was issued, as the driver copies them) and bounds-checked device memory.
 *
 * @since 0.1.0
 */
@API(status = EXPERIMENTAL, since = "0.1.0")
public interface KernelInvocation {

  /** {@return the grid shape, in blocks} */
  Dim3 grid();

  /** {@return the block shape, in threads} */
  Dim3 block();

  /** {@return the dynamic shared memory size requested for the launch} */
  int sharedMemoryBytes();

  /** {@return the number of kernel parameters passed} */
  int argumentCount();

  /**
   * {@return parameter {@code index} as an 8-bit value}
   *
   * @param index the parameter's position, from 0
   */
  byte i8(int index);

  /**
   * {@return parameter {@code index} as a 16-bit value}
   *
   * @param index the parameter's position, from 0
   */
  short i16(int index);

  /**
   * {@return parameter {@code index} as a 32-bit integer}
   *
   * @param index the parameter's position, from 0
   */
  int i32(int index);

  /**
   * {@return parameter {@code index} as a 64-bit integer}
   *
   * @param index the parameter's position, from 0
   */
  long i64(int index);

  /**
   * {@return parameter {@code index} as a float}
   *
   * @param index the parameter's position, from 0
   */
  float f32(int index);

  /**
   * {@return parameter {@code index} as a double}
   *
   * @param index the parameter's position, from 0
   */
  double f64(int index);

  /**
   * {@return parameter {@code index} as a device pointer ({@code CUdeviceptr})}
   *
   * @param index the parameter's position, from 0
   */
  default long pointer(int index) {
    return i64(index);
  }

  /**
   * Returns a view of {@code byteSize} bytes of device memory starting at {@code address}.
   *
   * @param address a device address, typically a {@link #pointer} argument
   * @param byteSize the size of the view, in bytes
   * @return the live memory, read and written in place; valid only during the launch
   * @throws IllegalDeviceAccessException if the range is not inside one live allocation of this
   *     launch's device; the launch then fails with {@code CUDA_ERROR_ILLEGAL_ADDRESS}
   */
  MemorySegment deviceMemory(long address, long byteSize);

  /**
   * {@code cudaGraphSetConditional}: sets the condition of the conditional node whose handle is
   * {@code handle} (a {@link ConditionalHandle#value()} passed as an argument), within the launch
   * of the graph that holds the node.
   *
   * @param handle the handle's value, typically an {@link #i64} argument
   * @param value the new condition: zero or non-zero for IF and WHILE, a body's index for SWITCH
   * @throws UnsupportedOperationException if this provider does not run kernels in Java
   */
  default void setConditional(long handle, int value) {
    throw new UnsupportedOperationException(
        "cudaGraphSetConditional is available only to kernels a provider runs in Java");
  }

  /**
   * {@code cudaGridDependencySynchronize} ({@code griddepcontrol.wait}): in a kernel launched
   * programmatically ({@link CudaDriver#launchKernelProgrammatic}), waits until the kernel before
   * it has completed and its writes are visible. Elsewhere it returns at once.
   */
  default void gridDependencySynchronize() {}

  /**
   * {@code cudaTriggerProgrammaticLaunchCompletion} ({@code griddepcontrol.launch_dependents}):
   * lets a programmatically launched kernel after this one begin before this one finishes. Without
   * a dependent it does nothing.
   */
  default void triggerDependentLaunch() {}
}
