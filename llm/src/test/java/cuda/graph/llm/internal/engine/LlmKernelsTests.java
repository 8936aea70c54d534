// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 the cuda-graph authors
package cuda.graph.llm.internal.engine;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import cuda.graph.CudaPlatform;
import cuda.graph.DeviceBuffer;
import cuda.graph.Dim3;
import cuda.graph.ElementType;
import cuda.graph.Kernel;
import cuda.graph.LaunchConfig;
import cuda.graph.Stream;
import cuda.graph.llm.internal.checkpoint.DType;
import cuda.graph.simulator.Simulator;
import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Random;
import java.util.TreeSet;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/**
 * The kernels' Java references (what the simulator runs for llm_kernels.cu), in each weights' type,
 * agree with the naive formulas written out here in double: the embedding rows, RMSNorm, RoPE's
 * rotate_half with its cache writes at the paged slots, causal grouped-query attention over
 * scattered blocks, SwiGLU. A value the kernel stores in fp16 or bf16 may be one unit in the last
 * place off the formula's rounding (the formula rounds a double, the kernel a float): the bounds
 * below are that unit plus {@code 1e-5} relative for fp32 arithmetic, far below what a wrong index
 * or slot makes (the size of the values). Every kernel of the PTX has a reference and a GPU test.
 */
class LlmKernelsTests {

  private static final int BLOCK = LlmKernels.BLOCK;

  private final Random random = new Random(40);

  private static void assertClose(DType type, float[] expected, float[] actual, String what) {
    assertEquals(expected.length, actual.length, what + ": length");
    for (int i = 0; i < expected.length; i++) {
      float e = expected[i], a = actual[i];
      float bound = Arrays16.ulp(type, e) + 1e-5f * (1 + Math.abs(e));
      assertTrue(
          Math.abs(a - e) <= bound, what + ": element " + i + " is " + a + ", expected " + e);
    }
  }

  @ParameterizedTest
  @EnumSource(DType.class)
  void embedGathersEachTokensRowWidenedExactlyAndAnIdOutsideTheVocabularyAsNaN(DType type) {
    int vocab = 9, hidden = 24;
    float[] table = Arrays16.gaussian(random, type, vocab * hidden, 1);
    int[] ids = {3, 0, 8, 9, 3};
    float[] x = new float[ids.length * hidden];
    LlmKernels.of(type)
        .embed()
        .runReference(
            LaunchConfig.of(ids.length, BLOCK), ids, Arrays16.of(type, table), x, hidden, vocab);
    for (int t = 0; t < ids.length; t++) {
      float[] row = Arrays.copyOfRange(x, t * hidden, (t + 1) * hidden);
      if (ids[t] < vocab) {
        assertArrayEquals(
            Arrays.copyOfRange(table, ids[t] * hidden, (ids[t] + 1) * hidden), row, "token " + t);
      } else {
        for (float v : row) {
          assertTrue(Float.isNaN(v), "the row of id " + ids[t] + " holds " + v);
        }
      }
    }
  }

  private static float[] rmsNormFormula(float[] x, float[] w, double eps, DType type) {
    double ss = 0;
    for (float v : x) {
      ss += (double) v * v;
    }
    double scale = 1 / Math.sqrt(ss / x.length + eps);
    float[] y = new float[x.length];
    for (int i = 0; i < x.length; i++) {
      y[i] = Numerics.round(type, (float) (x[i] * scale * w[i]));
    }
    return y;
  }

