// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 the cuda-graph authors
package cuda.graph.blas;

import cuda.graph.CudaPlatform;
import org.junit.jupiter.api.Tag;

/**
 * Matmul nodes replaced in place on the GPU: a cuBLASLt call recorded as one child-graph node,
 * given the parameters of a capture of the replacement's call ({@code
 * cuGraphExecChildGraphNodeSetParams}). Skipped only where the system platform is not the cuda
 * provider (no GPU); a GPU host without cuBLASLt fails with the loader's message.
 */
@Tag("gpu")
class CudaMatmulReplacementGpuTests extends AbstractMatmulReplacementTests {

  @Override
  CudaPlatform openPlatform() {
    return SystemGpu.orSkip();
  }

  @Override
  void closePlatform(CudaPlatform platform) {
    // The system platform lives as long as the JVM.
  }
}
