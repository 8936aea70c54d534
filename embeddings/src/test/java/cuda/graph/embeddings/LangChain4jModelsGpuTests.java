// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 the cuda-graph authors
package cuda.graph.embeddings;

import cuda.graph.CudaPlatform;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.Tag;

/**
 * The LangChain4j artifacts through the public embedder on the GPU, the system platform's cuda
 * provider: the CUDA kernels and cuBLASLt. Skipped only where the system platform is not the cuda
 * provider (no GPU).
 */
@Tag("gpu")
class LangChain4jModelsGpuTests extends AbstractLangChain4jModelsTests {

  @Override
  CudaPlatform openPlatform() {
    CudaPlatform system = CudaPlatform.system();
    Assumptions.assumeTrue(
        system.providerId().equals("cuda"),
        "no GPU: the system platform is '" + system.providerId() + "'");
    return system;
  }

  @Override
  void closePlatform(CudaPlatform platform) {
    // The system platform lives as long as the JVM.
  }
}
