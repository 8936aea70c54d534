// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 the cuda-graph authors
package cuda.graph.llm.internal.engine;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import cuda.graph.Dim3;
import cuda.graph.LaunchConfig;
import java.util.Arrays;
import java.util.Comparator;
import java.util.HashSet;
import java.util.Random;
import java.util.Set;
import java.util.stream.IntStream;
import org.junit.jupiter.api.Test;

/**
 * The sample kernel's reference against the definitions: greedy is the argmax (lowest index on
 * ties); at a temperature the draws follow softmax(logits / temperature) (a chi-square test over
 * 20,000 seeds); top-p keeps exactly the smallest set of most likely tokens holding p (sorted, as
 * transformers' TopPLogitsWarper keeps them) and draws every member of it; a seed and counter
 * replay their token.
 */
class SamplingTests {

  private static final int THREADS = LlmKernels.SAMPLE_BLOCK;

  private static float[] logits(long seed, int vocab) {
    Random random = new Random(seed);
    float[] l = new float[vocab];
    for (int i = 0; i < vocab; i++) {
      l[i] = (float) (2 * random.nextGaussian());
    }
    return l;
  }

  private static int draw(float[] logits, Sampling s, int counter) {
    int parts = LlmKernels.argmaxParts(1);
    int[] keys = new int[2 * parts];
    LlmKernels.ARGMAX_PARTS.runReference(
        new LaunchConfig(Dim3.of(1, parts), Dim3.of(THREADS), 0), logits, keys, logits.length);
    int[] out = new int[1];
    LlmKernels.SAMPLE.runReference(
        LaunchConfig.of(1, THREADS), logits, s.words(counter), out, logits.length, keys, parts);
    return out[0];
  }

  @Test
  void argmaxPartsCutTheRowIntoChunksOfFourAndKeepEachChunksLargestKey() {
    // 7 values in 4 parts: chunks of 4 (ceil(7 / 4) rounded up to 4), so parts 2 and 3 are empty
    // (key 0); the maximum twice in part 1, the lower index kept.
    float[] l = {1, 5, 2, 0, 9, 3, 9};
    int[] keys = new int[8];
    LlmKernels.ARGMAX_PARTS.runReference(
        new LaunchConfig(Dim3.of(1, 4), Dim3.of(THREADS), 0), l, keys, l.length);
    long[] expected = {Sampling.argmaxKey(5, 1), Sampling.argmaxKey(9, 4), 0, 0};
    for (int p = 0; p < 4; p++) {
      long key = (keys[2 * p] & 0xffffffffL) | ((long) keys[2 * p + 1] << 32);
      assertEquals(expected[p], key, "part " + p);
    }
    int[] out = new int[1];
    LlmKernels.SAMPLE.runReference(
        LaunchConfig.of(1, THREADS), l, Sampling.GREEDY.words(0), out, l.length, keys, 4);
    assertEquals(4, out[0], "the largest key of the parts: index 4");
  }

  @Test
  void greedyIsTheArgmaxWithTheLowestIndexOnTies() {
    float[] l = logits(1, 1000);
    l[417] = 50;
    l[733] = 50;
    assertEquals(417, draw(l, Sampling.GREEDY, 3));
    assertEquals(417, draw(l, new Sampling(0, 0.5f, 99), 4), "top-p and seed do not matter");
  }

  @Test
  void drawsAtATemperatureFollowTheSoftmax() {
    int vocab = 12;
    float[] l = logits(2, vocab);
    float temperature = 0.7f;
    double[] p = new double[vocab];
    double total = 0;
    for (int i = 0; i < vocab; i++) {
      p[i] = Math.exp(l[i] / temperature);
      total += p[i];
    }
    int n = 20_000;
    int[] counts = new int[vocab];
    for (int k = 0; k < n; k++) {
      counts[draw(l, new Sampling(temperature, 1f, k * 7919L), 11)]++;
    }
    double chi2 = 0;
    for (int i = 0; i < vocab; i++) {
      double expected = n * p[i] / total;
      chi2 += (counts[i] - expected) * (counts[i] - expected) / expected;
    }
    // 11 degrees of freedom: P(chi2 > 31.3) = 0.001.
    assertTrue(chi2 < 31.3, "chi-square " + chi2 + " of counts " + Arrays.toString(counts));
  }

  @Test
  void topPDrawsEveryTokenOfTheSortedNucleusAndNothingElse() {
    int vocab = 600;
    float[] l = logits(3, vocab);
    float topP = 0.6f, temperature = 1.3f;
    double[] w = new double[vocab];
    double total = 0;
    for (int i = 0; i < vocab; i++) {
      w[i] = Math.exp(l[i] / temperature);
      total += w[i];
    }
    Integer[] order = IntStream.range(0, vocab).boxed().toArray(Integer[]::new);
    Arrays.sort(order, Comparator.comparingDouble(i -> -w[i]));
    Set<Integer> nucleus = new HashSet<>();
    double kept = 0;
    for (int i : order) {
      nucleus.add(i);
      kept += w[i];
      if (kept >= topP * total) {
        break;
      }
    }
    Set<Integer> drawn = new HashSet<>();
    for (int k = 0; k < 20 * nucleus.size(); k++) {
      int token = draw(l, new Sampling(temperature, topP, 31L * k + 5), k);
      assertTrue(nucleus.contains(token), "token " + token + " outside the nucleus " + nucleus);
      drawn.add(token);
    }
    assertTrue(nucleus.size() > 10 && nucleus.size() < vocab / 2, "nucleus of " + nucleus.size());
    assertEquals(nucleus, drawn, "members never drawn");
  }

  @Test
  void aSeedAndCounterReplayTheirTokenAndAnotherCounterDrawsAfresh() {
    float[] l = logits(4, 300);
    Sampling s = new Sampling(1f, 0.95f, 0x1234_5678_9abcL);
    int first = draw(l, s, 17);
    assertEquals(first, draw(l, s, 17));
    Set<Integer> others = new HashSet<>();
    for (int counter = 0; counter < 50; counter++) {
      others.add(draw(l, s, counter));
    }
    assertTrue(others.size() > 10, "50 counters drew " + others);
    assertNotEquals(Sampling.uniform(1, 2), Sampling.uniform(2, 1));
    float u = Sampling.uniform(-1, -1);
    assertTrue(u >= 0 && u < 1, "u = " + u);
  }

  @Test
  void aNegativeTemperatureOrATopPOutsideZeroToOneIsRefused() {
    assertThrows(IllegalArgumentException.class, () -> new Sampling(-0.1f, 1f, 0));
    assertThrows(IllegalArgumentException.class, () -> new Sampling(Float.NaN, 1f, 0));
    assertThrows(IllegalArgumentException.class, () -> new Sampling(1f, 0f, 0));
    assertThrows(IllegalArgumentException.class, () -> new Sampling(1f, 1.5f, 0));
  }
}