  @ParameterizedTest
  @EnumSource(DType.class)
  void rmsNormIsTheFormulaOnEveryRowAndTheGatheredFormNormalisesTheRowsItNames(DType type) {
    int rows = 4, hidden = 40;
    float eps = 1e-5f;
    float[] x = Arrays16.gaussian(random, DType.F32, rows * hidden, 3);
    float[] w = Arrays16.gaussian(random, type, hidden, 1);
    Object out = Arrays16.of(type, new float[rows * hidden]);
    LlmKernels.of(type)
        .rmsNorm()
        .runReference(LaunchConfig.of(rows, BLOCK), x, Arrays16.of(type, w), out, hidden, eps);
    float[] got = Arrays16.values(type, out);
    for (int r = 0; r < rows; r++) {
      assertClose(
          type,
          rmsNormFormula(Arrays.copyOfRange(x, r * hidden, (r + 1) * hidden), w, eps, type),
          Arrays.copyOfRange(got, r * hidden, (r + 1) * hidden),
          "row " + r);
    }
    int[] pick = {3, 1};
    Object gathered = Arrays16.of(type, new float[pick.length * hidden]);
    LlmKernels.of(type)
        .gatherRmsNorm()
        .runReference(
            LaunchConfig.of(pick.length, BLOCK),
            x,
            pick,
            Arrays16.of(type, w),
            gathered,
            hidden,
            eps);
    float[] g = Arrays16.values(type, gathered);
    for (int r = 0; r < pick.length; r++) {
      assertClose(
          type,
          Arrays.copyOfRange(got, pick[r] * hidden, (pick[r] + 1) * hidden),
          Arrays.copyOfRange(g, r * hidden, (r + 1) * hidden),
          "gathered row " + r);
    }
  }

  // The paged layout of the attention tests: 2 sequences with scattered blocks, 2 kv heads.
  private static final int HEADS = 4, KV_HEADS = 2, HEAD_DIM = 16, MAX_BLOCKS = 3, BLOCKS = 8;
  private static final int WIDTH = (HEADS + 2 * KV_HEADS) * HEAD_DIM, KV = KV_HEADS * HEAD_DIM;
  private static final int[] TABLES = {5, 2, 7, 0, 6, 1};
  private static final LlmKernels.Heads SHAPES =
      new LlmKernels.Heads(HEADS, KV_HEADS, HEAD_DIM, MAX_BLOCKS);

  private static int slot(int seq, int pos) {
    return TABLES[seq * MAX_BLOCKS + pos / 16] * 16 + pos % 16;
  }

  @ParameterizedTest
  @EnumSource(DType.class)
  void ropeRotatesQAndKAsRotateHalfAndWritesKAndVAtEachTokensPagedSlot(DType type) {
    int[] positions = {17, 0, 33, -1};
    int[] seqOfToken = {0, 1, 1, 0};
    int tokens = positions.length;
    float[] qkv = Arrays16.gaussian(random, DType.F32, tokens * WIDTH, 1);
    float[] before = qkv.clone();
    double theta = 10000;
    float[] inverse = Rope.inverseFrequencies(HEAD_DIM, theta, null);
    float[] kInit = Arrays16.gaussian(random, type, BLOCKS * 16 * KV, 1);
    float[] vInit = Arrays16.gaussian(random, type, BLOCKS * 16 * KV, 1);
    Object k = Arrays16.of(type, kInit), v = Arrays16.of(type, vInit);
    LlmKernels.of(type)
        .ropeCache()
        .runReference(
            LaunchConfig.of(tokens, BLOCK),
            qkv,
            inverse,
            positions,
            seqOfToken,
            TABLES,
            k,
            v,
            HEADS,
            KV_HEADS,
            HEAD_DIM,
            MAX_BLOCKS);
    float[] kAfter = Arrays16.values(type, k), vAfter = Arrays16.values(type, v);
    float[] kExpected = kInit.clone(), vExpected = vInit.clone();
    for (int t = 0; t < tokens; t++) {
      float[] expected = Arrays.copyOfRange(before, t * WIDTH, (t + 1) * WIDTH);
      int pos = positions[t];
      if (pos >= 0) {
        for (int head = 0; head < HEADS + KV_HEADS; head++) {
          for (int i = 0; i < HEAD_DIM / 2; i++) {
            double angle = pos * Math.pow(theta, -2.0 * i / HEAD_DIM);
            int a = head * HEAD_DIM + i, b = a + HEAD_DIM / 2;
            double x1 = before[t * WIDTH + a], x2 = before[t * WIDTH + b];
            expected[a] = (float) (x1 * Math.cos(angle) - x2 * Math.sin(angle));
            expected[b] = (float) (x2 * Math.cos(angle) + x1 * Math.sin(angle));
          }
        }
        int s = slot(seqOfToken[t], pos);
        for (int i = 0; i < KV; i++) {
          kExpected[s * KV + i] = Numerics.round(type, expected[HEADS * HEAD_DIM + i]);
          vExpected[s * KV + i] = Numerics.round(type, expected[(HEADS + KV_HEADS) * HEAD_DIM + i]);
        }
      }
      // Angles up to 33 radians in fp32: a relative 1e-5 of the rotated values.
      assertClose(
          DType.F32,
          expected,
          Arrays.copyOfRange(qkv, t * WIDTH, (t + 1) * WIDTH),
          "q|k|v of token " + t);
    }
    assertClose(type, kExpected, kAfter, "the k cache");
    assertClose(type, vExpected, vAfter, "the v cache");
  }

