// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 the cuda-graph authors
package cuda.graph.simulator.internal;

import cuda.graph.spi.CuFunction;
import cuda.graph.spi.KernelBody;
import cuda.graph.spi.ParamInfo;
import java.util.List;
import org.jspecify.annotations.Nullable;

/**
 * A kernel of a loaded module; {@link #body} is its Java implementation, if one was supplied, and
 * {@link #parameters} the layout of its parameters, where the module's PTX or cubin tells them.
 */
final class SimFunction implements HandleTable.Handled {

  CuFunction handle = new CuFunction(0);
  final SimModule module;
  final String name;
  final @Nullable KernelBody body;
  final @Nullable List<ParamInfo> parameters;

  /**
   * The most dynamic shared memory a launch may ask for: 48 KiB until raised by {@code
   * cuFuncSetAttribute}, as the real driver does.
   */
  volatile int maxDynamicSharedMemory = ModuleCalls.MAX_DYNAMIC_SHARED_MEMORY;

  SimFunction(
      SimModule module,
      String name,
      @Nullable KernelBody body,
      @Nullable List<ParamInfo> parameters) {
    this.module = module;
    this.name = name;
    this.body = body;
    this.parameters = parameters;
  }

  @Override
  public CuFunction handle() {
    return handle;
  }
}
