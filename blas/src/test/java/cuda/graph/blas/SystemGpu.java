// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 the cuda-graph authors
package cuda.graph.blas;

import cuda.graph.CudaPlatform;
import org.junit.jupiter.api.Assumptions;

/** The GPU tests' platform: the system platform when it is the cuda provider's, else a skip. */
final class SystemGpu {

  private SystemGpu() {}

  /**
   * {@return the system platform (it lives as long as the JVM: never closed by a test)}, or skips
   * the calling test with a one-line reason where it is not the GPU's
   */
  static CudaPlatform orSkip() {
    CudaPlatform system = CudaPlatform.system();
    Assumptions.assumeTrue(
        system.providerId().equals("cuda"),
        "no GPU: the system platform is '" + system.providerId() + "'");
    return system;
  }
}
