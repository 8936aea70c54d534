// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 the cuda-graph authors
package cuda.graph.spi;

import static org.apiguardian.api.API.Status.EXPERIMENTAL;

import org.apiguardian.api.API;

/**
 * A Java implementation of a kernel, which the simulator runs in place of device code.
 *
 * <p>It is called once per launch, for the whole grid (not once per thread), on a simulator thread,
 * and must compute what the device kernel computes for that launch's grid, block and arguments. It
 * reads and writes device memory only through {@link KernelInvocation#deviceMemory}; an access
 * outside a live allocation fails the launch with {@code CUDA_ERROR_ILLEGAL_ADDRESS}, as on a GPU.
 * It must not call the driver.
 *
 * @since 0.1.0
 */
@FunctionalInterface
@API(status = EXPERIMENTAL, since = "0.1.0")
public interface KernelBody {
  /**
   * Computes one launch for its whole grid.
   *
   * @param launch the launch's shape, arguments and memory access; valid only during this call
   */
  void execute(KernelInvocation launch);
}
