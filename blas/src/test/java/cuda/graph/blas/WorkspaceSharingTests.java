// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 the cuda-graph authors
package cuda.graph.blas;

import cuda.graph.CudaPlatform;
import cuda.graph.simulator.Simulator;

/**
 * A workspace shared by products running at once on two streams, on the simulator, whose matmul
 * kernel passes its accumulators through the workspace, so overlapping runs corrupt each other.
 */
class WorkspaceSharingTests extends AbstractWorkspaceSharingTests {

  @Override
  CudaPlatform openPlatform() {
    return CudaPlatform.forDriver(Simulator.builder().build(), "simulator");
  }

  @Override
  void closePlatform(CudaPlatform platform) {
    platform.close();
  }

  @Override
  int[] shape() {
    return new int[] {16, 24, 32};
  }
}
