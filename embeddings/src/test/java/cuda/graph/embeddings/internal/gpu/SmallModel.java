// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 the cuda-graph authors
package cuda.graph.embeddings.internal.gpu;

import cuda.graph.DeviceBuffer;
import cuda.graph.ElementType;
import cuda.graph.GraphNode;
import cuda.graph.LaunchConfig;
import cuda.graph.Stream;
import cuda.graph.embeddings.Pooling;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import org.jspecify.annotations.Nullable;

/**
 * Random weights of a small architecture {@code encode_small} takes (rows of 64 in 2 heads of 32,
 * feed-forward activations of 128, 2 layers, 50 ids, 40 positions, 2 types) in the layouts it
 * reads, for its tests: its reference's arguments on the host, and the launch on a device. Values
 * of a trained model's scale: tables of unit spread, each weight matrix of spread {@code 1 /
 * sqrt(in)} (so products keep their inputs' scale), LayerNorm's gamma near 1 and beta near 0.
 */
record SmallModel(
    float[] word,
    float[] position,
    float[] type,
    float[] gamma,
    float[] beta,
    short[] qkv,
    float[] qkvBias,
    short[] attentionOutput,
    float[] attentionOutputBias,
    float[] attentionGamma,
    float[] attentionBeta,
    short[] intermediate,
    float[] intermediateBias,
    short[] output,
    float[] outputBias,
    float[] outputGamma,
    float[] outputBeta) {

  static final int HIDDEN = 64;
  static final int HEADS = 2;
  static final int FFN = 128;
  static final int LAYERS = 2;
  static final int VOCABULARY = 50;
  static final int POSITIONS = 40;
  static final int TYPES = 2;
  static final float EPS = 1e-12f;

  static SmallModel random(long seed) {
    Random r = new Random(seed);
    int h = HIDDEN, f = FFN, l = LAYERS;
    return new SmallModel(
        EncoderKernelsGpuTests.gaussians(r, VOCABULARY * h, 1),
        EncoderKernelsGpuTests.gaussians(r, POSITIONS * h, 1),
        EncoderKernelsGpuTests.gaussians(r, TYPES * h, 1),
        EncoderKernelsGpuTests.uniforms(r, h, 0.5, 1.5),
        EncoderKernelsGpuTests.uniforms(r, h, -0.5, 0.5),
        halves(r, l * h * 3 * h, 1 / Math.sqrt(h)),
        EncoderKernelsGpuTests.uniforms(r, l * 3 * h, -0.1, 0.1),
        halves(r, l * h * h, 1 / Math.sqrt(h)),
        EncoderKernelsGpuTests.uniforms(r, l * h, -0.1, 0.1),
        EncoderKernelsGpuTests.uniforms(r, l * h, 0.5, 1.5),
        EncoderKernelsGpuTests.uniforms(r, l * h, -0.5, 0.5),
        halves(r, l * h * f, 1 / Math.sqrt(h)),
        EncoderKernelsGpuTests.uniforms(r, l * f, -0.1, 0.1),
        halves(r, l * f * h, 1 / Math.sqrt(f)),
        EncoderKernelsGpuTests.uniforms(r, l * h, -0.1, 0.1),
        EncoderKernelsGpuTests.uniforms(r, l * h, 0.5, 1.5),
        EncoderKernelsGpuTests.uniforms(r, l * h, -0.5, 0.5));
  }

  /** {@return the launch encode_small is written for} */
  static LaunchConfig launch() {
    return LaunchConfig.of(
        EncoderKernels.encodeSmallBlocks(LAYERS, HIDDEN, HEADS, FFN),
        EncoderKernels.ENCODE_SMALL_BLOCK);
  }

  /** {@return the ints of the sync buffer} */
  static int syncInts() {
    return EncoderKernels.encodeSmallSyncInts(LAYERS);
  }

  /**
   * {@return the mask of a batch}: sequence 0 keeps all but its last two tokens, a middle sequence
   * every third token from the second (its first, the [CLS] row, masked), the last of two or more
   * nothing (batch padding)
   */
  static int[] mask(int batch, int length) {
    int[] mask = new int[batch * length];
    for (int b = 0; b < batch; b++) {
      for (int t = 0; t < length; t++) {
        boolean keep =
            b == 0 ? t < length - 2 : b < batch - 1 && t % 3 == 1; // the last of 2+: nothing
        mask[b * length + t] = keep ? 1 : 0;
      }
    }
    return mask;
  }

  /** {@return random ids and types for {@code tokens} tokens, ids first} */
  static int[][] tokens(Random random, int tokens) {
    int[] ids = new int[tokens], types = new int[tokens];
    for (int t = 0; t < tokens; t++) {
      ids[t] = random.nextInt(VOCABULARY);
      types[t] = random.nextInt(TYPES);
    }
    return new int[][] {ids, types};
  }

  /**
   * {@return encode_small's arguments for its reference}, with scratch of the rows it takes (filled
   * with {@code scratch}, to see that the reference leaves it) and the sizes of this model
   */
  Object[] arguments(
      int[] ids,
      int[] types,
      int[] mask,
      float[] out,
      float[] norms,
      int[] sync,
      int batch,
      int length,
      Pooling pooling,
      float scratch) {
    int rows = EncoderKernels.encodeSmallRows(Math.max(1, batch * length));
    float[] h = new float[rows * HIDDEN], x = new float[rows * HIDDEN];
    short[] context = new short[rows * HIDDEN], inner = new short[rows * FFN];
    java.util.Arrays.fill(h, scratch);
    java.util.Arrays.fill(x, scratch);
    java.util.Arrays.fill(context, Float.floatToFloat16(scratch));
    java.util.Arrays.fill(inner, Float.floatToFloat16(scratch));
    return new Object[] {
      ids,
      types,
      mask,
      word,
      position,
      type,
      gamma,
      beta,
      qkv,
      qkvBias,
      attentionOutput,
      attentionOutputBias,
      attentionGamma,
      attentionBeta,
      intermediate,
      intermediateBias,
      output,
      outputBias,
      outputGamma,
      outputBeta,
      h,
      x,
      context,
      inner,
      out,
      norms,
      sync,
      batch,
      length,
      LAYERS,
      HIDDEN,
      HEADS,
      FFN,
      VOCABULARY,
      POSITIONS,
      TYPES,
      pooling == Pooling.CLS ? 1 : 0,
      EPS,
      (float) (1 / Math.sqrt(HIDDEN / HEADS))
    };
  }

  /** {@return the model on the device of {@code stream}} */
  OnDevice upload(Stream stream) {
    return new OnDevice(this, stream);
  }

  /** The model's buffers on a device, and the launch of encode_small over them. */
  static final class OnDevice implements AutoCloseable {
    private final List<DeviceBuffer<?>> buffers = new ArrayList<>();
    private final Stream stream;
    final EncoderKernels.Tables tables;
    final EncoderKernels.Stack stack;

    private OnDevice(SmallModel m, Stream stream) {
      this.stream = stream;
      tables =
          new EncoderKernels.Tables(
              floats(m.word),
              floats(m.position),
              floats(m.type),
              floats(m.gamma),
              floats(m.beta),
              EPS);
      stack =
          new EncoderKernels.Stack(
              halves(m.qkv),
              floats(m.qkvBias),
              halves(m.attentionOutput),
              floats(m.attentionOutputBias),
              floats(m.attentionGamma),
              floats(m.attentionBeta),
              halves(m.intermediate),
              floats(m.intermediateBias),
              halves(m.output),
              floats(m.outputBias),
              floats(m.outputGamma),
              floats(m.outputBeta),
              LAYERS);
    }

    /** {@return a zeroed buffer of {@code n} elements, closed with this} */
    <T> DeviceBuffer<T> zeros(ElementType<T> type, long n) {
      return own(DeviceBuffer.zeros(type, n).syncOn(stream));
    }

    /** {@return {@code values} on the device, closed with this} */
    DeviceBuffer<Integer> ints(int[] values) {
      return own(DeviceBuffer.fromArray(values).syncOn(stream));
    }

    DeviceBuffer<Float> floats(float[] values) {
      return own(DeviceBuffer.fromArray(values).syncOn(stream));
    }

    DeviceBuffer<Short> halves(short[] values) {
      return own(DeviceBuffer.fromArray(ElementType.F16, values).syncOn(stream));
    }

    private <T> DeviceBuffer<T> own(DeviceBuffer<T> buffer) {
      buffers.add(buffer);
      return buffer;
    }

    /**
     * {@return encode_small through {@link EncoderKernels#encodeSmall}}, its scratch made here for
     * the batch's rows
     */
    GraphNode<@Nullable Void> encodeSmall(
        DeviceBuffer<Integer> ids,
        DeviceBuffer<Integer> types,
        DeviceBuffer<Integer> mask,
        DeviceBuffer<Float> out,
        DeviceBuffer<Float> norms,
        DeviceBuffer<Integer> sync,
        int batch,
        int length,
        Pooling pooling) {
      int rows = EncoderKernels.encodeSmallRows(batch * length);
      return EncoderKernels.encodeSmall(
          ids,
          types,
          mask,
          tables,
          stack,
          zeros(ElementType.F32, (long) rows * HIDDEN),
          zeros(ElementType.F32, (long) rows * HIDDEN),
          zeros(ElementType.F16, (long) rows * HIDDEN),
          zeros(ElementType.F16, (long) rows * FFN),
          out,
          norms,
          sync,
          batch,
          length,
          HEADS,
          pooling,
          false);
    }

    @Override
    public void close() {
      for (DeviceBuffer<?> b : buffers) {
        b.close();
      }
    }
  }

  private static short[] halves(Random random, int n, double scale) {
    short[] v = new short[n];
    for (int i = 0; i < n; i++) {
      v[i] = Float.floatToFloat16((float) (scale * random.nextGaussian()));
    }
    return v;
  }
}