  @ParameterizedTest
  @EnumSource(DType.class)
  void attentionIsTheCausalSoftmaxOfEachTokenOverItsSequencesScatteredBlocksPerKvHeadGroup(
      DType type) {
    int[] positions = {20, 0, 35, -1, 7};
    int[] seqOfToken = {0, 1, 1, 0, 0};
    int tokens = positions.length;
    float[] qkv = Arrays16.gaussian(random, DType.F32, tokens * WIDTH, 1);
    float[] kc = Arrays16.gaussian(random, type, BLOCKS * 16 * KV, 1);
    float[] vc = Arrays16.gaussian(random, type, BLOCKS * 16 * KV, 1);
    Object out = Arrays16.of(type, new float[tokens * HEADS * HEAD_DIM]);
    Kernel attention = LlmKernels.of(type).attention();
    Object[] args = {
      qkv,
      Arrays16.of(type, kc),
      Arrays16.of(type, vc),
      positions,
      seqOfToken,
      TABLES,
      out,
      HEADS,
      KV_HEADS,
      HEAD_DIM,
      MAX_BLOCKS,
      (float) (1 / Math.sqrt(HEAD_DIM))
    };
    attention.runReference(
        new LaunchConfig(Dim3.of(tokens, HEADS), Dim3.of(LlmKernels.ATTENTION_BLOCK), 0), args);
    float[] got = Arrays16.values(type, out);
    for (int t = 0; t < tokens; t++) {
      for (int h = 0; h < HEADS; h++) {
        float[] expected = new float[HEAD_DIM];
        if (positions[t] >= 0) {
          int g = h / (HEADS / KV_HEADS), pos = positions[t];
          double[] p = new double[pos + 1];
          double total = 0;
          for (int j = 0; j <= pos; j++) {
            double dot = 0;
            for (int d = 0; d < HEAD_DIM; d++) {
              dot +=
                  qkv[t * WIDTH + h * HEAD_DIM + d]
                      * kc[slot(seqOfToken[t], j) * KV + g * HEAD_DIM + d];
            }
            p[j] = Math.exp(dot / Math.sqrt(HEAD_DIM));
            total += p[j];
          }
          for (int d = 0; d < HEAD_DIM; d++) {
            double sum = 0;
            for (int j = 0; j <= pos; j++) {
              sum += p[j] / total * vc[slot(seqOfToken[t], j) * KV + g * HEAD_DIM + d];
            }
            expected[d] = Numerics.round(type, (float) sum);
          }
        }
        int o = (t * HEADS + h) * HEAD_DIM;
        assertClose(
            type, expected, Arrays.copyOfRange(got, o, o + HEAD_DIM), "token " + t + " head " + h);
      }
    }
  }

  @ParameterizedTest
  @EnumSource(DType.class)
  void groupedAttentionGivesEachKvHeadsWholeGroupAttentionsRowsAndNanWhereItDoesNotTakeTheHeads(
      DType type) {
    for (int headDim : new int[] {32, HEAD_DIM}) {
      int width = (HEADS + 2 * KV_HEADS) * headDim, kv = KV_HEADS * headDim;
      int[] positions = {20, 0, 35, -1, 7};
      int[] seqOfToken = {0, 1, 1, 0, 0};
      int tokens = positions.length;
      float[] qkv = Arrays16.gaussian(random, DType.F32, tokens * width, 1);
      Object kc = Arrays16.of(type, Arrays16.gaussian(random, type, BLOCKS * 16 * kv, 1));
      Object vc = Arrays16.of(type, Arrays16.gaussian(random, type, BLOCKS * 16 * kv, 1));
      Object[] inputs = {qkv, kc, vc, positions, seqOfToken};
      Object plain =
          attentionReference(
              LlmKernels.of(type).attention(),
              new LaunchConfig(Dim3.of(tokens, HEADS), Dim3.of(LlmKernels.ATTENTION_BLOCK), 0),
              type,
              inputs,
              headDim);
      Object grouped = groupedInOneSplit(type, inputs, headDim);
      float[] p = Arrays16.values(type, plain), g = Arrays16.values(type, grouped);
      boolean taken = new LlmKernels.Heads(HEADS, KV_HEADS, headDim, MAX_BLOCKS).grouped();
      assertEquals(headDim == 32, taken, "grouped attention takes heads of 32, not of 16");
      for (int t = 0; t < tokens; t++) {
        for (int i = t * HEADS * headDim; i < (t + 1) * HEADS * headDim; i++) {
          float expected = taken || positions[t] < 0 ? p[i] : Float.NaN;
          assertEquals(expected, g[i], "heads of " + headDim + ", token " + t + ", value " + i);
        }
      }
    }
  }

