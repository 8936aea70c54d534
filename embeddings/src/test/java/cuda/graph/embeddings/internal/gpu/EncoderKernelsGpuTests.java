// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 the cuda-graph authors
package cuda.graph.embeddings.internal.gpu;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

import cuda.graph.CudaPlatform;
import cuda.graph.DeviceBuffer;
import cuda.graph.ElementType;
import cuda.graph.Kernel;
import cuda.graph.LaunchConfig;
import cuda.graph.Stream;
import cuda.graph.embeddings.Pooling;
import cuda.graph.embeddings.internal.model.MiniLm;
import cuda.graph.testkit.KernelTimeline;
import java.util.Arrays;
import java.util.List;
import java.util.Random;
import java.util.function.DoubleUnaryOperator;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * Every CUDA kernel of encoder_kernels.cu gives, element by element, what its Java reference (what
 * the simulator runs) gives, on random inputs through the launches the encoder makes, in its fp32
 * and its fp16 form: the embeddings with their LayerNorm, LayerNorm in place, attention (lengths of
 * one, two and three key tiles, with padding and a sequence whose mask keeps nothing), the exact
 * GELU over a grid-stride launch, and pooling (mean and CLS) with the L2 normalisation and its
 * norm. Rows the kernels turn into NaN (an id or type outside its table) must be NaN on both sides.
 * {@link #TESTED} names the kernels covered; EncoderKernelsTests fails the build when the PTX has
 * one more. Skipped only where the system platform is not the cuda provider (no GPU).
 *
 * <p>Tolerances. The CUDA kernels sum in fp32 (in a tree for the row reductions) and take {@code
 * rsqrt.approx}, {@code erff} and {@code expf}; the references sum in double and round once. The
 * bounds below come from the kernels' arithmetic emulated in Java (fp32, the same reduction order,
 * fused multiply-adds, rsqrt off by up to its 2^-22.9) against the references, on inputs like the
 * ones here, and leave a factor of about 10 over the largest difference seen; each is still at
 * least 10^4 times smaller than what a wrong index, mask, parameter or scale makes (differences of
 * the size of the values).
 *
 * <ul>
 *   <li>LayerNorm rows: {@code 1e-5 * (1 + |expected|)}; emulated at most {@code 8.4e-7 * (1 +
 *       |expected|)} for rows whose mean is at most 3 standard deviations from 0 (the error of an
 *       fp32 mean grows with mean / deviation, so rows are kept that way).
 *   <li>GELU: {@code 2e-6 * (1 + |x|)} of its input x; emulated at most {@code 1.7e-7 * (1 + |x|)}
 *       (erff is within 2 ulp).
 *   <li>Pooling: {@code 1e-6} on the elements of a unit vector; emulated at most {@code 9e-8}, and
 *       every norm within 1.2e-7 of 1. The norms the kernel divides by: {@code 1e-5} of the
 *       expected norm (an fp32 sum of 384 squares is off by at most 384 roundings of 6e-8 each, a
 *       relative 2.3e-5 in the worst order, some 10^-6 in a tree).
 *   <li>Attention: {@code 1e-5}, as since the kernel was written (values of a few units).
 *   <li>The embeddings before their LayerNorm: {@code 1e-6 * (1 + |expected|)} (two fp32 sums).
 *   <li>fp16 outputs: the fp32 tolerance plus one fp16 unit in the last place of the expected
 *       value, since two values that close can round to neighbouring fp16 values (attention keeps
 *       its {@code 4e-3}, an fp16 unit at 4 to 8).
 *   <li>The query products: a sum of {@code k} exact fp16 products and the bias (and residual) in
 *       fp32, in any order, is within {@code (k + 2) 2^-24} times the sum of the terms' magnitudes
 *       of the exact sum (the classical bound of recursive summation), which is the tolerance;
 *       through the GELU (slope at most 1.13, erff within 2 ulp) that plus {@code 1e-6 (1 + |x|)},
 *       and one fp16 unit.
 *   <li>The product with its LayerNorm: each sum within the bound above, D the largest of a row;
 *       the row's mean moves by at most D, each deviation by 2D and the inverse deviation s by
 *       about 2 D s^2 in relative terms, so an output moves by at most {@code |gamma| s (2D + 2D
 *       |y'|)}, y' the normalised value; twice that, plus {@code 1e-5 (1 + |y|)} for the fp32 sums
 *       of the row (the LayerNorm's own tolerance), and one fp16 unit for the fp16 copy.
 * </ul>
 */
@Tag("gpu")
class EncoderKernelsGpuTests {

  /** The kernels these tests run on the GPU against their references. */
  static final List<Kernel> TESTED =
      List.of(
          EncoderKernels.EMBED_LAYER_NORM,
          EncoderKernels.EMBED_LAYER_NORM_HALF,
          EncoderKernels.LAYER_NORM,
          EncoderKernels.LAYER_NORM_HALF,
          EncoderKernels.ATTENTION,
          EncoderKernels.ATTENTION_HALF,
          EncoderKernels.ATTENTION_HALF_SHORT,
          EncoderKernels.ATTENTION_HALF_TILES,
          EncoderKernels.ATTENTION_HALF_TILES_HALF_QKV,
          EncoderKernels.GELU,
          EncoderKernels.POOL_NORMALIZE,
          EncoderKernels.QUERY_LINEAR_BIAS,
          EncoderKernels.QUERY_LINEAR_RESIDUAL,
          EncoderKernels.QUERY_LINEAR_GELU_HALF,
          EncoderKernels.QUERY_LINEAR_RESIDUAL_NORM_16,
          EncoderKernels.QUERY_LINEAR_RESIDUAL_NORM_32,
          EncoderKernels.TRACE_TO);

  // all-MiniLM-L6-v2's and bge-small-en-v1.5's sizes and epsilon.
  private static final int HIDDEN = 384;
  private static final int HEADS = 12;
  private static final int HEAD_SIZE = 32;
  private static final int BLOCK = EncoderKernels.BLOCK;
  private static final float EPS = 1e-12f;

  private static final DoubleUnaryOperator ROW = e -> 1e-5 * (1 + Math.abs(e));

  private static CudaPlatform gpu() {
    CudaPlatform platform = CudaPlatform.system();
    Assumptions.assumeTrue(
        platform.providerId().equals("cuda"),
        "no GPU: the system platform is '" + platform.providerId() + "'");
    return platform;
  }

  /**
   * Fails unless every element of {@code actual} is its element of {@code expected} within {@code
   * tolerance(expected)}, or NaN where that is NaN; the message names the worst element.
   */
  private static void assertElements(
      String what, float[] expected, float[] actual, DoubleUnaryOperator tolerance) {
    assertEquals(expected.length, actual.length, what);
    double worst = 0;
    int at = -1;
    for (int i = 0; i < expected.length; i++) {
      double ratio;
      if (Float.isNaN(expected[i])) {
        ratio = Float.isNaN(actual[i]) ? 0 : Double.POSITIVE_INFINITY;
      } else {
        // NaN in actual makes the ratio NaN, which !(ratio <= worst) takes as the worst.
        ratio = Math.abs(actual[i] - expected[i]) / tolerance.applyAsDouble(expected[i]);
      }
      if (!Double.isNaN(worst) && !(ratio <= worst)) {
        worst = ratio;
        at = i;
      }
    }
    double w = worst;
    int i = at;
    assertTrue(
        w <= 1,
        () ->
            what
                + ": element "
                + i
                + " is "
                + actual[i]
                + ", its reference "
                + expected[i]
                + " ("
                + w
                + " times the tolerance "
                + tolerance.applyAsDouble(expected[i])
                + ")");
  }

  /** As {@link #assertElements} for fp16 values, with one fp16 ulp more (see the class comment). */
  private static void assertHalves(
      String what, short[] expected, short[] actual, DoubleUnaryOperator tolerance) {
    assertElements(
        what, floats(expected), floats(actual), e -> tolerance.applyAsDouble(e) + halfUlp(e));
  }

  /** {@return the spacing of fp16 values at {@code x}}: 2^(exponent - 10), 2^-24 if subnormal */
  static double halfUlp(double x) {
    return Math.max(Math.scalb(1.0, Math.getExponent((float) x) - 10), 0x1p-24);
  }

  private static float[] floats(short[] halves) {
    float[] f = new float[halves.length];
    for (int i = 0; i < f.length; i++) {
      f[i] = Float.float16ToFloat(halves[i]);
    }
    return f;
  }

  private static float[] gaussians(Random random, int n, double scale) {
    float[] v = new float[n];
    for (int i = 0; i < n; i++) {
      v[i] = (float) (scale * random.nextGaussian());
    }
    return v;
  }

  private static float[] uniforms(Random random, int n, double from, double to) {
    float[] v = new float[n];
    for (int i = 0; i < n; i++) {
      v[i] = (float) (from + (to - from) * random.nextDouble());
    }
    return v;
  }

  @Test
  void embedLayerNormAndItsHalfOnTheGpuAreTheirReferenceForEveryElement() {
    CudaPlatform platform = gpu();
    Random random = new Random(3601);
    int vocabulary = 1000, positions = 64, typeCount = 2, batch = 3, length = 37;
    int tokens = batch * length;
    float[] word = gaussians(random, vocabulary * HIDDEN, 1);
    float[] position = gaussians(random, positions * HIDDEN, 1);
    float[] type = gaussians(random, typeCount * HIDDEN, 1);
    // LayerNorm parameters of a trained model's size: gamma near 1, beta near 0.
    float[] gamma = uniforms(random, HIDDEN, 0.5, 1.5);
    float[] beta = uniforms(random, HIDDEN, -0.5, 0.5);
    int[] ids = new int[tokens];
    int[] types = new int[tokens];
    for (int r = 0; r < tokens; r++) {
      ids[r] = random.nextInt(vocabulary);
      types[r] = random.nextInt(typeCount);
    }
    // Rows the kernel turns into NaN: an id past the table, a negative one, a type past its table.
    ids[5] = vocabulary;
    ids[40] = -1;
    types[77] = typeCount;
    Arrays.fill(ids, 2 * length + 30, tokens, 0); // padding: id 0, type 0
    Arrays.fill(types, 2 * length + 30, tokens, 0);

    float[] expected = new float[tokens * HIDDEN], expectedAgain = new float[tokens * HIDDEN];
    short[] expectedHalf = new short[tokens * HIDDEN];
    Object[] args = {
      ids,
      types,
      word,
      position,
      type,
      gamma,
      beta,
      expected,
      tokens,
      length,
      HIDDEN,
      vocabulary,
      positions,
      typeCount,
      EPS
    };
    LaunchConfig perRow = LaunchConfig.of(tokens, BLOCK);
    EncoderKernels.EMBED_LAYER_NORM.runReference(perRow, args);
    Object[] halfArgs = Arrays.copyOf(args, args.length + 1);
    halfArgs[7] = expectedAgain;
    halfArgs[args.length] = expectedHalf;
    EncoderKernels.EMBED_LAYER_NORM_HALF.runReference(perRow, halfArgs);

    float[] actual, actualAgain;
    short[] actualHalf;
    try (Stream stream = platform.defaultDevice().newStream();
        DeviceBuffer<Integer> idsBuffer = DeviceBuffer.fromArray(ids).syncOn(stream);
        DeviceBuffer<Integer> typesBuffer = DeviceBuffer.fromArray(types).syncOn(stream);
        DeviceBuffer<Float> wordBuffer = DeviceBuffer.fromArray(word).syncOn(stream);
        DeviceBuffer<Float> positionBuffer = DeviceBuffer.fromArray(position).syncOn(stream);
        DeviceBuffer<Float> typeBuffer = DeviceBuffer.fromArray(type).syncOn(stream);
        DeviceBuffer<Float> gammaBuffer = DeviceBuffer.fromArray(gamma).syncOn(stream);
        DeviceBuffer<Float> betaBuffer = DeviceBuffer.fromArray(beta).syncOn(stream);
        DeviceBuffer<Float> x =
            DeviceBuffer.zeros(ElementType.F32, tokens * HIDDEN).syncOn(stream);
        DeviceBuffer<Float> xAgain =
            DeviceBuffer.zeros(ElementType.F32, tokens * HIDDEN).syncOn(stream);
        DeviceBuffer<Short> xHalf =
            DeviceBuffer.zeros(ElementType.F16, tokens * HIDDEN).syncOn(stream)) {
      EncoderKernels.Tables tables =
          new EncoderKernels.Tables(
              wordBuffer, positionBuffer, typeBuffer, gammaBuffer, betaBuffer, EPS);
      actual =
          EncoderKernels.embedLayerNorm(idsBuffer, typesBuffer, tables, x, batch, length)
              .andThen(x.toFloatArray())
              .syncOn(stream);
      actualAgain =
          EncoderKernels.embedLayerNormHalf(
                  idsBuffer, typesBuffer, tables, xAgain, xHalf, batch, length, false)
              .andThen(xAgain.toFloatArray())
              .syncOn(stream);
      actualHalf = xHalf.toShortArray().syncOn(stream);
    }
    assertTrue(Float.isNaN(expected[5 * HIDDEN]), "the reference's row of an id past the table");
    assertElements("embed_layer_norm", expected, actual, ROW);
    assertElements("embed_layer_norm_half's fp32 rows", expectedAgain, actualAgain, ROW);
    assertHalves("embed_layer_norm_half's fp16 rows", expectedHalf, actualHalf, ROW);
  }

  @Test
  void layerNormAndItsHalfInPlaceOnTheGpuAreTheirReferenceForEveryElement() {
    CudaPlatform platform = gpu();
    Random random = new Random(3602);
    int rows = 300;
    float[] x = new float[rows * HIDDEN];
    for (int r = 0; r < rows; r++) {
      // Spreads from 0.1 to 30, means up to 3 spreads away from 0 (see the class comment).
      double spread = new double[] {0.1, 1, 30}[r % 3];
      double mean = spread * new double[] {0, 3, -3, 1.5, -0.5}[r % 5];
      for (int i = 0; i < HIDDEN; i++) {
        x[r * HIDDEN + i] = (float) (mean + spread * random.nextGaussian());
      }
    }
    float[] gamma = uniforms(random, HIDDEN, 0.5, 1.5);
    float[] beta = uniforms(random, HIDDEN, -0.5, 0.5);

    // In place, as the encoder runs them: out is in.
    float[] expected = x.clone(), expectedAgain = x.clone();
    short[] expectedHalf = new short[rows * HIDDEN];
    LaunchConfig perRow = LaunchConfig.of(rows, BLOCK);
    EncoderKernels.LAYER_NORM.runReference(
        perRow, expected, gamma, beta, expected, rows, HIDDEN, EPS);
    EncoderKernels.LAYER_NORM_HALF.runReference(
        perRow, expectedAgain, gamma, beta, expectedAgain, rows, HIDDEN, EPS, expectedHalf);

    float[] actual, actualAgain;
    short[] actualHalf;
    try (Stream stream = platform.defaultDevice().newStream();
        DeviceBuffer<Float> in = DeviceBuffer.fromArray(x).syncOn(stream);
        DeviceBuffer<Float> inAgain = DeviceBuffer.fromArray(x).syncOn(stream);
        DeviceBuffer<Float> g = DeviceBuffer.fromArray(gamma).syncOn(stream);
        DeviceBuffer<Float> b = DeviceBuffer.fromArray(beta).syncOn(stream);
        DeviceBuffer<Short> half =
            DeviceBuffer.zeros(ElementType.F16, rows * HIDDEN).syncOn(stream)) {
      actual =
          EncoderKernels.layerNorm(in, g, b, in, rows, EPS)
              .andThen(in.toFloatArray())
              .syncOn(stream);
      actualAgain =
          EncoderKernels.layerNormHalf(inAgain, g, b, inAgain, half, rows, EPS, true)
              .andThen(inAgain.toFloatArray())
              .syncOn(stream);
      actualHalf = half.toShortArray().syncOn(stream);
    }
    assertElements("layer_norm", expected, actual, ROW);
    assertElements("layer_norm_half's fp32 rows", expectedAgain, actualAgain, ROW);
    assertHalves("layer_norm_half's fp16 rows", expectedHalf, actualHalf, ROW);
  }

  @ParameterizedTest(name = "length {0}")
  @ValueSource(ints = {1, 11, 64, 65, 128, 150})
  void attentionOnTheGpuIsItsReferenceForEveryQueryHeadAndSequence(int length) {
    CudaPlatform platform = gpu();
    int batch = 3;
    Random random = new Random(length);
    float[] qkv = gaussians(random, batch * length * 3 * HIDDEN, 1);
    // Sequence 0 keeps every token, sequence 1 its first half or so, sequence 2 nothing.
    int[] mask = new int[batch * length];
    for (int t = 0; t < length; t++) {
      mask[t] = 1;
      mask[length + t] = t <= length / 2 ? 1 : 0;
    }
    float scale = (float) (1 / Math.sqrt(HEAD_SIZE));
    float[] expected = new float[batch * length * HIDDEN];
    EncoderKernels.ATTENTION.runReference(
        EncoderKernels.attentionLaunch(batch, length, HEADS),
        qkv,
        mask,
        expected,
        batch,
        length,
        HEADS,
        HEAD_SIZE,
        scale);
    short[] expectedHalf = new short[expected.length];
    EncoderKernels.ATTENTION_HALF.runReference(
        EncoderKernels.attentionLaunch(batch, length, HEADS),
        qkv,
        mask,
        expectedHalf,
        batch,
        length,
        HEADS,
        HEAD_SIZE,
        scale);

    short[] expectedShort = new short[expected.length];
    EncoderKernels.ATTENTION_HALF_SHORT.runReference(
        EncoderKernels.shortAttentionLaunch(batch, length, HEADS),
        qkv,
        mask,
        expectedShort,
        batch,
        length,
        HEADS,
        HEAD_SIZE,
        scale);
    assertArrayEquals(
        expectedHalf, expectedShort, "the references of both launches of the fp16 attention");

    float[] actual;
    short[] actualHalf, actualShort;
    try (Stream stream = platform.defaultDevice().newStream();
        DeviceBuffer<Float> q = DeviceBuffer.fromArray(qkv).syncOn(stream);
        DeviceBuffer<Integer> m = DeviceBuffer.fromArray(mask).syncOn(stream);
        DeviceBuffer<Float> out =
            DeviceBuffer.zeros(ElementType.F32, expected.length).syncOn(stream);
        DeviceBuffer<Short> outHalf =
            DeviceBuffer.zeros(ElementType.F16, expected.length).syncOn(stream)) {
      actual =
          EncoderKernels.attention(q, m, out, batch, length, HEADS, HEAD_SIZE)
              .andThen(out.toFloatArray())
              .syncOn(stream);
      actualHalf =
          EncoderKernels.attentionHalf(q, m, outHalf, batch, length, HEADS, HEAD_SIZE, false)
              .andThen(outHalf.toShortArray())
              .syncOn(stream);
      actualShort =
          outHalf
              .fill((short) 0)
              .andThen(
                  EncoderKernels.attentionHalfShort(
                      q, m, outHalf, batch, length, HEADS, HEAD_SIZE, false))
              .andThen(outHalf.toShortArray())
              .syncOn(stream);
    }
    assertElements("attention", expected, actual, e -> 1e-5);
    assertElements("attention_half", floats(expectedHalf), floats(actualHalf), e -> 4e-3);
    assertElements("attention_half_short", floats(expectedShort), floats(actualShort), e -> 4e-3);
    for (int i = 2 * length * HIDDEN; i < expected.length; i++) {
      assertEquals(0f, actual[i], "the sequence whose mask keeps nothing gets zeros");
    }
  }

  @ParameterizedTest(name = "length {0}, heads of {1}")
  @CsvSource({"1, 32", "16, 32", "37, 32", "48, 32", "64, 64", "100, 32", "128, 32", "128, 64"})
  void attentionOnTheTensorCoresIsItsReferenceUpToTheRoundingOfItsWeightsAndWritesNoOtherRow(
      int length, int headSize) {
    CudaPlatform platform = gpu();
    int batch = 3, heads = HIDDEN / headSize, beyond = 5;
    Random random = new Random(31L * length + headSize);
    float[] qkv = gaussians(random, batch * length * 3 * HIDDEN, 1.5);
    // Sequence 0 keeps every token, sequence 1 its first half or so, sequence 2 nothing.
    int[] mask = new int[batch * length];
    for (int t = 0; t < length; t++) {
      mask[t] = 1;
      mask[length + t] = t <= length / 2 ? 1 : 0;
    }
    float scale = (float) (1 / Math.sqrt(headSize));
    short[] before = new short[batch * length * HIDDEN + beyond];
    Arrays.fill(before, Float.floatToFloat16(777f));
    short[] expected = before.clone();
    LaunchConfig launch = EncoderKernels.attentionTilesLaunch(batch, length, heads, headSize);
    EncoderKernels.ATTENTION_HALF_TILES.runReference(
        launch, qkv, mask, expected, batch, length, heads, headSize, scale);
    // The same rows in fp16: the kernel that reads them has the same reference.
    short[] halfQkv = new short[qkv.length];
    for (int i = 0; i < qkv.length; i++) {
      halfQkv[i] = Float.floatToFloat16(qkv[i]);
    }
    short[] expectedFromHalves = before.clone();
    EncoderKernels.ATTENTION_HALF_TILES_HALF_QKV.runReference(
        launch, halfQkv, mask, expectedFromHalves, batch, length, heads, headSize, scale);
    assertArrayEquals(expected, expectedFromHalves, "the references over fp32 and fp16 rows");
    short[] actual, actualFromHalves;
    try (Stream stream = platform.defaultDevice().newStream();
        DeviceBuffer<Float> q = DeviceBuffer.fromArray(qkv).syncOn(stream);
        DeviceBuffer<Short> qHalf =
            DeviceBuffer.fromArray(ElementType.F16, halfQkv).syncOn(stream);
        DeviceBuffer<Integer> m = DeviceBuffer.fromArray(mask).syncOn(stream);
        DeviceBuffer<Short> out = DeviceBuffer.fromArray(ElementType.F16, before).syncOn(stream);
        DeviceBuffer<Short> outFromHalves =
            DeviceBuffer.fromArray(ElementType.F16, before).syncOn(stream)) {
      actual =
          EncoderKernels.attentionHalfTiles(q, m, out, batch, length, heads, headSize, false)
              .andThen(out.toShortArray())
              .syncOn(stream);
      actualFromHalves =
          EncoderKernels.attentionHalfTilesHalfQkv(
                  qHalf, m, outFromHalves, batch, length, heads, headSize, false)
              .andThen(outFromHalves.toShortArray())
              .syncOn(stream);
    }
    assertArrayEquals(actual, actualFromHalves, "the kernel over fp32 rows and over fp16 rows");
    // A weight P_j the GPU rounds the other way (its exp and sums are fp32, the reference's
    // double) moves the output by an fp16 unit of P_j times |V_j|: at most (2^-11 + length
    // 2^-24) max |V| with the fp32 scores' own error (1e-4 of a weight), plus an fp16 unit of
    // the output.
    float[] e = floats(expected), got = floats(actual);
    int hidden = heads * headSize;
    for (int b = 0; b < batch; b++) {
      for (int h = 0; h < heads; h++) {
        for (int d = 0; d < headSize; d++) {
          double largest = 0;
          for (int j = 0; j < length; j++) {
            float v = qkv[(b * length + j) * 3 * hidden + 2 * hidden + h * headSize + d];
            largest = Math.max(largest, Math.abs(v));
          }
          for (int t = 0; t < length; t++) {
            int i = (b * length + t) * hidden + h * headSize + d;
            double tolerance = largest * (0x1p-11 + 1e-4 + length * 0x1p-24) + halfUlp(e[i]);
            assertWithin("attention_half_tiles", i, e[i], got[i], tolerance);
          }
        }
      }
    }
    for (int i = 2 * length * HIDDEN; i < batch * length * HIDDEN; i++) {
      assertEquals(0f, got[i], "the sequence whose mask keeps nothing gets zeros");
    }
    for (int i = batch * length * HIDDEN; i < actual.length; i++) {
      assertEquals(777f, got[i], "element " + i + " is past the rows");
    }
  }

  @Test
  void attentionOnTheTensorCoresLaunchedWithTooFewWarpsWritesNanOverItsRowsOnBothSides() {
    CudaPlatform platform = gpu();
    int length = 40; // three warps' queries
    float[] qkv = gaussians(new Random(3607), length * 3 * HIDDEN, 1);
    int[] mask = new int[length];
    Arrays.fill(mask, 1);
    LaunchConfig twoWarps =
        LaunchConfig.of(cuda.graph.Dim3.of(HEADS, 1), cuda.graph.Dim3.of(64))
            .withSharedMemory(EncoderKernels.attentionTilesBytes(length, HEAD_SIZE));
    float scale = (float) (1 / Math.sqrt(HEAD_SIZE));
    short[] expected = new short[length * HIDDEN];
    EncoderKernels.ATTENTION_HALF_TILES.runReference(
        twoWarps, qkv, mask, expected, 1, length, HEADS, HEAD_SIZE, scale);
    short[] actual;
    try (Stream stream = platform.defaultDevice().newStream();
        DeviceBuffer<Float> q = DeviceBuffer.fromArray(qkv).syncOn(stream);
        DeviceBuffer<Integer> m = DeviceBuffer.fromArray(mask).syncOn(stream);
        DeviceBuffer<Short> out =
            DeviceBuffer.zeros(ElementType.F16, length * HIDDEN).syncOn(stream)) {
      actual =
          EncoderKernels.ATTENTION_HALF_TILES
              .launch(twoWarps, q, m, out, 1, length, HEADS, HEAD_SIZE, scale)
              .andThen(out.toShortArray())
              .syncOn(stream);
    }
    for (int i = 0; i < actual.length; i++) {
      assertTrue(Float.isNaN(Float.float16ToFloat(expected[i])), "the reference's element " + i);
      assertTrue(Float.isNaN(Float.float16ToFloat(actual[i])), "the kernel's element " + i);
    }
  }

  @Test
  void geluOnTheGpuIsItsReferenceForEveryElementOfAGridStrideLaunchAndWritesNoFurther() {
    CudaPlatform platform = gpu();
    Random random = new Random(3603);
    // More elements than the launch's 4096 blocks of 128 threads: threads take two or more.
    int n = 4096 * BLOCK + 75_001, beyond = 7;
    float[] x = gaussians(random, n + beyond, 3);
    float[] special = {0f, -0f, 1e-30f, -1e-30f, 10f, -10f, 20f, -20f, 1e4f, -1e4f};
    System.arraycopy(special, 0, x, 0, special.length);
    Arrays.fill(x, n, n + beyond, 12345f);

    float[] expected = x.clone();
    EncoderKernels.GELU.runReference(LaunchConfig.of(4096, BLOCK), expected, (long) n);

    float[] actual;
    try (Stream stream = platform.defaultDevice().newStream();
        DeviceBuffer<Float> buffer = DeviceBuffer.fromArray(x).syncOn(stream)) {
      actual = EncoderKernels.gelu(buffer, n).andThen(buffer.toFloatArray()).syncOn(stream);
    }
    // The tolerance is of each element's input.
    for (int i = 0; i < n; i++) {
      if (!(Math.abs(actual[i] - expected[i]) <= 2e-6 * (1 + Math.abs(x[i])))) {
        fail("gelu(" + x[i] + ") is " + actual[i] + ", its reference " + expected[i]);
      }
    }
    for (int i = n; i < n + beyond; i++) {
      assertEquals(12345f, actual[i], "element " + i + ", past n, is not the kernel's");
    }
  }

  /**
   * The kernel timeline: with the committed PTX nothing is recorded; with the PTX that {@code
   * regenerate.sh --trace} builds first on the class path (QueryBreakdown --trace), each block of
   * the launch between the two trace_to calls records once, and nothing after them.
   */
  @Test
  void aLaunchBetweenTraceToCallsRecordsEachBlockOnlyWhereThePtxIsBuiltToTrace()
      throws java.io.IOException {
    CudaPlatform platform = gpu();
    boolean traced;
    try (var in = EncoderKernels.class.getResourceAsStream("encoder_kernels.ptx")) {
      traced =
          new String(in.readAllBytes(), java.nio.charset.StandardCharsets.US_ASCII)
              .contains("%globaltimer");
    }
    int blocks = 3, capacity = 16;
    long n = 3L * BLOCK;
    long[] words;
    try (Stream stream = platform.defaultDevice().newStream();
        DeviceBuffer<Float> x = DeviceBuffer.fromArray(new float[(int) n]).syncOn(stream);
        DeviceBuffer<Long> buffer =
            DeviceBuffer.zeros(ElementType.I64, KernelTimeline.words(capacity)).syncOn(stream)) {
      LaunchConfig one = LaunchConfig.of(1, 1), grid = LaunchConfig.of(blocks, BLOCK);
      words =
          buffer
              .slice(1, 1)
              .write(new long[] {capacity})
              .andThen(EncoderKernels.TRACE_TO.launch(one, buffer, 1))
              .andThen(EncoderKernels.GELU.launch(grid, x, n))
              .andThen(EncoderKernels.TRACE_TO.launch(one, buffer, 0))
              .andThen(EncoderKernels.GELU.launch(grid, x, n))
              .andThen(buffer.toLongArray())
              .syncOn(stream);
    }

    KernelTimeline timeline = KernelTimeline.read(words);
    if (!traced) {
      assertEquals(0, words[0], "records from the committed PTX");
      return;
    }
    assertEquals(1, timeline.launches().size(), "launches recorded");
    KernelTimeline.Launch launch = timeline.launches().getFirst();
    assertEquals(EncoderKernels.TRACED.indexOf(EncoderKernels.GELU), launch.kernel());
    assertEquals(
        List.of(0L, 1L, 2L),
        launch.blocks().stream().map(KernelTimeline.Block::index).sorted().toList());
    for (KernelTimeline.Block b : launch.blocks()) {
      assertTrue(
          0 < b.startNs() && b.startNs() <= b.waitedNs() && b.waitedNs() <= b.endNs(), b::toString);
    }
  }

  @ParameterizedTest(name = "length {0}, {1} pooling")
  @CsvSource({"1, MEAN", "37, MEAN", "150, MEAN", "1, CLS", "37, CLS", "150, CLS"})
  void poolNormalizeOnTheGpuIsItsReferenceForEverySequenceAndGivesUnitVectorsAndTheirNorms(
      int length, Pooling pooling) {
    CudaPlatform platform = gpu();
    Random random = new Random(3604 + length);
    int batch = 5;
    // Hidden states of a few units, some dimensions larger and offset, as a model's are.
    float[] x = new float[batch * length * HIDDEN];
    for (int r = 0; r < batch * length; r++) {
      for (int i = 0; i < HIDDEN; i++) {
        x[r * HIDDEN + i] =
            (float) ((i % 50 == 0 ? 8 : 1) * random.nextGaussian() + (i % 7 == 0 ? 3 : 0));
      }
    }
    // Every token, the first half, the first alone, none (batch padding), a mask with holes.
    int[] mask = new int[batch * length];
    for (int t = 0; t < length; t++) {
      mask[t] = 1;
      mask[length + t] = t <= length / 2 ? 1 : 0;
      mask[2 * length + t] = t == 0 ? 1 : 0;
      mask[4 * length + t] = t % 3 == 0 ? 1 : 0;
    }
    int cls = pooling == Pooling.CLS ? 1 : 0;
    float[] expected = new float[batch * HIDDEN];
    float[] expectedNorms = new float[batch];
    EncoderKernels.POOL_NORMALIZE.runReference(
        LaunchConfig.of(batch, BLOCK),
        x,
        mask,
        expected,
        expectedNorms,
        batch,
        length,
        HIDDEN,
        cls);

    float[] actual, actualNorms;
    try (Stream stream = platform.defaultDevice().newStream();
        DeviceBuffer<Float> xBuffer = DeviceBuffer.fromArray(x).syncOn(stream);
        DeviceBuffer<Integer> maskBuffer = DeviceBuffer.fromArray(mask).syncOn(stream);
        DeviceBuffer<Float> out =
            DeviceBuffer.zeros(ElementType.F32, batch * HIDDEN).syncOn(stream);
        DeviceBuffer<Float> norms = DeviceBuffer.zeros(ElementType.F32, batch).syncOn(stream)) {
      actual =
          EncoderKernels.poolNormalize(
                  xBuffer, maskBuffer, out, norms, batch, length, HIDDEN, pooling, false)
              .andThen(out.toFloatArray())
              .syncOn(stream);
      actualNorms = norms.toFloatArray().syncOn(stream);
    }
    assertElements("pool_normalize", expected, actual, e -> 1e-6);
    assertElements("pool_normalize's norms", expectedNorms, actualNorms, e -> 1e-5 * e + 1e-30);
    for (int b = 0; b < batch; b++) {
      float[] row = Arrays.copyOfRange(actual, b * HIDDEN, (b + 1) * HIDDEN);
      double norm = MiniLm.norm(row);
      if (b == 3) {
        assertEquals(0, norm, "the sequence whose mask keeps nothing gets zeros");
        assertEquals(0f, actualNorms[b], "and norm 0");
      } else {
        int s = b;
        assertTrue(Math.abs(norm - 1) <= 1e-5, () -> "the norm of sequence " + s + ": " + norm);
        assertTrue(actualNorms[b] > 1, () -> "the pooled norm of sequence " + s);
      }
    }
  }

  /** fp16 values of {@code n} gaussians of {@code scale}, as their bits. */
  private static short[] halfGaussians(Random random, int n, double scale) {
    short[] v = new short[n];
    for (int i = 0; i < n; i++) {
      v[i] = Float.floatToFloat16((float) (scale * random.nextGaussian()));
    }
    return v;
  }

  @ParameterizedTest(name = "{0} rows of {1}: {2}")
  @CsvSource({
    "1, 384, BIAS",
    "7, 384, BIAS",
    "32, 384, BIAS",
    "1, 384, RESIDUAL",
    "19, 384, RESIDUAL",
    "32, 1536, RESIDUAL",
    "3, 1536, RESIDUAL",
    "1, 384, GELU",
    "32, 384, GELU",
    "24, 1024, GELU",
    "5, 384, GELU",
    "40, 384, BIAS",
    "33, 384, BIAS",
    "64, 1536, RESIDUAL",
    "100, 384, GELU",
    "72, 1024, GELU"
  })
  void queryProductsOnTheGpuAreTheirReferenceForEveryElementAndWriteNoOtherRow(
      int rows, int k, EncoderKernels.QueryEpilogue epilogue) {
    CudaPlatform platform = gpu();
    Random random = new Random(3605L * rows + k + epilogue.ordinal());
    boolean gelu = epilogue == EncoderKernels.QueryEpilogue.GELU;
    // The widths of all-MiniLM's products: Q | K | V 1,152, the hidden 384, the inner 1,536.
    int n =
        switch (epilogue) {
          case BIAS -> 3 * HIDDEN;
          case RESIDUAL -> HIDDEN;
          case GELU -> 4 * HIDDEN;
        };
    int columns =
        switch (epilogue) {
          case BIAS -> EncoderKernels.QUERY_BIAS_COLUMNS;
          case RESIDUAL -> EncoderKernels.QUERY_RESIDUAL_COLUMNS;
          case GELU -> EncoderKernels.QUERY_GELU_COLUMNS;
        };
    int allRows = rows + 2; // rows past `rows` must keep what they hold
    short[] a = halfGaussians(random, allRows * k, 1);
    short[] w = halfGaussians(random, k * n, 1 / Math.sqrt(k));
    float[] bias = gaussians(random, n, 0.1);
    short[] halfBias = new short[n];
    for (int c = 0; c < n; c++) {
      halfBias[c] = Float.floatToFloat16(bias[c]);
    }
    float[] residual = gaussians(random, allRows * n, 1);
    float[] before = gaussians(random, allRows * n, 1);
    short[] halfBefore = new short[allRows * n];
    Arrays.fill(halfBefore, Float.floatToFloat16(12345f));

    Kernel kernel =
        switch (epilogue) {
          case BIAS -> EncoderKernels.QUERY_LINEAR_BIAS;
          case RESIDUAL -> EncoderKernels.QUERY_LINEAR_RESIDUAL;
          case GELU -> EncoderKernels.QUERY_LINEAR_GELU_HALF;
        };
    // The launch the encoder makes: a block row for each 32 rows.
    LaunchConfig launch =
        new LaunchConfig(
                cuda.graph.Dim3.of(
                    n / columns,
                    (rows + EncoderKernels.QUERY_ROWS - 1) / EncoderKernels.QUERY_ROWS),
                cuda.graph.Dim3.of(EncoderKernels.QUERY_BLOCK),
                0)
            .withSharedMemory(EncoderKernels.queryLinearBytes(columns, k));
    float[] expected = before.clone();
    short[] expectedHalf = halfBefore.clone();
    Object out = gelu ? expectedHalf : expected;
    Object biasArgument = gelu ? halfBias : bias;
    Object[] args =
        epilogue == EncoderKernels.QueryEpilogue.RESIDUAL
            ? new Object[] {a, w, bias, residual, out, rows, n, k}
            : new Object[] {a, w, biasArgument, out, rows, n, k};
    kernel.runReference(launch, args);

    float[] actual;
    short[] actualHalf;
    try (Stream stream = platform.defaultDevice().newStream();
        DeviceBuffer<Short> aBuffer = DeviceBuffer.fromArray(ElementType.F16, a).syncOn(stream);
        DeviceBuffer<Short> wBuffer = DeviceBuffer.fromArray(ElementType.F16, w).syncOn(stream);
        DeviceBuffer<Float> biasBuffer = DeviceBuffer.fromArray(bias).syncOn(stream);
        DeviceBuffer<Short> halfBiasBuffer =
            DeviceBuffer.fromArray(ElementType.F16, halfBias).syncOn(stream);
        DeviceBuffer<Float> residualBuffer = DeviceBuffer.fromArray(residual).syncOn(stream);
        DeviceBuffer<Float> outBuffer = DeviceBuffer.fromArray(before).syncOn(stream);
        DeviceBuffer<Short> outHalf =
            DeviceBuffer.fromArray(ElementType.F16, halfBefore).syncOn(stream)) {
      var node =
          switch (epilogue) {
            case BIAS ->
                EncoderKernels.queryLinearBias(aBuffer, wBuffer, biasBuffer, outBuffer, rows, n, k);
            case RESIDUAL ->
                EncoderKernels.queryLinearResidual(
                    aBuffer, wBuffer, biasBuffer, residualBuffer, outBuffer, rows, n, k);
            case GELU ->
                EncoderKernels.queryLinearGeluHalf(
                    aBuffer, wBuffer, halfBiasBuffer, outHalf, rows, n, k);
          };
      node.syncOn(stream);
      actual = outBuffer.toFloatArray().syncOn(stream);
      actualHalf = outHalf.toShortArray().syncOn(stream);
    }
    // Each element's bound: (k + 2) 2^-24 times the magnitudes of what it sums.
    float[] bound = new float[allRows * n];
    for (int r = 0; r < rows; r++) {
      for (int c = 0; c < n; c++) {
        double magnitude = Math.abs(bias[c]);
        if (epilogue == EncoderKernels.QueryEpilogue.RESIDUAL) {
          magnitude += Math.abs(residual[r * n + c]);
        }
        for (int i = 0; i < k; i++) {
          magnitude +=
              Math.abs(Float.float16ToFloat(a[r * k + i]))
                  * Math.abs(Float.float16ToFloat(w[i * n + c]));
        }
        bound[r * n + c] = (float) ((k + 2) * 0x1p-24 * magnitude);
      }
    }
    String what = kernel.name();
    if (gelu) {
      float[] e = floats(expectedHalf), got = floats(actualHalf);
      for (int i = 0; i < e.length; i++) {
        double tolerance =
            i < rows * n
                ? 1.13 * bound[i] + 1e-6 * (1 + Math.abs(e[i])) + halfUlp(e[i])
                : 0; // past the rows: untouched
        assertWithin(what, i, e[i], got[i], tolerance);
      }
      assertArrayEquals(before, actual, "the fp32 buffer it was not given");
    } else {
      for (int i = 0; i < expected.length; i++) {
        assertWithin(what, i, expected[i], actual[i], bound[i]);
      }
      for (int i = rows * n; i < expected.length; i++) {
        assertEquals(before[i], actual[i], what + ": element " + i + " is past the rows");
      }
    }
  }

  private static void assertWithin(
      String what, int i, float expected, float actual, double tolerance) {
    if (!(Math.abs(actual - expected) <= tolerance)) {
      fail(
          what
              + ": element "
              + i
              + " is "
              + actual
              + ", its reference "
              + expected
              + " (tolerance "
              + tolerance
              + ")");
    }
  }

  @Test
  void aQueryProductLaunchedWithAnotherBlockWritesNanOverItsBlocksRowsOnBothSides() {
    CudaPlatform platform = gpu();
    Random random = new Random(3606);
    int rows = EncoderKernels.QUERY_ROWS + 8, k = 64, n = 32;
    short[] a = halfGaussians(random, rows * k, 1);
    short[] w = halfGaussians(random, k * n, 0.1);
    float[] bias = new float[n];
    float[] expected = new float[rows * n];
    // Blocks of 128 threads where the kernel takes 256, one block row: NaN over rows 0 to 31.
    LaunchConfig launch =
        LaunchConfig.of(1, BLOCK).withSharedMemory(EncoderKernels.queryLinearBytes(32, k));
    EncoderKernels.QUERY_LINEAR_BIAS.runReference(launch, a, w, bias, expected, rows, n, k);
    float[] actual;
    try (Stream stream = platform.defaultDevice().newStream();
        DeviceBuffer<Short> aBuffer = DeviceBuffer.fromArray(ElementType.F16, a).syncOn(stream);
        DeviceBuffer<Short> wBuffer = DeviceBuffer.fromArray(ElementType.F16, w).syncOn(stream);
        DeviceBuffer<Float> biasBuffer = DeviceBuffer.fromArray(bias).syncOn(stream);
        DeviceBuffer<Float> out = DeviceBuffer.zeros(ElementType.F32, rows * n).syncOn(stream)) {
      actual =
          EncoderKernels.QUERY_LINEAR_BIAS
              .launch(launch, aBuffer, wBuffer, biasBuffer, out, rows, n, k)
              .andThen(out.toFloatArray())
              .syncOn(stream);
    }
    for (int i = 0; i < rows * n; i++) {
      boolean nan = i < EncoderKernels.QUERY_ROWS * n;
      assertEquals(nan, Float.isNaN(expected[i]), "the reference's element " + i);
      assertEquals(nan, Float.isNaN(actual[i]), "the kernel's element " + i);
      if (!nan) {
        assertEquals(0f, actual[i], "element " + i + " is in no block's rows");
      }
    }
  }

  @ParameterizedTest(name = "{0} rows of {1}")
  @CsvSource({
    "1, 384",
    "16, 384",
    "17, 384",
    "32, 384",
    "64, 384",
    "33, 384",
    "100, 384",
    "3, 1536",
    "32, 1536",
    "64, 1536"
  })
  void theProductWithItsLayerNormOnTheGpuIsItsReferenceThroughTheNormAndWritesNoOtherRow(
      int rows, int k) {
    CudaPlatform platform = gpu();
    Random random = new Random(3607L * rows + k);
    int n = HIDDEN, allRows = rows + 2; // rows past `rows` must keep what they hold
    short[] a = halfGaussians(random, allRows * k, 1);
    short[] w = halfGaussians(random, k * n, 1 / Math.sqrt(k));
    float[] bias = gaussians(random, n, 0.1);
    float[] gamma = uniforms(random, n, 0.5, 1.5);
    float[] beta = gaussians(random, n, 0.1);
    float[] residual = gaussians(random, allRows * n, 1);
    short[] halfBefore = new short[allRows * n];
    Arrays.fill(halfBefore, Float.floatToFloat16(12345f));
    LaunchConfig launch = EncoderKernels.queryNormLaunch(rows, k);
    float[] expected = residual.clone();
    short[] expectedHalf = halfBefore.clone();
    // In place, as the encoder runs it: the residual stream is the output.
    Kernel kernel = EncoderKernels.queryNormKernel(k); // bands of 32 rows at 384, 16 at 1,536
    kernel.runReference(
        launch, a, w, bias, expected, gamma, beta, expected, expectedHalf, rows, n, k, EPS);

    float[] actual;
    short[] actualHalf;
    try (Stream stream = platform.defaultDevice().newStream();
        DeviceBuffer<Short> aBuffer = DeviceBuffer.fromArray(ElementType.F16, a).syncOn(stream);
        DeviceBuffer<Short> wBuffer = DeviceBuffer.fromArray(ElementType.F16, w).syncOn(stream);
        DeviceBuffer<Float> biasBuffer = DeviceBuffer.fromArray(bias).syncOn(stream);
        DeviceBuffer<Float> gammaBuffer = DeviceBuffer.fromArray(gamma).syncOn(stream);
        DeviceBuffer<Float> betaBuffer = DeviceBuffer.fromArray(beta).syncOn(stream);
        DeviceBuffer<Float> x = DeviceBuffer.fromArray(residual).syncOn(stream);
        DeviceBuffer<Short> xHalf =
            DeviceBuffer.fromArray(ElementType.F16, halfBefore).syncOn(stream)) {
      EncoderKernels.queryLinearResidualNorm(
              aBuffer, wBuffer, biasBuffer, x, gammaBuffer, betaBuffer, x, xHalf, rows, k, EPS)
          .syncOn(stream);
      actual = x.toFloatArray().syncOn(stream);
      actualHalf = xHalf.toShortArray().syncOn(stream);
    }
    String what = kernel.name();
    for (int r = 0; r < rows; r++) {
      // The row's sums in double, their bound, and its inverse deviation.
      double[] sum = new double[n];
      double largest = 0, mean = 0;
      for (int c = 0; c < n; c++) {
        double magnitude = Math.abs(bias[c]) + Math.abs(residual[r * n + c]), product = 0;
        for (int i = 0; i < k; i++) {
          double term =
              (double) Float.float16ToFloat(a[r * k + i]) * Float.float16ToFloat(w[i * n + c]);
          product += term;
          magnitude += Math.abs(term);
        }
        sum[c] = residual[r * n + c] + product + bias[c];
        mean += sum[c] / n;
        largest = Math.max(largest, (k + 2) * 0x1p-24 * magnitude);
      }
      double variance = 0;
      for (int c = 0; c < n; c++) {
        variance += (sum[c] - mean) * (sum[c] - mean) / n;
      }
      double s = 1 / Math.sqrt(variance + EPS);
      for (int c = 0; c < n; c++) {
        int at = r * n + c;
        double normalised = (sum[c] - mean) * s;
        double tolerance =
            2 * Math.abs(gamma[c]) * s * (2 * largest + 2 * largest * s * Math.abs(normalised))
                + 1e-5 * (1 + Math.abs(expected[at]));
        assertWithin(what, at, expected[at], actual[at], tolerance);
        float e = Float.float16ToFloat(expectedHalf[at]);
        assertWithin(
            what + " in fp16", at, e, Float.float16ToFloat(actualHalf[at]), tolerance + halfUlp(e));
      }
    }
    for (int at = rows * n; at < allRows * n; at++) {
      assertEquals(residual[at], actual[at], what + ": element " + at + " is past the rows");
      assertEquals(halfBefore[at], actualHalf[at], what + ": fp16 element " + at + " is past them");
    }
  }

  @ParameterizedTest(name = "rows of {0}")
  @ValueSource(ints = {128, 1536})
  void theProductWithItsLayerNormLaunchedWithAnotherBlockWritesNanOverItsRowsOnBothSides(int k) {
    CudaPlatform platform = gpu();
    Random random = new Random(3608);
    int rows = 20, n = HIDDEN;
    Kernel kernel = EncoderKernels.queryNormKernel(k);
    short[] a = halfGaussians(random, rows * k, 1);
    short[] w = halfGaussians(random, k * n, 0.1);
    float[] ones = new float[n];
    Arrays.fill(ones, 1f);
    // The cluster's grid, one band (all 20 rows at k = 128, 16 of them at 1,536), blocks of 256
    // threads where the kernel takes 384.
    LaunchConfig own = EncoderKernels.queryNormLaunch(16, k);
    LaunchConfig launch =
        new LaunchConfig(
            own.grid(), cuda.graph.Dim3.of(EncoderKernels.QUERY_BLOCK), own.sharedMemoryBytes());
    float[] expected = new float[rows * n];
    short[] expectedHalf = new short[rows * n];
    kernel.runReference(
        launch, a, w, ones, expected, ones, ones, expected, expectedHalf, rows, n, k, EPS);
    float[] actual;
    short[] actualHalf;
    try (Stream stream = platform.defaultDevice().newStream();
        DeviceBuffer<Short> aBuffer = DeviceBuffer.fromArray(ElementType.F16, a).syncOn(stream);
        DeviceBuffer<Short> wBuffer = DeviceBuffer.fromArray(ElementType.F16, w).syncOn(stream);
        DeviceBuffer<Float> vector = DeviceBuffer.fromArray(ones).syncOn(stream);
        DeviceBuffer<Float> x = DeviceBuffer.zeros(ElementType.F32, rows * n).syncOn(stream);
        DeviceBuffer<Short> xHalf = DeviceBuffer.zeros(ElementType.F16, rows * n).syncOn(stream)) {
      kernel
          .launch(launch, aBuffer, wBuffer, vector, x, vector, vector, x, xHalf, rows, n, k, EPS)
          .syncOn(stream);
      actual = x.toFloatArray().syncOn(stream);
      actualHalf = xHalf.toShortArray().syncOn(stream);
    }
    for (int i = 0; i < rows * n; i++) {
      boolean nan = i < Math.min(rows, EncoderKernels.queryNormRows(k)) * n;
      assertEquals(nan, Float.isNaN(expected[i]), "the reference's element " + i);
      assertEquals(nan, Float.isNaN(actual[i]), "the kernel's element " + i);
      assertEquals(nan, Float.isNaN(Float.float16ToFloat(actualHalf[i])), "its fp16 element " + i);
      if (!nan) {
        assertEquals(0f, actual[i], "element " + i + " is in no block's rows");
      }
    }
  }
}
