// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 the cuda-graph authors
package cuda.graph.examples.embed;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import cuda.graph.CudaPlatform;
import cuda.graph.DeviceBuffer;
import cuda.graph.Stream;
import java.util.Random;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * The CUDA attention kernels give what their Java references give (what the simulator runs), at
 * lengths of one, two and three key tiles, with padding and a sequence whose mask keeps nothing.
 * Skipped only where the system platform is not the cuda provider (no GPU).
 */
@Tag("gpu")
class EncoderKernelsGpuTests {

  private static final int HIDDEN = MiniLmWeights.HIDDEN;
  private static final int HEADS = MiniLmWeights.HEADS;
  private static final int HEAD_SIZE = MiniLmWeights.HEAD_SIZE;

  @ParameterizedTest(name = "length {0}")
  @ValueSource(ints = {1, 11, 64, 65, 128, 150})
  void attentionOnTheGpuIsItsReferenceForEveryQueryHeadAndSequence(int length) {
    CudaPlatform platform = CudaPlatform.system();
    Assumptions.assumeTrue(
        platform.providerId().equals("cuda"),
        "no GPU: the system platform is '" + platform.providerId() + "'");
    int batch = 3;
    Random random = new Random(length);
    float[] qkv = new float[batch * length * 3 * HIDDEN];
    for (int i = 0; i < qkv.length; i++) {
      qkv[i] = (float) random.nextGaussian();
    }
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

    float[] actual;
    short[] actualHalf;
    try (Stream stream = platform.defaultDevice().newStream();
        DeviceBuffer<Float> q = DeviceBuffer.fromArray(qkv).syncOn(stream);
        DeviceBuffer<Integer> m = DeviceBuffer.fromArray(mask).syncOn(stream);
        DeviceBuffer<Float> out =
            DeviceBuffer.zeros(cuda.graph.ElementType.F32, expected.length).syncOn(stream);
        DeviceBuffer<Short> outHalf =
            DeviceBuffer.zeros(cuda.graph.ElementType.F16, expected.length).syncOn(stream)) {
      actual =
          EncoderKernels.attention(q, m, out, batch, length, HEADS, HEAD_SIZE)
              .andThen(out.toFloatArray())
              .syncOn(stream);
      actualHalf =
          EncoderKernels.attentionHalf(q, m, outHalf, batch, length, HEADS, HEAD_SIZE)
              .andThen(outHalf.toShortArray())
              .syncOn(stream);
    }
    double worst = 0, worstHalf = 0;
    for (int i = 0; i < expected.length; i++) {
      worst = Math.max(worst, Math.abs(expected[i] - actual[i]));
      worstHalf =
          Math.max(
              worstHalf,
              Math.abs(
                  Float.float16ToFloat(expectedHalf[i]) - Float.float16ToFloat(actualHalf[i])));
    }
    // fp32 sums in another order than the reference's doubles; fp16 is one rounding apart at most.
    double w = worst, wh = worstHalf;
    assertTrue(w < 1e-5, () -> "largest difference " + w);
    assertTrue(wh < 4e-3, () -> "largest fp16 difference " + wh);
    for (int i = 2 * length * HIDDEN; i < expected.length; i++) {
      assertEquals(0f, actual[i], "the sequence whose mask keeps nothing gets zeros");
    }
  }
}