  @ParameterizedTest
  @EnumSource(DType.class)
  void groupedAttentionCutIntoSplitsAndFoldedByCombineGivesTheRowsOfOneSplit(DType type) {
    int headDim = 32, width = (HEADS + 2 * KV_HEADS) * headDim, kv = KV_HEADS * headDim;
    int[] positions = {20, 0, 35, -1, 7};
    int[] seqOfToken = {0, 1, 1, 0, 0};
    int tokens = positions.length, splits = 3;
    Object[] inputs = {
      Arrays16.gaussian(random, DType.F32, tokens * width, 1),
      Arrays16.of(type, Arrays16.gaussian(random, type, BLOCKS * 16 * kv, 1)),
      Arrays16.of(type, Arrays16.gaussian(random, type, BLOCKS * 16 * kv, 1)),
      positions,
      seqOfToken
    };
    Kernel grouped = LlmKernels.of(type).groupedAttention(HEADS / KV_HEADS);
    Object whole = groupedInOneSplit(type, inputs, headDim);
    // Position 35 in chunks of 32: a split of 32 positions, one of 4 and an empty one.
    float[] records = new float[tokens * HEADS * splits * (headDim + 2)];
    Object untouched =
        attentionReference(
            grouped,
            new LaunchConfig(
                Dim3.of(tokens, KV_HEADS, splits), Dim3.of(LlmKernels.GROUPED_ATTENTION_BLOCK), 0),
            type,
            inputs,
            headDim,
            records);
    assertArrayEquals(
        new float[tokens * HEADS * headDim],
        Arrays16.values(type, untouched),
        "over splits the rows are attention_combine's to write");
    Object combined = Arrays16.of(type, new float[tokens * HEADS * headDim]);
    LlmKernels.of(type)
        .attentionCombine()
        .runReference(
            new LaunchConfig(Dim3.of(tokens, HEADS), Dim3.of(headDim), 0),
            records,
            positions,
            combined,
            HEADS,
            KV_HEADS,
            headDim,
            splits);
    assertClose(
        type, Arrays16.values(type, whole), Arrays16.values(type, combined), "three splits");
    int record = ((2 * KV_HEADS) * splits + 2) * 2 * (headDim + 2); // token 2, kv head 0, split 2
    assertEquals(Float.NEGATIVE_INFINITY, records[record + headDim], "an empty split's m");
    assertEquals(0f, records[record + headDim + 1], "an empty split's total");
  }

  @Test
  void gemvTakesStepsOfAtMostEightRowsOfWhole16BytePiecesAlignedAndLeavesTheRestToCublas() {
    try (CudaPlatform platform = CudaPlatform.forDriver(Simulator.builder().build(), "simulator");
        Stream stream = platform.defaultDevice().newStream();
        DeviceBuffer<Short> x = DeviceBuffer.zeros(ElementType.BF16, 9 * 24L).syncOn(stream);
        DeviceBuffer<Short> w = DeviceBuffer.zeros(ElementType.BF16, 5 * 24L).syncOn(stream);
        DeviceBuffer<Float> y = DeviceBuffer.zeros(ElementType.F32, 9 * 5L).syncOn(stream)) {
      assertTrue(LlmKernels.gemvTakes(DType.BF16, x, w, y, 1, 24), "one row of 48 bytes");
      assertTrue(LlmKernels.gemvTakes(DType.BF16, x, w, y, 8, 24), "eight rows");
      assertFalse(LlmKernels.gemvTakes(DType.BF16, x, w, y, 9, 24), "nine rows: cuBLASLt");
      assertFalse(LlmKernels.gemvTakes(DType.BF16, x, w, y, 1, 20), "rows of 40 bytes");
      assertTrue(LlmKernels.gemvTakes(DType.F32, x, w, y, 1, 20), "rows of 80 bytes");
      assertFalse(
          LlmKernels.gemvTakes(DType.BF16, x.slice(4, 24), w, y, 1, 24), "x 8 bytes aligned");
      assertTrue(
          LlmKernels.gemvTakes(DType.BF16, x, w.slice(8, 24), y, 1, 24), "w 16 bytes aligned");
    }
  }

