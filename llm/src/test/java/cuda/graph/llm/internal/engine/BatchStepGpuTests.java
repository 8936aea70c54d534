// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 the cuda-graph authors
package cuda.graph.llm.internal.engine;

import cuda.graph.CudaPlatform;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.Tag;

/**
 * The batched step on the GPU: the CUDA kernels and cuBLASLt, held to the tolerances of {@link
 * AbstractBatchStepTests}. Skipped only where the system platform is not the cuda provider (no
 * GPU).
 */
@Tag("gpu")
class BatchStepGpuTests extends AbstractBatchStepTests {

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
