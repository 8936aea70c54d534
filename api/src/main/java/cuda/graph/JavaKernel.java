// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 the cuda-graph authors
package cuda.graph;

import static org.apiguardian.api.API.Status.MAINTAINED;

import org.apiguardian.api.API;

/**
 * A Java implementation of a kernel: the reference the simulator runs in place of device code, and
 * the CPU reference tests compare GPU results with ({@link Kernel#runReference}).
 *
 * <p>It is called once per launch for the whole grid (not once per GPU thread) and must compute
 * what the device kernel computes for the launch's shape and arguments, touching memory only
 * through {@link KernelCall#memory}.
 *
 * <p>For example, the reference of a kernel {@code scale(int n, float a, float *x)} that multiplies
 * the first {@code n} elements of {@code x} by {@code a} (as {@link KernelImage}'s example declares
 * it):
 *
 * {@snippet class=cuda.graph.JavadocSnippetsTests region=java-kernel}
 *
 * @since 0.1.0
 */
@FunctionalInterface
@API(status = MAINTAINED, since = "0.1.0")
public interface JavaKernel {
  /**
   * Computes one launch for its whole grid.
   *
   * @param call the launch's shape, arguments and memory; valid only during this call
   */
  void run(KernelCall call);
}