  @Test
  void attentionSplitsAFewTokensPositionsWithinOneWaveOfBlocksAndNeverAWideStep() {
    LlmKernels.Heads llama1b = new LlmKernels.Heads(32, 8, 64, 40);
    assertEquals(32, LlmKernels.attentionSplits(1, llama1b), "batch 1: 8 blocks, cut 32 ways");
    assertEquals(8, LlmKernels.attentionSplits(6, llama1b), "48 blocks: 8 splits make 384");
    assertEquals(4, LlmKernels.attentionSplits(8, llama1b), "64 blocks: 8 splits would make 512");
    assertEquals(2, LlmKernels.attentionSplits(16, llama1b));
    assertEquals(1, LlmKernels.attentionSplits(32, llama1b), "256 blocks: 2 splits, two waves");
    assertEquals(1, LlmKernels.attentionSplits(64, llama1b));
    assertEquals(1, LlmKernels.attentionSplits(2048, llama1b), "a prefill step");
    assertEquals(0, LlmKernels.attentionPartialFloats(64, llama1b));
    assertEquals(32L * 32 * 66, LlmKernels.attentionPartialFloats(1, llama1b));
    assertEquals(
        1, LlmKernels.attentionSplits(1, new LlmKernels.Heads(4, 2, 16, 3)), "the plain kernel");
  }

  @Test
  void groupedAttentionTakesTwoStagesOfSharedMemoryWhereTheyFitAndOneForFp32HeadsOf128() {
    // Four warps' stages of a key and a value tile of 32 rows, then the queries, the warps' tile
    // weights, m and l, and 128 block numbers (GroupedLayout of the .cu).
    assertEquals(
        4 * 2 * 2 * (32 * 64 * 2) + 4 * (4 * 64 + 4 * 32 * 4 + 2 * 4 * 4 + 128),
        LlmKernels.groupedAttentionBytes(DType.BF16, new LlmKernels.Heads(32, 8, 64, 40)),
        "Llama-3.2-1B in bf16: two stages, 69,248 bytes");
    assertEquals(
        4 * 2 * (32 * 128 * 4) + 4 * (8 * 128 + 4 * 32 * 8 + 2 * 4 * 8 + 128),
        LlmKernels.groupedAttentionBytes(DType.F32, new LlmKernels.Heads(16, 2, 128, 40)),
        "fp32 heads of 128 in groups of 8: two stages would pass 227 KiB, so one");
    assertEquals(
        4 * 2 * 2 * (32 * 128 * 2) + 4 * (2 * 128 + 4 * 32 * 2 + 2 * 4 * 2 + 128),
        LlmKernels.groupedAttentionBytes(DType.F16, new LlmKernels.Heads(4, 4, 128, 40)),
        "a group of one rounds up to two heads");
  }

  /** {@return grouped attention's reference rows in one split (its records unused)} */
  private static Object groupedInOneSplit(DType type, Object[] inputs, int headDim) {
    int tokens = ((int[]) inputs[3]).length;
    return attentionReference(
        LlmKernels.of(type).groupedAttention(HEADS / KV_HEADS),
        new LaunchConfig(Dim3.of(tokens, KV_HEADS), Dim3.of(LlmKernels.GROUPED_ATTENTION_BLOCK), 0),
        type,
        inputs,
        headDim,
        new float[1]);
  }

