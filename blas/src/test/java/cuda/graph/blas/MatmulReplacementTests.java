// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 the cuda-graph authors
package cuda.graph.blas;

import cuda.graph.CudaPlatform;
import cuda.graph.simulator.Simulator;

/** Matmul nodes replaced in place, on the simulator. */
class MatmulReplacementTests extends AbstractMatmulReplacementTests {

  @Override
  CudaPlatform openPlatform() {
    return CudaPlatform.forDriver(Simulator.builder().build(), "simulator");
  }

  @Override
  void closePlatform(CudaPlatform platform) {
    platform.close();
  }
}
