// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 the cuda-graph authors
package cuda.graph.blas;

import cuda.graph.DeviceBuffer;
import cuda.graph.ElementType;
import cuda.graph.Stream;
import java.util.Random;

/**
 * Buffers with known contents for the matmul tests, and the plain product they are checked against:
 * every element of the reference is computed in double precision from the values the buffers hold,
 * with a tolerance argued from the rounding the product may do.
 */
final class HostMatrices {

  private HostMatrices() {}

  /** The contents of one device buffer, as the host knows them. */
  record Contents(ElementType<?> type, double[] values) {

    /** {@return a buffer of {@code length} random values of {@code type} in [-2, 2]} */
    static Contents random(ElementType<?> type, int length, Random random) {
      double[] values = new double[length];
      for (int i = 0; i < length; i++) {
        values[i] = representable(type, (float) (random.nextDouble() * 4 - 2));
      }
      return new Contents(type, values);
    }

    /** {@return a copy on the device} */
    DeviceBuffer<?> upload(Stream stream) {
      if (type == ElementType.F32) {
        float[] data = new float[values.length];
        for (int i = 0; i < data.length; i++) {
          data[i] = (float) values[i];
        }
        return DeviceBuffer.fromArray(data).syncOn(stream);
      }
      short[] data = new short[values.length];
      for (int i = 0; i < data.length; i++) {
        data[i] = bits(type, (float) values[i]);
      }
      @SuppressWarnings("unchecked")
      ElementType<Short> shorts = (ElementType<Short>) type;
      return DeviceBuffer.fromArray(shorts, data).syncOn(stream);
    }

    /** {@return what {@code buffer} (of this type) holds now} */
    static double[] download(DeviceBuffer<?> buffer, Stream stream) {
      ElementType<?> type = buffer.elementType();
      if (type == ElementType.F32) {
        float[] data = buffer.toFloatArray().syncOn(stream);
        double[] values = new double[data.length];
        for (int i = 0; i < data.length; i++) {
          values[i] = data[i];
        }
        return values;
      }
      short[] data = buffer.toShortArray().syncOn(stream);
      double[] values = new double[data.length];
      for (int i = 0; i < data.length; i++) {
        values[i] = value(type, data[i]);
      }
      return values;
    }
  }

  /** {@return {@code x} rounded to a value of {@code type}} */
  static double representable(ElementType<?> type, float x) {
    return type == ElementType.F32 ? x : value(type, bits(type, x));
  }

  private static short bits(ElementType<?> type, float x) {
    if (type == ElementType.F16) {
      return Float.floatToFloat16(x);
    }
    // Test inputs are made exact in bf16 by truncation; the model's rounding is tested on its own.
    return (short) (Float.floatToRawIntBits(x) >>> 16);
  }

  private static double value(ElementType<?> type, short bits) {
    return type == ElementType.F16
        ? Float.float16ToFloat(bits)
        : Float.intBitsToFloat((bits & 0xFFFF) << 16);
  }

  /** {@return the index in its buffer of element (r, c) of matrix {@code b} of {@code view}} */
  static long index(MatrixView view, int b, long r, long c) {
    long base = view.offset() + (view.batch() == 1 ? 0 : b * view.stride());
    return base + (view.order() == Order.ROW_MAJOR ? r * view.ld() + c : r + c * view.ld());
  }

  private static double op(MatrixView view, double[] values, int b, long r, long c) {
    return view.transpose()
        ? values[(int) index(view, b, c, r)]
        : values[(int) index(view, b, r, c)];
  }

  /** The reference of one element of D and how far the product may be from it. */
  record Expected(double value, double tolerance) {}

  /**
   * {@return the reference for every element of D, indexed like D's buffer; null where D's buffer
   * is not written}
   *
   * <p>Tolerance: fp32 accumulation of k products with fused multiply-adds, then the scaling by
   * alpha and beta and the bias, errs by at most {@code (k + 4) u S} with {@code u = 2^-24} and
   * {@code S} the sum of the magnitudes of the terms (the products of fp16 and bf16 inputs are
   * exact in fp32); rounding inputs to TF32 adds at most {@code 2^-10} of the products' magnitudes;
   * the activations change an error by at most 1.2 times (the slope of GELU is below 1.13); GELU in
   * fp32 adds a rounding; and the output's rounding adds half an ulp of its type ({@code 2^-11}
   * relative for fp16, {@code 2^-8} for bf16) plus its smallest subnormal. The bound is doubled for
   * margin.
   */
  static Expected[] expected(
      Matmul mm, double[] a, double[] b, double[] c, double[] bias, int dLength) {
    Expected[] out = new Expected[dLength];
    MatrixView d = mm.d();
    boolean hasC = mm.c() != null && mm.beta() != 0;
    double u = 0x1p-24;
    double uOut =
        d.elementType() == ElementType.F32
            ? 0x1p-24
            : d.elementType() == ElementType.F16 ? 0x1p-11 : 0x1p-8;
    double smallest = d.elementType() == ElementType.F16 ? 0x1p-24 : 0x1p-126;
    for (int bb = 0; bb < mm.batch(); bb++) {
      for (int i = 0; i < mm.m(); i++) {
        for (int j = 0; j < mm.n(); j++) {
          double sum = 0;
          double magnitude = 0;
          for (int p = 0; p < mm.k(); p++) {
            double x = op(mm.a(), a, bb, i, p) * op(mm.b(), b, bb, p, j);
            sum += x;
            magnitude += Math.abs(x);
          }
          double x = mm.alpha() * sum;
          double s = Math.abs(mm.alpha()) * magnitude;
          double error = mm.compute() == Compute.TF32 ? 0x1p-10 * s : 0;
          if (hasC) {
            double cv = mm.beta() * c[(int) index(mm.c(), bb, i, j)];
            x += cv;
            s += Math.abs(cv);
          }
          if (mm.epilogue().takesBias()) {
            // Per column of a row-major D, per row of a column-major one.
            double added = bias[d.order() == Order.ROW_MAJOR ? j : i];
            x += added;
            s += Math.abs(added);
          }
          error += (mm.k() + 4) * u * s;
          double y =
              switch (mm.epilogue()) {
                case RELU, BIAS_RELU -> Math.max(x, 0);
                case GELU, BIAS_GELU ->
                    0.5 * x * (1 + Math.tanh(Math.sqrt(2 / Math.PI) * (x + 0.044715 * x * x * x)));
                case NONE, BIAS -> x;
              };
          if (mm.epilogue() != Epilogue.NONE && mm.epilogue() != Epilogue.BIAS) {
            error = 1.2 * error + u * Math.abs(y);
          }
          error += uOut * (Math.abs(y) + error) + smallest;
          out[(int) index(d, bb, i, j)] = new Expected(y, 2 * error);
        }
      }
    }
    return out;
  }
}
