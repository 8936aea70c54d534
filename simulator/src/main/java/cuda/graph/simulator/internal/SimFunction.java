// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 the cuda-graph authors
package cuda.graph.simulator.internal;

import cuda.graph.spi.CuFunction;
import cuda.graph.spi.KernelBody;
import cuda.graph.spi.ParamInfo;
import java.util.List;
import org.jspecify.annotations.Nullable;

/**
 * A kernel of a loaded module; {@link #body} is its Java implementation, if one was supplied,
 * {@link #parameters} the layout of its parameters, where the module's PTX or cubin tells them, and
 * {@link #staticSharedMemory} its static shared memory, where the module's PTX tells it.
 */
final class SimFunction implements HandleTable.Handled {

  CuFunction handle = new CuFunction(0);
  final SimModule module;
  final String name;
  final @Nullable KernelBody body;
  final @Nullable List<ParamInfo> parameters;

  /**
   * The bytes of static shared memory a block of the kernel has ({@code __shared__} variables), or
   * -1 where the simulator cannot tell (its limits then count none, and {@code cuFuncGetAttribute}
   * answers NOT_SUPPORTED).
   */
  final int staticSharedMemory;

  /**
   * The most dynamic shared memory a launch may ask for: 48 KiB less the static shared memory until
   * raised by {@code cuFuncSetAttribute}, as the real driver does.
   */
  volatile int maxDynamicSharedMemory;

  SimFunction(
      SimModule module,
      String name,
      @Nullable KernelBody body,
      @Nullable List<ParamInfo> parameters,
      int staticSharedMemory) {
    this.module = module;
    this.name = name;
    this.body = body;
    this.parameters = parameters;
    this.staticSharedMemory = staticSharedMemory;
    this.maxDynamicSharedMemory = defaultMaxDynamicSharedMemory();
  }

  /** {@return the static shared memory the limits count: none where it is unknown} */
  int countedStaticSharedMemory() {
    return Math.max(0, staticSharedMemory);
  }

  /**
   * {@return the dynamic shared memory a launch may ask for without opting in}: the device's 48 KiB
   * less the static shared memory, or none where that is more (cuda.h's rule)
   */
  int defaultMaxDynamicSharedMemory() {
    return Math.max(0, ModuleCalls.MAX_SHARED_MEMORY_PER_BLOCK - countedStaticSharedMemory());
  }

  @Override
  public CuFunction handle() {
    return handle;
  }
}
