// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 the cuda-graph authors
package cuda.graph;

import static org.apiguardian.api.API.Status.MAINTAINED;

import java.lang.foreign.MemorySegment;
import org.apiguardian.api.API;

/**
 * One launch as a {@link JavaKernel} sees it: the launch shape, the argument values by parameter
 * index, and the memory behind pointer parameters.
 *
 * @since 0.1.0
 */
@API(status = MAINTAINED, since = "0.1.0")
public interface KernelCall {

  /** {@return the grid shape, in blocks} */
  Dim3 grid();

  /** {@return the block shape, in threads} */
  Dim3 block();

  /** {@return the number of arguments} */
  int argumentCount();

  /**
   * {@return scalar argument {@code index} as an {@code i8}}
   *
   * @param index the parameter's position in the declaration, from 0
   */
  byte i8(int index);

  /**
   * {@return scalar argument {@code index} as an {@code i16}}
   *
   * @param index the parameter's position in the declaration, from 0
   */
  short i16(int index);

  /**
   * {@return scalar argument {@code index} as an {@code i32}}
   *
   * @param index the parameter's position in the declaration, from 0
   */
  int i32(int index);

  /**
   * {@return scalar argument {@code index} as an {@code i64}}
   *
   * @param index the parameter's position in the declaration, from 0
   */
  long i64(int index);

  /**
   * {@return scalar argument {@code index} as an {@code f32}}
   *
   * @param index the parameter's position in the declaration, from 0
   */
  float f32(int index);

  /**
   * {@return scalar argument {@code index} as an {@code f64}}
   *
   * @param index the parameter's position in the declaration, from 0
   */
  double f64(int index);

  /**
   * {@return {@code byteSize} bytes of the memory pointer argument {@code index} points to}; an
   * access beyond the memory's bounds fails the launch (on the simulator with {@code
   * CUDA_ERROR_ILLEGAL_ADDRESS}, as on a GPU)
   *
   * @param index the pointer parameter's position in the declaration, from 0
   * @param byteSize the size of the view, in bytes, from the address the argument holds
   */
  MemorySegment memory(int index, long byteSize);

  /**
   * {@code cudaGraphSetConditional}: sets the condition passed as argument {@code index} (a {@link
   * KernelParam#CONDITION}) for the conditional node that tests it next, in the graph launch this
   * call runs in.
   *
   * @param index the condition parameter's position in the declaration, from 0
   * @param value the new condition: zero or non-zero for IF and WHILE, the case to run for SWITCH
   * @throws IllegalStateException if the kernel does not run inside a launch of the condition's
   *     graph (for example in {@link Kernel#runReference}, where there is no graph)
   */
  void setCondition(int index, int value);

  /**
   * {@code cudaGridDependencySynchronize}: in a kernel launched with {@link
   * LaunchConfig#withProgrammaticDependentLaunch()}, waits until the kernel before it has finished
   * and its writes are visible; call it before reading them. Elsewhere it returns at once.
   */
  void gridDependencySynchronize();

  /**
   * {@code cudaTriggerProgrammaticLaunchCompletion}: lets a kernel launched programmatically after
   * this one begin before this one finishes. Without such a kernel it does nothing.
   */
  void triggerDependentLaunch();

  /** {@return the total number of threads in the launch: grid volume times block volume} */
  default long threadCount() {
    return grid().volume() * block().volume();
  }
}