  /** {@return the context rows {@code kernel}'s reference writes for qkv, k, v, positions, seqs} */
  private static Object attentionReference(
      Kernel kernel,
      LaunchConfig config,
      DType type,
      Object[] inputs,
      int headDim,
      Object... partials) {
    int tokens = ((int[]) inputs[3]).length;
    Object out = Arrays16.of(type, new float[tokens * HEADS * headDim]);
    Object[] args = {
      inputs[0],
      inputs[1],
      inputs[2],
      inputs[3],
      inputs[4],
      TABLES,
      out,
      HEADS,
      KV_HEADS,
      headDim,
      MAX_BLOCKS,
      (float) (1 / Math.sqrt(headDim))
    };
    List<Object> all = new ArrayList<>(List.of(args));
    all.addAll(List.of(partials));
    kernel.runReference(config, all.toArray());
    return out;
  }

  @Test
  void gemvStreamTakesRowsThatFitATileAndSplitIntoWhole16BytePiecesBetweenTheirWarps() {
    assertTrue(LlmKernels.gemvStreamFits(DType.BF16, 8), "one piece: 128 rows a tile");
    assertTrue(LlmKernels.gemvStreamFits(DType.BF16, 2048), "Llama-3.2-1B's hidden: two warps");
    assertTrue(LlmKernels.gemvStreamFits(DType.BF16, 8192), "its intermediate: a row a tile");
    assertTrue(LlmKernels.gemvStreamFits(DType.F32, 4096), "16 KiB of fp32");
    assertFalse(LlmKernels.gemvStreamFits(DType.F32, 8192), "32 KiB: more than a tile");
    assertFalse(LlmKernels.gemvStreamFits(DType.BF16, 8200), "16,400 bytes: more than a tile");
    assertFalse(LlmKernels.gemvStreamFits(DType.BF16, 12), "24 bytes: not whole pieces");
    // 2,064 bytes: four rows a tile, two warps a row of 1,032 bytes, not whole pieces
    assertEquals(2, LlmKernels.warpsPerRow(1032 * 2));
    assertFalse(LlmKernels.gemvStreamFits(DType.BF16, 1032), "halves of 1,032 bytes");
    assertTrue(LlmKernels.gemvStreamFits(DType.BF16, 1040), "halves of 1,040 bytes");
    assertEquals(1, LlmKernels.warpsPerRow(2048), "8 rows of 2,048 bytes fill a tile");
    assertEquals(8, LlmKernels.warpsPerRow(16384));
  }

  @ParameterizedTest
  @EnumSource(DType.class)
  void gemvIsEachRowOfXTimesEachRowOfTheWeightAddedToYWhereAccumulating(DType type) {
    int tokens = 3, rows = 5, k = 16;
    float[] x = Arrays16.gaussian(random, type, tokens * k, 1);
    float[] w = Arrays16.gaussian(random, type, rows * k, 1);
    float[] before = Arrays16.gaussian(random, DType.F32, tokens * rows, 1);
    for (int accumulate : new int[] {0, 1}) {
      float[] y = before.clone();
      LlmKernels.of(type)
          .gemv()
          .runReference(
              LaunchConfig.of(1, LlmKernels.GEMV_BLOCK),
              Arrays16.of(type, x),
              Arrays16.of(type, w),
              y,
              tokens,
              rows,
              k,
              accumulate);
      for (int m = 0; m < tokens; m++) {
        for (int n = 0; n < rows; n++) {
          double sum = 0;
          for (int i = 0; i < k; i++) {
            sum += (double) x[m * k + i] * w[n * k + i];
          }
          float expected = (accumulate == 1 ? before[m * rows + n] : 0f) + (float) sum;
          assertEquals(expected, y[m * rows + n], 1e-5f, "row " + m + ", column " + n);
        }
      }
    }
  }

  @ParameterizedTest
  @EnumSource(DType.class)
  void siluMulIsSiluOfTheGateTimesTheUp(DType type) {
    int tokens = 3, inter = 10;
    float[] gu = Arrays16.gaussian(random, DType.F32, tokens * 2 * inter, 2);
    Object h = Arrays16.of(type, new float[tokens * inter]);
    LlmKernels.of(type).siluMul().runReference(LaunchConfig.of(1, BLOCK), gu, h, tokens, inter);
    float[] expected = new float[tokens * inter];
    for (int t = 0; t < tokens; t++) {
      for (int i = 0; i < inter; i++) {
        double g = gu[t * 2 * inter + i], u = gu[t * 2 * inter + inter + i];
        expected[t * inter + i] = Numerics.round(type, (float) (g / (1 + Math.exp(-g)) * u));
      }
    }
    assertClose(type, expected, Arrays16.values(type, h), "h");
  }

