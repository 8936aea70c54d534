// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 the cuda-graph authors
package cuda.graph.embeddings;

import cuda.graph.CudaPlatform;
import cuda.graph.simulator.Simulator;

/** The LangChain4j artifacts through the public embedder on the simulator. */
class LangChain4jModelsTests extends AbstractLangChain4jModelsTests {

  @Override
  CudaPlatform openPlatform() {
    return CudaPlatform.forDriver(Simulator.create(), "simulator");
  }

  @Override
  void closePlatform(CudaPlatform platform) {
    platform.close();
  }
}
