// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 the cuda-graph authors
package cuda.graph.llm.internal.engine;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import cuda.graph.CudaPlatform;
import cuda.graph.Stream;
import cuda.graph.llm.internal.checkpoint.DType;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.Set;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/**
 * One batched step over the paged KV cache gives the naive fp32 reference's logits ({@link
 * TinyLlama}): a step of a prefill chunk beside two decodes whose earlier positions came from
 * earlier steps (one of them a chunked prefill); a batch decoded 16 steps gives each sequence the
 * tokens it gets alone, greedy and seeded sampling alike; a freed sequence's blocks serve the next
 * sequence without its stale keys; bad steps are refused before anything runs. The same on every
 * provider (the subclasses), in each weights' type.
 *
 * <p>Tolerances on the logits, {@code |engine - reference| <= tolerance * (1 + |reference|)}: the
 * reference computes in double from the stored weights; the engine sums in fp32 and rounds what
 * feeds a product, and the KV cache, to the weights' type. Seen on the simulator (whose products
 * are cuBLASLt's arithmetic in Java: exact widening, fp32 sums): at most 7.2e-7 in fp32, 1.1e-3 in
 * fp16 (each rounding a relative 2^-11) and 1.3e-2 in bf16 (2^-8), over two layers. The bounds,
 * {@code 2e-5}, {@code 5e-3} and {@code 5e-2}, leave a factor of about 4 (30 in fp32) for the GPU,
 * whose other summation order changes the fp32 sums in their last bits and so may round a value fed
 * to a product to the neighbouring fp16 or bf16 value: as many more roundings of the same size, not
 * larger ones. A wrong position, block, head or row moves logits by about their size (units), 20
 * times the bf16 bound. Argmax: the sampled greedy token is the argmax of the engine's own logits,
 * and the reference's wherever the reference's top two are further apart than twice the tolerance.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
abstract class AbstractBatchStepTests {

  static final BatchStep.Limits LIMITS = new BatchStep.Limits(16, 4, 64, 32);

  private CudaPlatform platform;
  private Stream stream;

  abstract CudaPlatform openPlatform();

  abstract void closePlatform(CudaPlatform platform);

  @BeforeAll
  void open() {
    platform = openPlatform();
    stream = platform.defaultDevice().newStream();
  }

  @AfterAll
  void close() {
    if (stream != null) {
      stream.close();
    }
    if (platform != null) {
      closePlatform(platform);
    }
  }

  static float tolerance(DType type) {
    return switch (type) {
      case F32 -> 2e-5f;
      case F16 -> 5e-3f;
      case BF16 -> 5e-2f;
    };
  }

  static int[] randomTokens(Random random, int n) {
    int[] t = new int[n];
    for (int i = 0; i < n; i++) {
      t[i] = random.nextInt(TinyLlama.SHAPE.vocab());
    }
    return t;
  }

  /** The chunk of {@code tokens[from, to)} of a sequence the cache holds, extended to hold it. */
  static BatchStep.Chunk chunk(
      KvCache cache, long sequence, int[] tokens, int from, int to, Sampling sampling) {
    boolean held = cache.holds(sequence);
    assertTrue(held ? cache.extend(sequence, to) : cache.allocate(sequence, to), "cache full");
    return new BatchStep.Chunk(
        Arrays.copyOfRange(tokens, from, to), from, cache.blocks(sequence), sampling);
  }

  static void assertLogits(float[] expected, float[] actual, DType type, String what) {
    float tolerance = tolerance(type);
    float worst = 0;
    for (int i = 0; i < expected.length; i++) {
      float error = Math.abs(actual[i] - expected[i]) / (1 + Math.abs(expected[i]));
      assertTrue(
          error <= tolerance,
          what + ": logit " + i + " is " + actual[i] + ", expected " + expected[i]);
      worst = Math.max(worst, error);
    }
    System.getLogger(AbstractBatchStepTests.class.getName())
        .log(System.Logger.Level.DEBUG, "{0} {1}: worst relative error {2}", what, type, worst);
  }

  @ParameterizedTest
  @EnumSource(DType.class)
  void aStepOfAPrefillChunkBesideTwoDecodesGivesTheReferenceLogits(DType type) {
    ModelWeights weights = TinyLlama.weights(type, 40);
    Random random = new Random(7);
    int[] a = randomTokens(random, 7), b = randomTokens(random, 13), c = randomTokens(random, 21);
    KvCache cache = new KvCache(LIMITS.kvBlocks());
    try (BatchStep step = new BatchStep(weights, stream, LIMITS, 0)) {
      // Earlier steps: b's prompt beside the first chunk of c's, then the rest of c's alone.
      step.run(
          List.of(
              chunk(cache, 2, b, 0, 12, Sampling.GREEDY),
              chunk(cache, 3, c, 0, 4, Sampling.GREEDY)));
      step.run(List.of(chunk(cache, 3, c, 4, 20, Sampling.GREEDY)));
      // The step under test: a's prompt whole, b and c one token each.
      int[] sampled =
          step.run(
              List.of(
                  chunk(cache, 1, a, 0, 7, Sampling.GREEDY),
                  chunk(cache, 2, b, 12, 13, Sampling.GREEDY),
                  chunk(cache, 3, c, 20, 21, Sampling.GREEDY)));
      float[][] logits = step.logits();
      int[][] sequences = {a, b, c};
      for (int s = 0; s < 3; s++) {
        float[][] reference = TinyLlama.logits(weights, sequences[s]);
        float[] expected = reference[sequences[s].length - 1];
        assertLogits(expected, logits[s], type, "sequence " + s);
        assertEquals(TinyLlama.argmax(logits[s]), sampled[s], "sequence " + s + "'s greedy token");
        if (TinyLlama.margin(expected)
            > 2 * tolerance(type) * (1 + Math.abs(expected[TinyLlama.argmax(expected)]))) {
          assertEquals(
              TinyLlama.argmax(expected), sampled[s], "sequence " + s + " vs the reference");
        }
      }
      assertEquals(Set.of(16), step.graphs().stats().keySet(), "the buckets run: 16, 16, 9 tokens");
    }
  }

  @ParameterizedTest
  @EnumSource(DType.class)
  void stepsOfOneTokenGiveTheReferenceLogitsOnEveryTuningAndTheNormsInProductsChangeNoBit(
      DType type) {
    ModelWeights weights = TinyLlama.weights(type, 42);
    int[] a = randomTokens(new Random(9), 6);
    Map<BatchStep.Tuning, List<float[]>> byTuning = new LinkedHashMap<>();
    for (BatchStep.Tuning tuning :
        List.of(
            new BatchStep.Tuning(4, true, false),
            new BatchStep.Tuning(4, true, true),
            new BatchStep.Tuning(4, false, false),
            new BatchStep.Tuning(0, false, false),
            new BatchStep.Tuning(4, true, true, 8))) {
      KvCache cache = new KvCache(LIMITS.kvBlocks());
      try (BatchStep step = new BatchStep(weights, stream, LIMITS, 0, tuning)) {
        // The prompt in a step of 4 tokens, then single tokens: the one-token products.
        step.run(List.of(chunk(cache, 1, a, 0, 4, Sampling.GREEDY)));
        for (int at = 4; at < 6; at++) {
          step.run(List.of(chunk(cache, 1, a, at, at + 1, Sampling.GREEDY)));
          float[] logits = step.logits()[0];
          assertLogits(TinyLlama.logits(weights, a)[at], logits, type, tuning + ", a at " + at);
          byTuning.computeIfAbsent(tuning, t -> new ArrayList<>()).add(logits);
        }
        assertEquals(Set.of(1, 4), step.graphs().stats().keySet(), "the buckets run");
      }
    }
    List<float[]> apart = byTuning.get(new BatchStep.Tuning(4, false, false));
    for (BatchStep.Tuning inside :
        List.of(new BatchStep.Tuning(4, true, false), new BatchStep.Tuning(4, true, true))) {
      for (int i = 0; i < apart.size(); i++) {
        assertArrayEquals(
            apart.get(i), byTuning.get(inside).get(i), inside + " against apart, step " + i);
      }
    }
  }

  @ParameterizedTest
  @EnumSource(DType.class)
  void headsOf32TakeGroupedAttentionAndItsStepsOverFourTilesGiveTheReferenceLogits(DType type) {
    // 4 query heads of 32 over one kv head: grouped attention's shape. A 100-token sequence's last
    // token reads 4 tiles of 32 positions (4 of the kernel's warps); a 45-token one ends in a
    // chunk.
    ModelShape shape = new ModelShape(128, 256, 2, 4, 1, 32, 256, 1e-5f, 10000, null);
    assertTrue(
        new LlmKernels.Heads(shape.heads(), shape.kvHeads(), shape.headDim(), 8).grouped(),
        "grouped attention takes the shape");
    ModelWeights weights = TinyLlama.weights(shape, type, 43, false);
    Random random = new Random(10);
    int[] a = randomTokens(random, 101), b = randomTokens(random, 45);
    float[][] referenceA = TinyLlama.logits(weights, a), referenceB = TinyLlama.logits(weights, b);
    // The rule's splits, then 5 at one token: position 100 in chunks of 32, the last one empty.
    for (BatchStep.Tuning tuning :
        List.of(BatchStep.Tuning.defaults(), new BatchStep.Tuning(4, true, true, 5))) {
      KvCache cache = new KvCache(32);
      try (BatchStep step =
          new BatchStep(weights, stream, new BatchStep.Limits(32, 4, 128, 32), 0, tuning)) {
        step.run(
            List.of(
                chunk(cache, 1, a, 0, 20, Sampling.GREEDY),
                chunk(cache, 2, b, 0, 12, Sampling.GREEDY)));
        step.run(List.of(chunk(cache, 1, a, 20, 52, Sampling.GREEDY)));
        step.run(List.of(chunk(cache, 1, a, 52, 84, Sampling.GREEDY)));
        step.run(
            List.of(
                chunk(cache, 1, a, 84, 99, Sampling.GREEDY),
                chunk(cache, 2, b, 12, 29, Sampling.GREEDY)));
        step.run(
            List.of(
                chunk(cache, 1, a, 99, 100, Sampling.GREEDY),
                chunk(cache, 2, b, 29, 45, Sampling.GREEDY)));
        float[][] logits = step.logits();
        assertLogits(referenceA[99], logits[0], type, tuning + ", sequence a");
        assertLogits(referenceB[44], logits[1], type, tuning + ", sequence b");
        step.run(List.of(chunk(cache, 1, a, 100, 101, Sampling.GREEDY)));
        assertLogits(referenceA[100], step.logits()[0], type, tuning + ", a's token 100 alone");
      }
    }
  }

  @Test
  void moreSplitsAtOneTokenThanTheRuleTakesHaveRoomForTheirRecords() {
    // 16 kv heads: the rule cuts a token's positions 16 ways (256 blocks); the tuning asks for 32.
    ModelShape shape = new ModelShape(512, 256, 1, 16, 16, 32, 256, 1e-5f, 10000, null);
    LlmKernels.Heads heads = new LlmKernels.Heads(16, 16, 32, 8);
    assertEquals(16, LlmKernels.attentionSplits(1, heads), "the rule's splits");
    ModelWeights weights = TinyLlama.weights(shape, DType.F32, 44, false);
    int[] a = randomTokens(new Random(11), 40);
    KvCache cache = new KvCache(32);
    try (BatchStep step =
        new BatchStep(
            weights,
            stream,
            new BatchStep.Limits(32, 4, 128, 32),
            0,
            new BatchStep.Tuning(4, true, true, 32))) {
      step.run(List.of(chunk(cache, 1, a, 0, 32, Sampling.GREEDY)));
      step.run(List.of(chunk(cache, 1, a, 32, 39, Sampling.GREEDY)));
      step.run(List.of(chunk(cache, 1, a, 39, 40, Sampling.GREEDY)));
      assertLogits(
          TinyLlama.logits(weights, a)[39], step.logits()[0], DType.F32, "32 splits at one token");
    }
  }

  @ParameterizedTest
  @EnumSource(DType.class)
  void aBatchDecodedSixteenStepsGivesEachSequenceTheTokensItGetsAlone(DType type) {
    ModelWeights weights = TinyLlama.weights(type, 41);
    Random random = new Random(8);
    List<int[]> prompts =
        List.of(randomTokens(random, 3), randomTokens(random, 9), randomTokens(random, 1));
    List<Sampling> sampling =
        List.of(Sampling.GREEDY, new Sampling(0.8f, 0.9f, 1234), new Sampling(1.2f, 1f, -5));
    KvCache cache = new KvCache(LIMITS.kvBlocks());
    try (BatchStep step = new BatchStep(weights, stream, LIMITS, 0)) {
      int[][] batched = BatchDecoding.decode(step, cache, 10, prompts, sampling, 16);
      for (int s = 0; s < prompts.size(); s++) {
        int[][] alone =
            BatchDecoding.decode(
                step, cache, 20 + s, List.of(prompts.get(s)), List.of(sampling.get(s)), 16);
        assertArrayEquals(alone[0], batched[s], "sequence " + s + " alone and in the batch");
      }
      assertEquals(
          Set.of(1, 4, 16), step.graphs().stats().keySet(), "the buckets of 13, 3, 1 and 9 tokens");
      // The greedy sequence's tokens are the reference's where its top two are well apart.
      int[] greedy = batched[0];
      int[] context = Arrays.copyOf(prompts.get(0), prompts.get(0).length + greedy.length);
      System.arraycopy(greedy, 0, context, prompts.get(0).length, greedy.length);
      float[][] reference = TinyLlama.logits(weights, context);
      for (int k = 0; k < greedy.length; k++) {
        float[] expected = reference[prompts.get(0).length - 1 + k];
        if (TinyLlama.margin(expected)
            > 2 * tolerance(type) * (1 + Math.abs(expected[TinyLlama.argmax(expected)]))) {
          assertEquals(TinyLlama.argmax(expected), greedy[k], "greedy token " + k);
        } else {
          break; // past a near tie the two continuations may part
        }
      }
      // The seeded sequences drew something other than the argmax at least once.
      assertTrue(
          !Arrays.equals(batched[1], batched[0]) && !Arrays.equals(batched[2], batched[0]),
          "sampling changed nothing");
    }
  }

  @Test
  void aFreedSequencesBlocksServeTheNextSequenceWithoutItsStaleKeys() {
    ModelWeights weights = TinyLlama.weights(DType.F32, 42);
    Random random = new Random(9);
    int[] x = randomTokens(random, 30), y = randomTokens(random, 11);
    KvCache cache = new KvCache(LIMITS.kvBlocks());
    try (BatchStep step = new BatchStep(weights, stream, LIMITS, 0)) {
      step.run(List.of(chunk(cache, 1, x, 0, 16, Sampling.GREEDY)));
      step.run(List.of(chunk(cache, 1, x, 16, 30, Sampling.GREEDY)));
      int[] xBlocks = cache.blocks(1);
      cache.free(1);
      assertEquals(LIMITS.kvBlocks(), cache.freeBlocks());
      BatchStep.Chunk yChunk = chunk(cache, 2, y, 0, 11, Sampling.GREEDY);
      assertEquals(xBlocks[0], yChunk.blockTable()[0], "y takes x's first block back");
      step.run(List.of(yChunk));
      assertLogits(TinyLlama.logits(weights, y)[10], step.logits()[0], DType.F32, "y");
    }
  }

  @Test
  void badStepsAreRefusedNamingTheChunkBeforeAnythingRuns() {
    ModelWeights weights = TinyLlama.weights(DType.F32, 43);
    try (BatchStep step = new BatchStep(weights, stream, LIMITS, 0)) {
      int[] table = {0, 1};
      var tooMany =
          assertThrows(
              IllegalArgumentException.class,
              () -> step.run(List.of(new BatchStep.Chunk(new int[17], 0, table, Sampling.GREEDY))));
      assertTrue(tooMany.getMessage().contains("17 tokens"), tooMany.getMessage());
      var outside =
          assertThrows(
              IllegalArgumentException.class,
              () ->
                  step.run(
                      List.of(new BatchStep.Chunk(new int[] {256}, 0, table, Sampling.GREEDY))));
      assertTrue(outside.getMessage().contains("id 256"), outside.getMessage());
      var block =
          assertThrows(
              IllegalArgumentException.class,
              () ->
                  step.run(
                      List.of(
                          new BatchStep.Chunk(new int[] {1}, 0, new int[] {32}, Sampling.GREEDY))));
      assertTrue(block.getMessage().contains("block 32"), block.getMessage());
      var shortTable =
          assertThrows(
              IllegalArgumentException.class,
              () ->
                  step.run(
                      List.of(
                          new BatchStep.Chunk(new int[] {1}, 16, new int[] {0}, Sampling.GREEDY))));
      assertTrue(shortTable.getMessage().contains("need 2"), shortTable.getMessage());
      assertTrue(step.graphs().stats().isEmpty(), "a refused step captured a graph");
    }
  }
}
