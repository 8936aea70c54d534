// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 the cuda-graph authors
package cuda.graph.embeddings.internal.gpu;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import cuda.graph.LaunchConfig;
import cuda.graph.embeddings.Pooling;
import cuda.graph.embeddings.internal.model.ReferenceEncoder;
import java.util.Arrays;
import java.util.Random;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * The kernels' Java references (what the simulator runs for encoder_kernels.cu), run on small
 * random inputs in the layouts the encoder gives them, agree with {@link ReferenceEncoder}'s pieces
 * computed from the same numbers in its own layout; encode_small's reference keeps its NaN rules
 * (an id outside the vocabulary, a launch it is not written for) and the sizes it takes.
 */
class EncoderKernelsTests {

  // all-MiniLM-L6-v2's and bge-small-en-v1.5's sizes and epsilon.
  private static final int HIDDEN = 384;
  private static final int HEADS = 12;
  private static final int HEAD_SIZE = 32;
  private static final int BLOCK = EncoderKernels.BLOCK;
  private static final float EPS = 1e-12f;

  private final Random random = new Random(26);

  private float[] randoms(int n) {
    float[] v = new float[n];
    for (int i = 0; i < n; i++) {
      v[i] = (float) random.nextGaussian();
    }
    return v;
  }

  private static float[] row(float[] rows, int r, int width) {
    return Arrays.copyOfRange(rows, r * width, (r + 1) * width);
  }

  @Test
  void embedLayerNormGivesEachTokenOfAPaddedBatchTheReferenceEncodersEmbedding() {
    int vocabulary = 11, positions = 6, typeCount = 2, batch = 2, length = 5;
    float[] word = randoms(vocabulary * HIDDEN);
    float[] position = randoms(positions * HIDDEN);
    float[] type = randoms(typeCount * HIDDEN);
    float[] gamma = randoms(HIDDEN);
    float[] beta = randoms(HIDDEN);
    int[] ids = {1, 7, 10, 3, 0, 2, 9, 4, 0, 0};
    int[] types = {0, 1, 0, 1, 0, 0, 0, 1, 0, 0};
    float[] x = new float[batch * length * HIDDEN];

    EncoderKernels.EMBED_LAYER_NORM.runReference(
        LaunchConfig.of(batch * length, BLOCK),
        ids,
        types,
        word,
        position,
        type,
        gamma,
        beta,
        x,
        batch * length,
        length,
        HIDDEN,
        vocabulary,
        positions,
        typeCount,
        EPS);

    for (int r = 0; r < batch * length; r++) {
      float[] expected =
          ReferenceEncoder.embedding(
              ids[r], types[r], r % length, word, position, type, gamma, beta, EPS);
      assertArrayEquals(expected, row(x, r, HIDDEN), "token " + r);
    }
  }

  @Test
  void anIdOutsideTheVocabularyMakesItsRowNaNAndLeavesTheOthersEmbedded() {
    int vocabulary = 4;
    float[] word = randoms(vocabulary * HIDDEN);
    float[] position = randoms(2 * HIDDEN);
    float[] type = randoms(2 * HIDDEN);
    float[] gamma = randoms(HIDDEN);
    float[] beta = randoms(HIDDEN);
    float[] x = new float[2 * HIDDEN];

    EncoderKernels.EMBED_LAYER_NORM.runReference(
        LaunchConfig.of(2, BLOCK),
        new int[] {3, vocabulary},
        new int[] {0, 0},
        word,
        position,
        type,
        gamma,
        beta,
        x,
        2,
        2,
        HIDDEN,
        vocabulary,
        2,
        2,
        EPS);

    assertArrayEquals(
        ReferenceEncoder.embedding(3, 0, 0, word, position, type, gamma, beta, EPS),
        row(x, 0, HIDDEN));
    for (float v : row(x, 1, HIDDEN)) {
      assertTrue(Float.isNaN(v), "the row of the id outside the vocabulary holds " + v);
    }
  }

