// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 the cuda-graph authors
package cuda.graph.blas;

import cuda.graph.CudaPlatform;
import org.junit.jupiter.api.Tag;

/**
 * A workspace shared by cuBLASLt products running at once on two streams of a GPU: a long inner
 * dimension, so that the heuristic splits it and reduces the parts through the workspace.
 */
@Tag("gpu")
class CudaWorkspaceSharingGpuTests extends AbstractWorkspaceSharingTests {

  @Override
  CudaPlatform openPlatform() {
    return SystemGpu.orSkip();
  }

  @Override
  void closePlatform(CudaPlatform platform) {
    // The system platform lives as long as the JVM.
  }

  @Override
  int[] shape() {
    return new int[] {64, 64, 8192};
  }
}
