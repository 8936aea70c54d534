// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 the cuda-graph authors
package cuda.graph.llm.internal.engine;

import cuda.graph.CudaPlatform;
import cuda.graph.simulator.Simulator;

/** The batched step on the simulator, which runs the kernels' Java references. */
class BatchStepTests extends AbstractBatchStepTests {

  @Override
  CudaPlatform openPlatform() {
    return CudaPlatform.forDriver(Simulator.builder().build(), "simulator");
  }

  @Override
  void closePlatform(CudaPlatform platform) {
    platform.close();
  }
}