  @Test
  void layerNormInPlaceIsTheReferenceEncodersLayerNormOfEachRowTheGridCovers() {
    int rows = 3;
    float[] x = randoms(rows * HIDDEN);
    float[] before = x.clone();
    float[] gamma = randoms(HIDDEN);
    float[] beta = randoms(HIDDEN);

    // Two blocks for three rows: the third row is not the launch's and stays as it was.
    EncoderKernels.LAYER_NORM.runReference(
        LaunchConfig.of(2, BLOCK), x, gamma, beta, x, rows, HIDDEN, EPS);

    for (int r = 0; r < 2; r++) {
      assertArrayEquals(
          ReferenceEncoder.layerNorm(row(before, r, HIDDEN), gamma, beta, EPS),
          row(x, r, HIDDEN),
          "row " + r);
    }
    assertArrayEquals(row(before, 2, HIDDEN), row(x, 2, HIDDEN));
  }

  @Test
  void layerNormAddsTheEpsilonItsLaunchIsGivenNotAFixedOne() {
    // Rows of a small spread, whose variance an epsilon of 1e-4 visibly changes.
    float[] x = randoms(2 * HIDDEN);
    for (int i = 0; i < x.length; i++) {
      x[i] *= 0.01f;
    }
    float[] gamma = randoms(HIDDEN);
    float[] beta = randoms(HIDDEN);
    float[] tiny = new float[x.length], large = new float[x.length];

    EncoderKernels.LAYER_NORM.runReference(
        LaunchConfig.of(2, BLOCK), x, gamma, beta, tiny, 2, HIDDEN, EPS);
    EncoderKernels.LAYER_NORM.runReference(
        LaunchConfig.of(2, BLOCK), x, gamma, beta, large, 2, HIDDEN, 1e-4f);

    for (int r = 0; r < 2; r++) {
      assertArrayEquals(
          ReferenceEncoder.layerNorm(row(x, r, HIDDEN), gamma, beta, 1e-4f), row(large, r, HIDDEN));
    }
    assertTrue(
        Math.abs(tiny[0] - large[0]) > 1e-3 * (1 + Math.abs(tiny[0])),
        "epsilon 1e-4 against 1e-12 changes the row: " + tiny[0] + " and " + large[0]);
  }

  @Test
  void theHalfKernelsWriteTheFp32KernelsRowsRoundedToFp16() {
    int batch = 2, length = 3, rows = batch * length, vocabulary = 5;
    float[] word = randoms(vocabulary * HIDDEN);
    float[] position = randoms(length * HIDDEN);
    float[] type = randoms(2 * HIDDEN);
    float[] gamma = randoms(HIDDEN);
    float[] beta = randoms(HIDDEN);
    int[] ids = {1, 4, 2, 3, 0, 0};
    int[] types = new int[rows];
    float[] x = new float[rows * HIDDEN], xAgain = new float[rows * HIDDEN];
    short[] xHalf = new short[rows * HIDDEN];
    LaunchConfig perRow = LaunchConfig.of(rows, BLOCK);
    Object[] embedArgs = {
      ids,
      types,
      word,
      position,
      type,
      gamma,
      beta,
      x,
      rows,
      length,
      HIDDEN,
      vocabulary,
      length,
      2,
      EPS
    };
    EncoderKernels.EMBED_LAYER_NORM.runReference(perRow, embedArgs);
    Object[] halfArgs = Arrays.copyOf(embedArgs, embedArgs.length + 1);
    halfArgs[7] = xAgain;
    halfArgs[embedArgs.length] = xHalf;
    EncoderKernels.EMBED_LAYER_NORM_HALF.runReference(perRow, halfArgs);
    assertArrayEquals(x, xAgain);
    assertArrayEquals(rounded(x), xHalf);

    float[] normed = new float[rows * HIDDEN], normedAgain = new float[rows * HIDDEN];
    short[] normedHalf = new short[rows * HIDDEN];
    EncoderKernels.LAYER_NORM.runReference(perRow, x, gamma, beta, normed, rows, HIDDEN, EPS);
    EncoderKernels.LAYER_NORM_HALF.runReference(
        perRow, x, gamma, beta, normedAgain, rows, HIDDEN, EPS, normedHalf);
    assertArrayEquals(normed, normedAgain);
    assertArrayEquals(rounded(normed), normedHalf);

    float[] qkv = randoms(rows * 3 * HIDDEN);
    int[] mask = {1, 1, 1, 1, 1, 0};
    float[] context = new float[rows * HIDDEN];
    short[] contextHalf = new short[rows * HIDDEN];
    LaunchConfig perQuery = EncoderKernels.attentionLaunch(batch, length, HEADS);
    float scale = (float) (1 / Math.sqrt(HEAD_SIZE));
    EncoderKernels.ATTENTION.runReference(
        perQuery, qkv, mask, context, batch, length, HEADS, HEAD_SIZE, scale);
    EncoderKernels.ATTENTION_HALF.runReference(
        perQuery, qkv, mask, contextHalf, batch, length, HEADS, HEAD_SIZE, scale);
    assertArrayEquals(rounded(context), contextHalf);
  }