  @ParameterizedTest
  @EnumSource(DType.class)
  void gemvNorm1AndGemvNormSilu1AreExactlyTheNormTheProductAndSwiGluApart(DType type) {
    int k = 64, rows = 6, inter = 5;
    float epsilon = 1e-5f;
    float[] x = Arrays16.gaussian(random, DType.F32, k, 3);
    Object norm = Arrays16.of(type, Arrays16.gaussian(random, type, k, 1));
    Object w = Arrays16.of(type, Arrays16.gaussian(random, type, 2 * inter * k, 1));
    LaunchConfig one = LaunchConfig.of(1, LlmKernels.GEMV_BLOCK);
    // Apart: rms_norm, then gemv_stream1 over the rows (and silu_mul over gate/up's sums).
    Object xn = Arrays16.of(type, new float[k]);
    LlmKernels.of(type).rmsNorm().runReference(one, x, norm, xn, k, epsilon);
    float[] apart = new float[2 * inter];
    LlmKernels.of(type).gemvStream1().runReference(one, xn, w, apart, 1, 2 * inter, k, 0);
    Object h = Arrays16.of(type, new float[inter]);
    LlmKernels.of(type).siluMul().runReference(one, apart, h, 1, inter);

    float[] y = new float[rows];
    LlmKernels.of(type).gemvNorm1().runReference(one, x, norm, w, y, rows, k, epsilon);
    assertArrayEquals(Arrays.copyOf(apart, rows), y, "gemv_norm1: the first rows of the product");
    Object fused = Arrays16.of(type, new float[inter]);
    LlmKernels.of(type).gemvNormSilu1().runReference(one, x, norm, w, fused, inter, k, epsilon);
    assertArrayEquals(
        Arrays16.values(type, h), Arrays16.values(type, fused), "gemv_norm_silu1: silu_mul's h");
    float[] naive = new float[inter];
    for (int i = 0; i < inter; i++) {
      float g = apart[i], u = apart[inter + i];
      naive[i] = Numerics.round(type, (float) (g / (1 + Math.exp(-g)) * u));
    }
    assertClose(type, naive, Arrays16.values(type, fused), "gemv_norm_silu1 against SwiGLU");
  }

  @ParameterizedTest
  @EnumSource(DType.class)
  void gemvNormRope1IsExactlyTheNormTheProductAndRopeWithItsCacheWritesApart(DType type) {
    int k = 64, heads = 4, kvHeads = 2, headDim = 8, maxBlocks = 4, blocks = 6;
    int width = (heads + 2 * kvHeads) * headDim, kv = kvHeads * headDim;
    float epsilon = 1e-5f;
    float[] x = Arrays16.gaussian(random, DType.F32, k, 3);
    Object norm = Arrays16.of(type, Arrays16.gaussian(random, type, k, 1));
    Object w = Arrays16.of(type, Arrays16.gaussian(random, type, width * k, 1));
    float[] inverse = Rope.inverseFrequencies(headDim, 10000, null);
    int[] tables = {5, 1, 4, 0, 2, 3, 0, 0};
    LaunchConfig one = LaunchConfig.of(1, LlmKernels.GEMV_BLOCK);
    for (int position : new int[] {37, -1}) {
      int[] positions = {position}, seqOfToken = {1};
      float[] cache = Arrays16.gaussian(random, type, blocks * 16 * kv, 1);
      Object xn = Arrays16.of(type, new float[k]);
      LlmKernels.of(type).rmsNorm().runReference(one, x, norm, xn, k, epsilon);
      float[] apart = new float[width];
      LlmKernels.of(type).gemvStream1().runReference(one, xn, w, apart, 1, width, k, 0);
      Object kApart = Arrays16.of(type, cache), vApart = Arrays16.of(type, cache);
      LlmKernels.of(type)
          .ropeCache()
          .runReference(
              one,
              apart,
              inverse,
              positions,
              seqOfToken,
              tables,
              kApart,
              vApart,
              heads,
              kvHeads,
              headDim,
              maxBlocks);
      float[] fused = new float[width];
      Object kFused = Arrays16.of(type, cache), vFused = Arrays16.of(type, cache);
      LlmKernels.of(type)
          .gemvNormRope1()
          .runReference(
              one,
              x,
              norm,
              w,
              fused,
              inverse,
              positions,
              seqOfToken,
              tables,
              kFused,
              vFused,
              heads,
              kvHeads,
              headDim,
              maxBlocks,
              k,
              epsilon);
      String what = "position " + position;
      assertArrayEquals(apart, fused, "qkv, " + what);
      assertArrayEquals(
          Arrays16.values(type, kApart), Arrays16.values(type, kFused), "k cache, " + what);
      assertArrayEquals(
          Arrays16.values(type, vApart), Arrays16.values(type, vFused), "v cache, " + what);
      boolean wrote = !Arrays.equals(cache, Arrays16.values(type, kFused));
      assertEquals(position >= 0, wrote, "a cache write only for a real position, " + what);
    }
  }

