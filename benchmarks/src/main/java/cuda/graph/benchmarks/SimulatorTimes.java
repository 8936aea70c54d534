// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 the cuda-graph authors
package cuda.graph.benchmarks;

import cuda.graph.CudaPlatform;

/**
 * What a benchmark says about its times where no GPU runs them: the simulator runs Java kernels and
 * a model of the driver, so its times vary from run to run and say nothing about a GPU. The
 * benchmarks still run there (their tests and smoke runs), print this once, and leave out the
 * ratios that would read as a speedup.
 */
final class SimulatorTimes {

  private SimulatorTimes() {}

  /** {@return whether {@code platform}'s times are a GPU's} */
  static boolean meaningful(CudaPlatform platform) {
    return platform.providerId().equals("cuda");
  }

  /** Prints, where the times are not a GPU's, one comment line saying so. */
  static void note(CudaPlatform platform) {
    if (!meaningful(platform)) {
      System.out.println(
          "# on the "
              + platform.providerId()
              + ", times say nothing about a GPU: ratios are left out; run on a GPU host"
              + " (-Dcuda.graph.provider=cuda) to measure");
    }
  }
}