  private static short[] rounded(float[] values) {
    short[] half = new short[values.length];
    for (int i = 0; i < values.length; i++) {
      half[i] = Float.floatToFloat16(values[i]);
    }
    return half;
  }

  @Test
  void attentionOverTheFusedQkvRowsIsEachSequencesOwnAttentionWithItsPaddingHidden() {
    int batch = 2, length = 5, kept1 = 3;
    float[] qkv = randoms(batch * length * 3 * HIDDEN);
    int[] mask = {1, 1, 1, 1, 1, 1, 1, 1, 0, 0};
    float[] out = new float[batch * length * HIDDEN];

    EncoderKernels.ATTENTION.runReference(
        EncoderKernels.attentionLaunch(batch, length, HEADS),
        qkv,
        mask,
        out,
        batch,
        length,
        HEADS,
        HEAD_SIZE,
        (float) (1 / Math.sqrt(HEAD_SIZE)));

    for (int b = 0; b < batch; b++) {
      // The reference sees sequence b alone, unpadded: only its own tokens exist for it.
      int tokens = b == 0 ? length : kept1;
      float[][] q = new float[tokens][], k = new float[tokens][], v = new float[tokens][];
      for (int t = 0; t < tokens; t++) {
        float[] r = row(qkv, b * length + t, 3 * HIDDEN);
        q[t] = Arrays.copyOfRange(r, 0, HIDDEN);
        k[t] = Arrays.copyOfRange(r, HIDDEN, 2 * HIDDEN);
        v[t] = Arrays.copyOfRange(r, 2 * HIDDEN, 3 * HIDDEN);
      }
      int[] all = new int[tokens];
      Arrays.fill(all, 1);
      float[][] expected = ReferenceEncoder.attention(q, k, v, all, HEADS);
      for (int t = 0; t < tokens; t++) {
        float[] actual = row(out, b * length + t, HIDDEN);
        for (int h = 0; h < HIDDEN; h++) {
          // The kernel takes the scale as an f32, the reference as a double.
          assertEquals(expected[t][h], actual[h], 1e-6, "sequence " + b + ", token " + t);
        }
      }
    }
  }

  @Test
  void aSequenceWhoseMaskKeepsNothingGetsZerosFromAttentionAndFromPooling() {
    int length = 3;
    float[] qkv = randoms(length * 3 * HIDDEN);
    int[] mask = new int[length];
    float[] out = randoms(length * HIDDEN);
    float[] pooled = randoms(HIDDEN), clsPooled = randoms(HIDDEN);
    float[] norm = {7f}, clsNorm = {7f};

    EncoderKernels.ATTENTION.runReference(
        EncoderKernels.attentionLaunch(1, length, HEADS),
        qkv,
        mask,
        out,
        1,
        length,
        HEADS,
        HEAD_SIZE,
        (float) (1 / Math.sqrt(HEAD_SIZE)));
    float[] x = randoms(length * HIDDEN);
    EncoderKernels.POOL_NORMALIZE.runReference(
        LaunchConfig.of(1, BLOCK), x, mask, pooled, norm, 1, length, HIDDEN, 0);
    EncoderKernels.POOL_NORMALIZE.runReference(
        LaunchConfig.of(1, BLOCK), x, mask, clsPooled, clsNorm, 1, length, HIDDEN, 1);

    assertArrayEquals(new float[length * HIDDEN], out);
    assertArrayEquals(new float[HIDDEN], pooled);
    assertArrayEquals(new float[HIDDEN], clsPooled);
    assertArrayEquals(new float[] {0}, norm);
    assertArrayEquals(new float[] {0}, clsNorm);
  }

