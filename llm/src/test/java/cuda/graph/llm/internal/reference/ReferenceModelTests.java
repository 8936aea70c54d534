// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 the cuda-graph authors
package cuda.graph.llm.internal.reference;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import cuda.graph.llm.internal.checkpoint.Checkpoint;
import cuda.graph.llm.internal.checkpoint.DType;
import cuda.graph.llm.internal.checkpoint.ModelConfig;
import cuda.graph.llm.internal.checkpoint.TinyCheckpoints;
import java.nio.file.Path;
import java.util.List;
import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class ReferenceModelTests {

  @TempDir Path tmp;

  @Test
  void ropeRotatesEachHalfPairByItsAngleAsAComplexNumber() {
    SplittableRandom random = new SplittableRandom(5);
    int headDim = 16;
    float[] invFreq = new float[headDim / 2];
    for (int i = 0; i < invFreq.length; i++) {
      invFreq[i] = (float) Math.pow(500000.0, -2.0 * i / headDim);
    }
    float[] x = new float[3 + headDim];
    for (int i = 0; i < x.length; i++) {
      x[i] = (float) random.nextDouble(-1, 1);
    }
    float[] rotated = x.clone();

    ReferenceModel.rope(rotated, 3, headDim, 37, invFreq);

    for (int i = 0; i < headDim / 2; i++) {
      // z = x[i] + j x[i + d/2], in polar form: r e^{j phi} becomes r e^{j (phi + 37 invFreq[i])}.
      double re = x[3 + i];
      double im = x[3 + i + headDim / 2];
      double r = Math.hypot(re, im);
      double phi = Math.atan2(im, re) + 37.0 * invFreq[i];
      assertEquals(r * Math.cos(phi), rotated[3 + i], 2e-6, "real part of pair " + i);
      assertEquals(r * Math.sin(phi), rotated[3 + i + headDim / 2], 2e-6, "imaginary part " + i);
    }
    assertArrayEquals(
        new float[] {x[0], x[1], x[2]}, new float[] {rotated[0], rotated[1], rotated[2]});
  }

  @Test
  void ropePairsElementIWithIPlusHalfTheHeadNotItsNeighbour() {
    float[] x = new float[8];
    x[0] = 1;

    ReferenceModel.rope(x, 0, 8, 1, new float[] {(float) (Math.PI / 2), 0, 0, 0});

    assertEquals(0, x[0], 1e-7);
    assertEquals(1, x[4], 1e-7);
    assertEquals(0, x[1]);
  }

  @Test
  void llama3ScalingMatchesFrequenciesComputedByHand() {
    // head_dim 8, theta 10^4: 1, 0.1, 0.01, 0.001; wavelengths 2 pi, 62.8, 628, 6283. With
    // original 16, low 1, high 4: wavelengths above 16 are divided by 8, those in [4, 16]
    // interpolated: smooth = (16 / 2 pi - 1) / 3 = 0.51549303, 1 -> (1 - s) / 8 + s.
    ModelConfig scaled = ModelConfig.parse(TinyCheckpoints.configJson(tinySpec(1)), "config.json");
    ModelConfig plain =
        ModelConfig.parse(
            TinyCheckpoints.configJson(tinySpec(1).withScaling(false)), "config.json");

    float[] f = ReferenceModel.inverseFrequencies(scaled);
    float[] g = ReferenceModel.inverseFrequencies(plain);

    assertArrayEquals(new float[] {0.5760564f, 0.0125f, 0.00125f, 0.000125f}, f, 1e-7f);
    assertArrayEquals(new float[] {1f, 0.1f, 0.01f, 0.001f}, g, 1e-8f);
  }

  @Test
  void attentionEqualsANaiveMaskedSoftmaxWithRepeatedKeyValueHeads() {
    SplittableRandom random = new SplittableRandom(11);
    int heads = 6;
    int kvHeads = 2;
    int headDim = 4;
    int length = 7;
    float[][] q = new float[length][heads * headDim];
    float[] keys = new float[length * kvHeads * headDim];
    float[] values = new float[length * kvHeads * headDim];
    fill(random, keys);
    fill(random, values);
    for (float[] row : q) {
      fill(random, row);
    }

    for (int t = 0; t < length; t++) {
      float[] got = ReferenceModel.attention(q[t], keys, values, t + 1, heads, kvHeads, headDim);
      for (int h = 0; h < heads; h++) {
        int kvh = h / (heads / kvHeads); // repeat_kv: each kv head serves heads/kvHeads queries
        double[] weights = new double[length];
        double total = 0;
        for (int p = 0; p < length; p++) {
          double dot = 0;
          for (int d = 0; d < headDim; d++) {
            dot += q[t][h * headDim + d] * keys[(p * kvHeads + kvh) * headDim + d];
          }
          weights[p] = p > t ? 0 : Math.exp(dot / Math.sqrt(headDim)); // the causal mask
          total += weights[p];
        }
        for (int d = 0; d < headDim; d++) {
          double sum = 0;
          for (int p = 0; p < length; p++) {
            sum += weights[p] / total * values[(p * kvHeads + kvh) * headDim + d];
          }
          assertEquals(
              sum, got[h * headDim + d], 1e-6, "position " + t + " head " + h + " dim " + d);
        }
      }
    }
  }

  @Test
  void aDecodeStepGivesTheLogitsOfAFullPrefillOfTheLongerSequence() {
    ReferenceModel model = model(tinySpec(21));
    int[] prompt = {5, 77, 260, 13, 200, 9};
    int[] longer = {5, 77, 260, 13, 200, 9, 42, 101};

    ReferenceModel.KvCache stepped = model.newCache(16);
    model.forward(stepped, prompt);
    model.forward(stepped, new int[] {42});
    float[] step = model.forward(stepped, new int[] {101})[0];
    ReferenceModel.KvCache whole = model.newCache(16);
    float[][] prefill = model.forward(whole, longer);

    assertArrayEquals(prefill[7], step);
    assertEquals(8, stepped.length());
    for (int layer = 0; layer < 2; layer++) {
      for (int p = 0; p < 8; p++) {
        assertArrayEquals(whole.key(layer, p), stepped.key(layer, p), "key " + layer + "/" + p);
        assertArrayEquals(whole.value(layer, p), stepped.value(layer, p));
      }
    }
  }

  @Test
  void theForwardPassEqualsANaiveOneWithoutCache() {
    TinyCheckpoints.Spec spec = tinySpec(8).withTied(false);
    ReferenceModel model = model(spec);
    int[] tokens = {1, 2, 3, 250, 17, 99, 4};

    float[][] logits = model.forward(model.newCache(tokens.length), tokens);

    double[][] naive = NaiveLlama.logits(spec, tokens);
    for (int t = 0; t < tokens.length; t++) {
      for (int v = 0; v < spec.vocab(); v++) {
        assertEquals(naive[t][v], logits[t][v], 2e-4 * (1 + Math.abs(naive[t][v])), t + "/" + v);
      }
    }
  }

  @Test
  void aBatchOfPromptsOfDifferentLengthsDecodesAsEachAlone() {
    ReferenceModel model = model(tinySpec(4));
    List<int[]> prompts =
        List.of(new int[] {7}, new int[] {3, 4, 5, 6, 7, 8, 9}, new int[] {100, 101, 102});

    List<ReferenceModel.Generation> batch = model.generateGreedy(prompts, 12);

    for (int i = 0; i < prompts.size(); i++) {
      ReferenceModel.Generation alone = model.generateGreedy(List.of(prompts.get(i)), 12).get(0);
      assertArrayEquals(alone.tokens(), batch.get(i).tokens(), "prompt " + i);
      assertEquals(12, batch.get(i).tokens().length);
      for (float gap : batch.get(i).topTwoGaps()) {
        assertTrue(gap >= 0, "a gap between the two largest logits is not negative: " + gap);
      }
    }
    assertNotEquals(
        java.util.Arrays.toString(batch.get(0).tokens()),
        java.util.Arrays.toString(batch.get(1).tokens()),
        "different prompts lead to different continuations (the logits are not flat)");
  }

  @Test
  void theGreedyTokenIsTheArgmaxOfTheLogitsOfTheSequenceSoFar() {
    ReferenceModel model = model(tinySpec(6));
    int[] prompt = {10, 20, 30};

    int[] generated = model.generateGreedy(List.of(prompt), 3).get(0).tokens();

    int[] sequence = {10, 20, 30, generated[0], generated[1]};
    float[][] logits = model.forward(model.newCache(8), sequence);
    assertEquals(generated[0], ReferenceModel.argmax(logits[2]));
    assertEquals(generated[1], ReferenceModel.argmax(logits[3]));
    assertEquals(generated[2], ReferenceModel.argmax(logits[4]));
  }

  @Test
  void bf16WeightsLoadAsTheirRoundedValues() {
    TinyCheckpoints.Spec spec = tinySpec(2).withDtype(DType.BF16).withShards(2);
    try (Checkpoint c = Checkpoint.open(TinyCheckpoints.write(tmp.resolve("bf16"), spec))) {
      ReferenceModel model = ReferenceModel.load(c);
      float[][] logits = model.forward(model.newCache(4), new int[] {1, 2});
      double[][] naive = NaiveLlama.logits(spec, new int[] {1, 2});
      for (int v = 0; v < spec.vocab(); v++) {
        assertEquals(naive[1][v], logits[1][v], 2e-4 * (1 + Math.abs(naive[1][v])));
      }
    }
  }

  @Test
  void outOfVocabularyTokensAndAFullCacheAreRefused() {
    ReferenceModel model = model(tinySpec(1));
    ReferenceModel.KvCache cache = model.newCache(2);

    var e =
        assertThrows(IllegalArgumentException.class, () -> model.forward(cache, new int[] {300}));
    assertTrue(
        e.getMessage().contains("token 300 outside the vocabulary [0, 300)"), e.getMessage());
    var full =
        assertThrows(
            IllegalArgumentException.class, () -> model.forward(cache, new int[] {1, 2, 3}));
    assertTrue(full.getMessage().contains("exceed the cache's 2"), full.getMessage());
  }

  static TinyCheckpoints.Spec tinySpec(long seed) {
    return TinyCheckpoints.Spec.tiny(seed);
  }

  private ReferenceModel model(TinyCheckpoints.Spec spec) {
    Path dir = TinyCheckpoints.write(tmp.resolve("m" + spec.hashCode()), spec);
    try (Checkpoint c = Checkpoint.open(dir)) {
      return ReferenceModel.load(c);
    }
  }

  private static void fill(SplittableRandom random, float[] a) {
    for (int i = 0; i < a.length; i++) {
      a[i] = (float) random.nextDouble(-1, 1);
    }
  }
}
