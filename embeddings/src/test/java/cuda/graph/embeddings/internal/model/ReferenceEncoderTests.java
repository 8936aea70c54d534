// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 the cuda-graph authors
package cuda.graph.embeddings.internal.model;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** The plain-Java encoder gives LangChain4j's embeddings of all-MiniLM-L6-v2. */
class ReferenceEncoderTests {

  static final double MIN_COSINE = MiniLm.MIN_COSINE;

  static final List<String> SENTENCES =
      List.of(
          "A man is eating food.",
          "A man is eating a piece of bread.",
          "The girl is carrying a baby.",
          "A man is riding a horse.",
          "A woman is playing violin.",
          "Hi",
          "Héllo, wörld! Ça va? e-mail: a.b@c.com (x) 3.14 $5, don't stop!!! 你好 😀",
          "CUDA graphs record a sequence of kernel launches and memory copies once, then replay"
              + " the whole sequence with a single launch, so the CPU no longer pays for each"
              + " small kernel of a transformer's decode step.");

  /** Each sentence's embedding by both, made once. */
  private static final Map<String, float[][]> EMBEDDINGS = new LinkedHashMap<>();

  private static synchronized float[][] both(String text) {
    return EMBEDDINGS.computeIfAbsent(
        text,
        t ->
            new float[][] {
              MiniLm.Ours.ENCODER.embed(MiniLm.Ours.TOKENIZER.parts(t)), MiniLm.Anchor.embed(t)
            });
  }

  @Test
  void everySentencesEmbeddingHasCosineAtLeast0_99999WithLangChain4jsAndNorm1() {
    for (String sentence : SENTENCES) {
      float[][] e = both(sentence);
      MiniLm.assertEmbedding(
          e[0], e[1], MIN_COSINE, "\"" + BertTokenizerTests.abbreviated(sentence) + "\"");
    }
  }

  @Test
  void embeddingsAreUnitVectors() {
    for (String sentence : SENTENCES) {
      float[] e = both(sentence)[0];
      assertEquals(1.0, Math.sqrt(dot(e, e)), 1e-6, sentence);
    }
  }

  private static double dot(float[] a, float[] b) {
    double sum = 0;
    for (int i = 0; i < a.length; i++) {
      sum += (double) a[i] * b[i];
    }
    return sum;
  }

  @Test
  void aPaddedBatchGivesEachSentenceTheEmbeddingItHasAlone() {
    List<BertTokenizer.Part> parts = new ArrayList<>();
    for (String sentence : SENTENCES) {
      parts.addAll(MiniLm.Ours.TOKENIZER.parts(sentence));
    }
    ReferenceEncoder.Batch batch = ReferenceEncoder.Batch.of(parts);
    assertTrue(batch.length() > parts.get(0).ids().length, "the batch pads the short sentences");
    float[][] batched = MiniLm.Ours.ENCODER.embed(batch);
    for (int s = 0; s < SENTENCES.size(); s++) {
      float[] alone = both(SENTENCES.get(s))[0];
      for (int h = 0; h < alone.length; h++) {
        assertEquals(alone[h], batched[s][h], 1e-6, SENTENCES.get(s));
      }
    }
  }

  @Test
  void aTextLongerThan512TokensEmbedsAsLangChain4jEmbedsIt() {
    float[][] e = both(MiniLm.LONG_TEXT);
    MiniLm.assertEmbedding(e[0], e[1], MIN_COSINE, "the long text");
  }

  @Test
  void erfAgreesWithTabulatedValues() {
    double[][] table = {
      {0, 0},
      {1e-8, 1.1283791670955126e-08},
      {0.1, 0.1124629160182849},
      {0.5, 0.5204998778130465},
      {1, 0.8427007929497149},
      {-1.5, -0.9661051464753108},
      {2, 0.9953222650189527},
      {2.9, 0.9999589021219005},
      {2.99, 0.9999764743969194},
      {3, 0.9999779095030014},
      {3.01, 0.9999792610363629},
      {4, 0.9999999845827421},
      {-5, -0.9999999999984626},
      {7, 1}
    };
    for (double[] row : table) {
      assertEquals(row[1], ReferenceEncoder.erf(row[0]), 2e-15, () -> "erf(" + row[0] + ")");
    }
  }
}