  @Test
  void meanPoolingIsTheReferenceEncodersNormalisedMeanOverEachMaskAndItsNorm() {
    int batch = 2, length = 4;
    float[] x = randoms(batch * length * HIDDEN);
    int[] mask = {1, 1, 1, 1, 1, 1, 0, 0};
    float[] out = new float[batch * HIDDEN];
    float[] norms = new float[batch];

    EncoderKernels.POOL_NORMALIZE.runReference(
        LaunchConfig.of(batch, BLOCK), x, mask, out, norms, batch, length, HIDDEN, 0);

    for (int b = 0; b < batch; b++) {
      float[][] rows = new float[length][];
      for (int t = 0; t < length; t++) {
        rows[t] = row(x, b * length + t, HIDDEN);
      }
      float[] mean =
          ReferenceEncoder.meanPooled(rows, Arrays.copyOfRange(mask, b * length, (b + 1) * length));
      assertArrayEquals(ReferenceEncoder.normalized(mean), row(out, b, HIDDEN), "sequence " + b);
      assertEquals((float) ReferenceEncoder.norm(mean), norms[b], "the norm of sequence " + b);
    }
  }

  @Test
  void clsPoolingIsEachSequencesFirstRowNormalisedWithItsNormWhateverTheOtherRows() {
    int batch = 3, length = 4;
    float[] x = randoms(batch * length * HIDDEN);
    int[] mask = {1, 1, 1, 1, 1, 1, 0, 0, 1, 0, 0, 0};
    float[] out = new float[batch * HIDDEN];
    float[] norms = new float[batch];
    float[] changed = x.clone();
    for (int b = 0; b < batch; b++) {
      for (int i = HIDDEN; i < length * HIDDEN; i++) {
        changed[b * length * HIDDEN + i] += 1; // every row but the first
      }
    }
    float[] outOfChanged = new float[batch * HIDDEN];

    EncoderKernels.POOL_NORMALIZE.runReference(
        LaunchConfig.of(batch, BLOCK), x, mask, out, norms, batch, length, HIDDEN, 1);
    EncoderKernels.POOL_NORMALIZE.runReference(
        LaunchConfig.of(batch, BLOCK),
        changed,
        mask,
        outOfChanged,
        new float[batch],
        batch,
        length,
        HIDDEN,
        1);

    for (int b = 0; b < batch; b++) {
      float[] first = row(x, b * length, HIDDEN);
      assertArrayEquals(ReferenceEncoder.normalized(first), row(out, b, HIDDEN), "sequence " + b);
      assertEquals((float) ReferenceEncoder.norm(first), norms[b], "the norm of sequence " + b);
    }
    assertArrayEquals(out, outOfChanged, "the rows after the first take no part");
  }

  @Test
  void everyKernelOfThePtxHasAGpuTestAgainstItsReference() throws java.io.IOException {
    String ptx;
    try (var in = EncoderKernels.class.getResourceAsStream("encoder_kernels.ptx")) {
      ptx = new String(in.readAllBytes(), java.nio.charset.StandardCharsets.US_ASCII);
    }
    java.util.Set<String> entries =
        java.util.regex.Pattern.compile("\\.entry\\s+(\\w+)")
            .matcher(ptx)
            .results()
            .map(m -> m.group(1))
            .collect(java.util.stream.Collectors.toSet());
    java.util.Set<String> tested =
        EncoderKernelsGpuTests.TESTED.stream()
            .map(cuda.graph.Kernel::name)
            .collect(java.util.stream.Collectors.toSet());

    assertEquals(10, entries.size(), entries::toString);
    assertEquals(entries, tested, "the PTX's kernels and those EncoderKernelsGpuTests runs");
  }

