// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 the cuda-graph authors
package cuda.graph.langchain4j;

import static cuda.graph.langchain4j.Anchor.FP16_FLOOR;
import static cuda.graph.langchain4j.Anchor.FP32_FLOOR;
import static cuda.graph.langchain4j.Anchor.MINILM;
import static cuda.graph.langchain4j.Anchor.assertLikeLangChain4j;
import static org.junit.jupiter.api.Assertions.assertEquals;

import cuda.graph.CudaPlatform;
import cuda.graph.embeddings.Backend;
import cuda.graph.embeddings.Precision;
import dev.langchain4j.data.embedding.Embedding;
import dev.langchain4j.data.segment.TextSegment;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

/**
 * The model as an application builds it, on the GPU: the system platform, no platform given, {@link
 * cuda.graph.embeddings.WhenNoGpu#FAIL}. Run by {@code scripts/gpu-run.sh langchain4j}, with the
 * model jar staged by {@code scripts/gpu-embed-stage.sh}.
 */
@Tag("gpu")
class CudaGraphEmbeddingModelGpuTests {

  @BeforeEach
  void onTheGpu() {
    String provider = CudaPlatform.system().providerId();
    Assumptions.assumeTrue(
        provider.equals("cuda"), "no GPU: the system platform is '" + provider + "'");
  }

  @Test
  void theRetrievalFlowFindsTheSameTopThreeAsLangChain4jOnTheGpu() {
    Map<String, List<RetrievalTests.Hit>> anchor = RetrievalTests.retrieve(Anchor.MODEL);
    try (CudaGraphEmbeddingModel model =
        CudaGraphEmbeddingModel.builder().modelArtifact(MINILM).build()) {
      assertEquals(Backend.GPU, model.backend());
      Map<String, List<RetrievalTests.Hit>> ours = RetrievalTests.retrieve(model);
      RetrievalTests.assertSameTopThree(anchor, ours);
    }
  }

  @Test
  void everyCorpusEmbeddingIsWithinTheFloorInBothPrecisions() {
    List<String> texts = new ArrayList<>(RetrievalTests.CORPUS);
    texts.addAll(RetrievalTests.QUERIES);
    // Past the model's 128-token truncation: cut as LangChain4j cuts it.
    texts.add("Each replay launches the whole sequence of kernels with one call. ".repeat(20));
    List<TextSegment> segments = texts.stream().map(TextSegment::from).toList();
    for (Precision precision : Precision.values()) {
      try (CudaGraphEmbeddingModel model =
          CudaGraphEmbeddingModel.builder()
              .modelArtifact(MINILM)
              .precision(precision)
              .maxBatch(16)
              .build()) {
        List<Embedding> embeddings = model.embedAll(segments).content();
        double floor = precision == Precision.FP32 ? FP32_FLOOR : FP16_FLOOR;
        for (int i = 0; i < texts.size(); i++) {
          assertLikeLangChain4j(embeddings.get(i).vector(), texts.get(i), floor);
        }
      }
    }
  }
}
