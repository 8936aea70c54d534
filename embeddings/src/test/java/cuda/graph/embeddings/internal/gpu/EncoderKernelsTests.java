// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 the cuda-graph authors
package cuda.graph.embeddings.internal.gpu;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import cuda.graph.LaunchConfig;
import cuda.graph.embeddings.internal.model.ReferenceEncoder;
import java.util.Arrays;
import java.util.List;
import java.util.Random;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * The kernels' Java references (what the simulator runs for encoder_kernels.cu), run on small
 * random inputs in the layouts the encoder gives them, agree with {@link ReferenceEncoder}'s pieces
 * computed from the same numbers in its own layout.
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
  void attentionOnTheTensorCoresIsTheAttentionOfItsFp16RowsUpToTheRoundingOfItsWeights() {
    // Three sequences of 37 tokens (three warps, the last with 11 padded queries): all kept, the
    // first 20 kept, none kept.
    int batch = 3, length = 37;
    float[] qkv = randoms(batch * length * 3 * HIDDEN);
    int[] mask = new int[batch * length];
    for (int t = 0; t < length; t++) {
      mask[t] = 1;
      mask[length + t] = t < 20 ? 1 : 0;
    }
    short[] out = new short[batch * length * HIDDEN];
    Arrays.fill(out, Float.floatToFloat16(99f));
    EncoderKernels.ATTENTION_HALF_TILES.runReference(
        EncoderKernels.attentionTilesLaunch(batch, length, HEADS, HEAD_SIZE),
        qkv,
        mask,
        out,
        batch,
        length,
        HEADS,
        HEAD_SIZE,
        (float) (1 / Math.sqrt(HEAD_SIZE)));

    for (int b = 0; b < 2; b++) {
      int tokens = b == 0 ? length : 20;
      float[][] q = new float[length][], k = new float[tokens][], v = new float[tokens][];
      for (int t = 0; t < length; t++) {
        float[] r = halfRounded(row(qkv, b * length + t, 3 * HIDDEN));
        q[t] = Arrays.copyOfRange(r, 0, HIDDEN);
        if (t < tokens) {
          k[t] = Arrays.copyOfRange(r, HIDDEN, 2 * HIDDEN);
          v[t] = Arrays.copyOfRange(r, 2 * HIDDEN, 3 * HIDDEN);
        }
      }
      for (int t = 0; t < length; t++) { // every query, the padded ones too
        // Query t alone against the sequence's kept keys: the reference encoder's attention.
        float[][] queries = new float[tokens][];
        Arrays.fill(queries, q[t]);
        int[] all = new int[tokens];
        Arrays.fill(all, 1);
        float[] expected = ReferenceEncoder.attention(queries, k, v, all, HEADS)[0];
        float[] actual = row(halfFloats(out), b * length + t, HIDDEN);
        for (int h = 0; h < HIDDEN; h++) {
          // The weights are rounded to fp16 (2^-11 of each, values under 4 or so), then the sum.
          assertEquals(expected[h], actual[h], 4e-3, "sequence " + b + ", token " + t);
        }
      }
    }
    for (int i = 2 * length * HIDDEN; i < out.length; i++) {
      assertEquals(0, Float.float16ToFloat(out[i]), "the sequence whose mask keeps nothing");
    }
  }

  @Test
  void attentionOnTheTensorCoresLaunchedWithTheWrongBlockWritesNanOverItsRowsAndRefusesLongRows() {
    int length = 20;
    float[] qkv = randoms(length * 3 * HIDDEN);
    int[] mask = new int[length];
    Arrays.fill(mask, 1);
    short[] out = new short[length * HIDDEN];
    // One warp where 20 tokens take two.
    EncoderKernels.ATTENTION_HALF_TILES.runReference(
        LaunchConfig.of(cuda.graph.Dim3.of(HEADS, 1), cuda.graph.Dim3.of(32)),
        qkv,
        mask,
        out,
        1,
        length,
        HEADS,
        HEAD_SIZE,
        (float) (1 / Math.sqrt(HEAD_SIZE)));
    for (short h : out) {
      assertTrue(Float.isNaN(Float.float16ToFloat(h)));
    }
    IllegalArgumentException e =
        org.junit.jupiter.api.Assertions.assertThrows(
            IllegalArgumentException.class,
            () -> EncoderKernels.attentionHalfTiles(null, null, null, 1, 129, HEADS, 32, false));
    assertTrue(e.getMessage().contains("got length 129, head 32"), e.getMessage());
    assertTrue(EncoderKernels.attentionTilesTake(128, 64));
    assertTrue(!EncoderKernels.attentionTilesTake(64, 24), "a head of 24 is not tiles of 16");
  }

  private static float[] halfRounded(float[] values) {
    float[] r = new float[values.length];
    for (int i = 0; i < r.length; i++) {
      r[i] = Float.float16ToFloat(Float.floatToFloat16(values[i]));
    }
    return r;
  }

  private static float[] halfFloats(short[] halves) {
    float[] r = new float[halves.length];
    for (int i = 0; i < r.length; i++) {
      r[i] = Float.float16ToFloat(halves[i]);
    }
    return r;
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

    assertEquals(17, entries.size(), entries::toString);
    assertEquals(entries, tested, "the PTX's kernels and those EncoderKernelsGpuTests runs");
  }

  @Test
  void theTimelineNumbersEachKernelAsItsSourceOpensItsTraceScope() throws java.io.IOException {
    String cu =
        java.nio.file.Files.readString(
            java.util.stream.Stream.of(
                    "src/main/cuda/encoder_kernels.cu",
                    "embeddings/src/main/cuda/encoder_kernels.cu")
                .map(java.nio.file.Path::of)
                .filter(java.nio.file.Files::isRegularFile)
                .findFirst()
                .orElseThrow(
                    () ->
                        new AssertionError(
                            "encoder_kernels.cu: run from the module or the repository")));
    java.util.regex.Matcher entry =
        java.util.regex.Pattern.compile(
                "extern \"C\" __global__ void (?:__cluster_dims__\\([^)]*\\)\\s*)?(\\w+)\\(")
            .matcher(cu);
    java.util.regex.Pattern scope =
        java.util.regex.Pattern.compile("KERNEL_TRACE_SCOPE\\((\\d+)\\);");
    java.util.List<String> numbered = new java.util.ArrayList<>();
    while (entry.find()) {
      java.util.regex.Matcher s = scope.matcher(cu).region(entry.end(), cu.length());
      assertTrue(s.find(), entry.group(1) + " opens no KERNEL_TRACE_SCOPE");
      assertEquals(
          -1,
          cu.substring(entry.end(), s.start()).indexOf(';'),
          entry.group(1) + "'s trace scope is not its first statement");
      numbered.add(s.group(1) + " " + entry.group(1));
    }
    java.util.List<String> traced = new java.util.ArrayList<>();
    for (int i = 0; i < EncoderKernels.TRACED.size(); i++) {
      traced.add(i + " " + EncoderKernels.TRACED.get(i).name());
    }

    assertEquals(traced, numbered);
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
  void theQueryProductsAreEachRowTimesTheWeightPlusBiasThenTheirEpilogue() {
    int rows = 3, k = 32, n = 32;
    short[] a = new short[rows * k], w = new short[k * n], halfBias = new short[n];
    float[] bias = randoms(n);
    for (int i = 0; i < a.length; i++) {
      a[i] = Float.floatToFloat16((float) random.nextGaussian());
    }
    for (int i = 0; i < w.length; i++) {
      w[i] = Float.floatToFloat16((float) (random.nextGaussian() / 4));
    }
    for (int c = 0; c < n; c++) {
      halfBias[c] = Float.floatToFloat16(bias[c]);
    }
    float[] before = randoms((rows + 1) * n);
    float[] plain = new float[(rows + 1) * n], residual = before.clone();
    short[] gelu = new short[(rows + 1) * n];
    EncoderKernels.QUERY_LINEAR_BIAS.runReference(launch(32, k, 1), a, w, bias, plain, rows, n, k);
    EncoderKernels.QUERY_LINEAR_RESIDUAL.runReference(
        launch(16, k, 2), a, w, bias, residual, residual, rows, n, k);
    EncoderKernels.QUERY_LINEAR_GELU_HALF.runReference(
        launch(32, k, 1), a, w, halfBias, gelu, rows, n, k);
    for (int r = 0; r < rows; r++) {
      for (int c = 0; c < n; c++) {
        double sum = 0;
        for (int i = 0; i < k; i++) {
          sum += (double) Float.float16ToFloat(a[r * k + i]) * Float.float16ToFloat(w[i * n + c]);
        }
        int at = r * n + c;
        assertEquals((float) (sum + bias[c]), plain[at], "query_linear_bias " + at);
        assertEquals(
            (float) (before[at] + sum + bias[c]), residual[at], "query_linear_residual " + at);
        float inner = (float) (sum + Float.float16ToFloat(halfBias[c]));
        assertEquals(
            Float.floatToFloat16((float) ReferenceEncoder.gelu(inner)),
            gelu[at],
            "query_linear_gelu_half " + at);
      }
    }
    for (int at = rows * n; at < (rows + 1) * n; at++) {
      assertEquals(0f, plain[at], "a row past the rows");
      assertEquals(before[at], residual[at], "a row past the rows");
      assertEquals(0, gelu[at], "a row past the rows");
    }
  }

  @Test
  void aQueryProductWritesTheRowsOfTheBlocksItsGridHasAndNanWhereItsBlockIsNotItsOwn() {
    int rows = EncoderKernels.QUERY_ROWS + 8, k = 16, n = 32;
    float[] bias = new float[n];
    Arrays.fill(bias, 1f);
    for (int threads : new int[] {EncoderKernels.QUERY_BLOCK, EncoderKernels.BLOCK}) {
      float[] out = new float[rows * n];
      // One block row: the first 32 rows, not the 8 after them.
      EncoderKernels.QUERY_LINEAR_BIAS.runReference(
          LaunchConfig.of(1, threads),
          new short[rows * k],
          new short[k * n],
          bias,
          out,
          rows,
          n,
          k);
      for (int i = 0; i < out.length; i++) {
        float expected =
            i >= EncoderKernels.QUERY_ROWS * n
                ? 0f
                : threads == EncoderKernels.QUERY_BLOCK ? 1f : Float.NaN;
        assertEquals(expected, out[i], "blocks of " + threads + " threads: element " + i);
      }
    }
  }

  @ParameterizedTest(name = "rows of {0}")
  @ValueSource(ints = {128, 1536})
  void theProductWithItsLayerNormIsTheResidualProductThenEachRowsLayerNormInBothOutputs(int k) {
    // Bands of 32 rows (k = 128) or 16 (k = 1,536), the last partly padding; a row past the rows
    // keeps what it holds.
    int rows = 40, n = EncoderKernels.QUERY_NORM_WIDTH;
    short[] a = new short[rows * k], w = new short[k * n];
    for (int i = 0; i < a.length; i++) {
      a[i] = Float.floatToFloat16((float) random.nextGaussian());
    }
    for (int i = 0; i < w.length; i++) {
      w[i] = Float.floatToFloat16((float) (random.nextGaussian() / 8));
    }
    float[] bias = randoms(n), gamma = randoms(n), beta = randoms(n);
    float[] before = randoms((rows + 1) * n);
    float[] x = before.clone();
    short[] xHalf = new short[(rows + 1) * n];
    Arrays.fill(xHalf, Float.floatToFloat16(7f));

    EncoderKernels.queryNormKernel(k)
        .runReference(
            EncoderKernels.queryNormLaunch(rows, k),
            a,
            w,
            bias,
            x,
            gamma,
            beta,
            x,
            xHalf,
            rows,
            n,
            k,
            EPS);

    for (int r = 0; r < rows; r++) {
      float[] sum = new float[n];
      for (int c = 0; c < n; c++) {
        double product = 0;
        for (int i = 0; i < k; i++) {
          product +=
              (double) Float.float16ToFloat(a[r * k + i]) * Float.float16ToFloat(w[i * n + c]);
        }
        sum[c] = (float) (before[r * n + c] + product + bias[c]);
      }
      float[] expected = ReferenceEncoder.layerNorm(sum, gamma, beta, EPS);
      assertArrayEquals(expected, row(x, r, n), "row " + r);
      for (int c = 0; c < n; c++) {
        assertEquals(Float.floatToFloat16(expected[c]), xHalf[r * n + c], "row " + r + " in fp16");
      }
    }
    assertArrayEquals(row(before, rows, n), row(x, rows, n), "the row past the rows");
    assertEquals(Float.floatToFloat16(7f), xHalf[rows * n + 5], "the row past the rows in fp16");
  }

  @ParameterizedTest(name = "rows of {0}")
  @ValueSource(ints = {128, 1536})
  void theProductWithItsLayerNormLaunchedWithoutItsClusterOrBlockWritesNanOverItsRows(int k) {
    int rows = 16, n = EncoderKernels.QUERY_NORM_WIDTH;
    LaunchConfig own = EncoderKernels.queryNormLaunch(rows, k);
    for (LaunchConfig launch :
        List.of(
            LaunchConfig.of(1, EncoderKernels.QUERY_NORM_BLOCK)
                .withSharedMemory(EncoderKernels.queryNormBytes(k)),
            new LaunchConfig(
                own.grid(),
                cuda.graph.Dim3.of(EncoderKernels.QUERY_BLOCK),
                own.sharedMemoryBytes()))) {
      float[] x = new float[rows * n];
      short[] xHalf = new short[rows * n];
      float[] ones = new float[n];
      Arrays.fill(ones, 1f);
      EncoderKernels.queryNormKernel(k)
          .runReference(
              launch,
              new short[rows * k],
              new short[k * n],
              ones,
              x,
              ones,
              ones,
              x,
              xHalf,
              rows,
              n,
              k,
              EPS);
      // One block of the cluster covers 48 columns of each row; the full grid all of them.
      int covered = (int) Math.min((long) launch.grid().x() * EncoderKernels.QUERY_NORM_COLUMNS, n);
      for (int r = 0; r < rows; r++) {
        for (int c = 0; c < n; c++) {
          int at = r * n + c;
          boolean nan = c < covered;
          assertEquals(nan, Float.isNaN(x[at]), launch + ": element " + at);
          assertEquals(nan, Float.isNaN(Float.float16ToFloat(xHalf[at])), launch + ": fp16 " + at);
        }
      }
    }
  }

  private static LaunchConfig launch(int columns, int k, int blocks) {
    return LaunchConfig.of(blocks, EncoderKernels.QUERY_BLOCK)
        .withSharedMemory(EncoderKernels.queryLinearBytes(columns, k));
  }
}