  @Test
  void geluIsBertsExactErfForm() {
    float[] x = {-4f, -1.5f, -0.5f, 0f, 1e-3f, 0.5f, 1f, 2.5f, 7f};
    float[] expected = new float[x.length];
    for (int i = 0; i < x.length; i++) {
      expected[i] = (float) (0.5 * x[i] * (1 + ReferenceEncoder.erf(x[i] / Math.sqrt(2))));
    }

    EncoderKernels.GELU.runReference(LaunchConfig.of(1, BLOCK), x, (long) x.length);

    assertArrayEquals(expected, x);
  }

  @Test
  void encodeSmallTakesQueriesOfUpTo32TokensOfAllMiniLmsSizesAndItsGridIsItsPhasesItems() {
    // all-MiniLM-L6-v2 and bge-small-en-v1.5: rows of 384 in 12 heads of 32, activations of 1536.
    assertTrue(EncoderKernels.encodeSmallTakes(32, 384, 12, 1536), "32 tokens");
    assertTrue(EncoderKernels.encodeSmallTakes(1, 384, 12, 1536), "1 token");
    assertTrue(EncoderKernels.encodeSmallTakes(7, 64, 4, 128), "heads of 16");
    assertTrue(EncoderKernels.encodeSmallTakes(7, 64, 2, 1 << 16), "activations of 65,536");
    assertFalse(EncoderKernels.encodeSmallTakes(33, 384, 12, 1536), "33 tokens");
    assertFalse(EncoderKernels.encodeSmallTakes(0, 384, 12, 1536), "no token");
    assertFalse(EncoderKernels.encodeSmallTakes(16, 400, 10, 1536), "rows of 400");
    assertFalse(EncoderKernels.encodeSmallTakes(16, 392, 14, 1536), "rows of 392, not 16s");
    assertFalse(EncoderKernels.encodeSmallTakes(16, 384, 6, 1536), "heads of 64");
    assertFalse(EncoderKernels.encodeSmallTakes(16, 48, 2, 192), "heads of 24");
    assertFalse(EncoderKernels.encodeSmallTakes(16, 384, 0, 1536), "no head");
    assertFalse(EncoderKernels.encodeSmallTakes(16, 384, 12, 1544), "activations of 1544");
    assertFalse(EncoderKernels.encodeSmallTakes(16, 384, 12, 0), "no activations");
    assertFalse(EncoderKernels.encodeSmallTakes(16, 64, 2, (1 << 16) + 16), "65,552 activations");
    // The embeddings, then per layer an item a head and a 16-column strip of each product but
    // QKV's (done by the heads), then pooling.
    assertEquals(2 + 6 * (12 + 24 + 96 + 24), EncoderKernels.encodeSmallBlocks(6, 384, 12, 1536));
    assertEquals(28, EncoderKernels.encodeSmallSyncInts(6));
    assertEquals(16, EncoderKernels.encodeSmallRows(1));
    assertEquals(16, EncoderKernels.encodeSmallRows(16));
    assertEquals(32, EncoderKernels.encodeSmallRows(17));
  }

  @Test
  void encodeSmallsReferenceGivesNaNToEachSequenceWithAnIdOutsideTheVocabularyMaskedOrNot() {
    SmallModel model = SmallModel.random(27);
    int batch = 3, length = 5, hidden = SmallModel.HIDDEN;
    int[][] tokens = SmallModel.tokens(new Random(28), batch * length);
    // Every token of sequences 0 and 1 kept, sequence 2 its first three.
    int[] mask = {1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 0, 0};
    float[] valid = new float[batch * hidden], validNorms = new float[batch];
    EncoderKernels.ENCODE_SMALL.runReference(
        SmallModel.launch(),
        model.arguments(
            tokens[0],
            tokens[1],
            mask,
            valid,
            validNorms,
            new int[SmallModel.syncInts()],
            batch,
            length,
            Pooling.MEAN,
            0));
    // Token 2 of sequence 1 outside the vocabulary; token 4 of sequence 2 too, where it is masked.
    int[] ids = tokens[0].clone();
    ids[length + 2] = SmallModel.VOCABULARY;
    ids[2 * length + 4] = -1;
    float[] out = new float[batch * hidden], norms = new float[batch];
    int[] sync = new int[SmallModel.syncInts()];
    EncoderKernels.ENCODE_SMALL.runReference(
        SmallModel.launch(),
        model.arguments(ids, tokens[1], mask, out, norms, sync, batch, length, Pooling.MEAN, 0));

    assertArrayEquals(row(valid, 0, hidden), row(out, 0, hidden), "sequence 0, all its ids valid");
    assertEquals(validNorms[0], norms[0]);
    assertTrue(validNorms[0] > 0 && Float.isFinite(validNorms[0]), "a finite norm: " + norms[0]);
    for (int b = 1; b < batch; b++) {
      // A masked key's value is taken times its weight 0, as the kernel's sum takes it.
      for (float v : row(out, b, hidden)) {
        assertTrue(Float.isNaN(v), "sequence " + b + " holds " + v);
      }
      assertTrue(Float.isNaN(norms[b]), "the norm of sequence " + b);
    }
    assertArrayEquals(new int[SmallModel.syncInts()], sync, "sync untouched");
  }