  @Test
  void gemvNormSilu1TakesOnlyRowsOfWhichATileHoldsAPair() {
    assertEquals(4, LlmKernels.tileRows(2048 * 2), "Llama-3.2-1B's hidden in bf16: two pairs");
    assertEquals(2, LlmKernels.tileRows(2048 * 4), "in fp32: one pair");
    assertEquals(1, LlmKernels.tileRows(4096 * 4), "16 KiB rows: no pair");
    assertEquals(128, LlmKernels.tileRows(16), "one piece: 128 rows, 64 pairs");
    assertEquals(128, LlmKernels.normedRowBytes(DType.BF16, 8), "rounded up to 128 bytes");
    assertEquals(8192, LlmKernels.normedRowBytes(DType.F32, 2048));
  }

  @Test
  void theTimelineNumbersEachKernelAsItsSourceOpensItsTraceScope() throws IOException {
    String cu =
        java.nio.file.Files.readString(
            java.util.stream.Stream.of(
                    "src/main/cuda/llm_kernels.cu", "llm/src/main/cuda/llm_kernels.cu")
                .map(java.nio.file.Path::of)
                .filter(java.nio.file.Files::isRegularFile)
                .findFirst()
                .orElseThrow(
                    () ->
                        new AssertionError(
                            "llm_kernels.cu: run from the module or the repository")));
    Matcher entry =
        Pattern.compile("extern \"C\" __global__ void (\\w+?)(?:_##SUFFIX)?\\(").matcher(cu);
    Pattern scope = Pattern.compile("KERNEL_TRACE_SCOPE\\((\\d+)\\);");
    List<String> numbered = new ArrayList<>();
    while (entry.find()) {
      Matcher s = scope.matcher(cu).region(entry.end(), cu.length());
      assertTrue(s.find(), entry.group(1) + " opens no KERNEL_TRACE_SCOPE");
      assertEquals(
          -1,
          cu.substring(entry.end(), s.start()).indexOf(';'),
          entry.group(1) + "'s trace scope is not its first statement");
      numbered.add(s.group(1) + " " + entry.group(1));
    }
    List<String> traced = new ArrayList<>();
    for (int i = 0; i < LlmKernels.TRACED.size(); i++) {
      traced.add(i + " " + LlmKernels.TRACED.get(i));
    }

    assertEquals(traced, numbered);
  }

  @Test
  void everyKernelOfThePtxHasAReferenceAndAGpuTest() throws IOException {
    String ptx;
    try (InputStream in = LlmKernels.class.getResourceAsStream("llm_kernels.ptx")) {
      ptx = new String(in.readAllBytes(), StandardCharsets.US_ASCII);
    }
    TreeSet<String> entries = new TreeSet<>();
    Matcher m = Pattern.compile("\\.entry\\s+(\\w+)\\(").matcher(ptx);
    while (m.find()) {
      entries.add(m.group(1));
    }
    List<Kernel> all = LlmKernels.all();
    assertEquals(entries, new TreeSet<>(all.stream().map(Kernel::name).toList()));
    for (Kernel k : all) {
      assertTrue(k.hasReference(), k.name() + " has no Java reference");
    }
    assertEquals(entries, new TreeSet<>(LlmKernelsGpuTests.TESTED), "kernels without a GPU test");
  }
}
