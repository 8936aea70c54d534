// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 the cuda-graph authors
package cuda.graph.embeddings.internal.gpu;

import cuda.graph.CudaPlatform;
import cuda.graph.simulator.Simulator;

/** The encoder's graphs on the simulator, which runs the kernels' Java references. */
class GpuEncoderTests extends AbstractGpuEncoderTests {

  @Override
  CudaPlatform openPlatform() {
    return CudaPlatform.forDriver(Simulator.builder().build(), "simulator");
  }

  @Override
  void closePlatform(CudaPlatform platform) {
    platform.close();
  }
}