  @ParameterizedTest(name = "{0}")
  @ValueSource(
      strings = {
        "one block fewer",
        "one block more",
        "blocks of 128",
        "33 tokens",
        "3 heads, which do not divide 64",
        "no layer",
        "65 layers"
      })
  void encodeSmallsReferenceWritesNaNOverOutAndNormsAndNothingElseForALaunchItIsNotWrittenFor(
      String what) {
    SmallModel model = SmallModel.random(29);
    int batch = what.equals("33 tokens") ? 3 : 2, length = what.equals("33 tokens") ? 11 : 8;
    int hidden = SmallModel.HIDDEN, beyond = 5;
    int[][] tokens = SmallModel.tokens(new Random(30), batch * length);
    float[] out = new float[batch * hidden + beyond], norms = new float[batch + beyond];
    Arrays.fill(out, 12345f);
    Arrays.fill(norms, 12345f);
    int[] sync = new int[SmallModel.syncInts()];
    Arrays.fill(sync, 7);
    Object[] arguments =
        model.arguments(
            tokens[0],
            tokens[1],
            SmallModel.mask(batch, length),
            out,
            norms,
            sync,
            batch,
            length,
            Pooling.MEAN,
            12345f);
    Object[] scratch = {
      ((float[]) arguments[20]).clone(),
      ((float[]) arguments[21]).clone(),
      ((short[]) arguments[22]).clone(),
      ((short[]) arguments[23]).clone()
    };
    int blocks = SmallModel.launch().grid().x(), threads = EncoderKernels.ENCODE_SMALL_BLOCK;
    switch (what) {
      case "one block fewer" -> blocks--;
      case "one block more" -> blocks++;
      case "blocks of 128" -> threads = 128;
      case "3 heads, which do not divide 64" -> arguments[31] = 3;
      case "no layer" -> arguments[29] = 0;
      case "65 layers" -> arguments[29] = 65;
      default -> {} // 33 tokens: sizes, the grid right for them
    }
    if (!what.contains("block")) {
      int layers = (int) arguments[29], heads = (int) arguments[31];
      blocks = 2 + layers * (heads + 2 * hidden / 16 + SmallModel.FFN / 16);
    }

    EncoderKernels.ENCODE_SMALL.runReference(LaunchConfig.of(blocks, threads), arguments);

    for (int e = 0; e < out.length; e++) {
      assertEquals(e < batch * hidden ? Float.NaN : 12345f, out[e], "element " + e + " of out");
    }
    for (int b = 0; b < norms.length; b++) {
      assertEquals(b < batch ? Float.NaN : 12345f, norms[b], "norm " + b);
    }
    int[] seven = new int[SmallModel.syncInts()];
    Arrays.fill(seven, 7);
    assertArrayEquals(seven, sync, "sync untouched");
    assertArrayEquals((float[]) scratch[0], (float[]) arguments[20], "h untouched");
    assertArrayEquals((float[]) scratch[1], (float[]) arguments[21], "x untouched");
    assertArrayEquals((short[]) scratch[2], (short[]) arguments[22], "ctx untouched");
    assertArrayEquals((short[]) scratch[3], (short[]) arguments[23], "u untouched");
  }
}
