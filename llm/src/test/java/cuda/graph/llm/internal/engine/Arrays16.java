// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 the cuda-graph authors
package cuda.graph.llm.internal.engine;

import cuda.graph.llm.internal.checkpoint.DType;
import java.lang.foreign.MemorySegment;
import java.util.Random;

/** Java arrays holding a {@link DType}'s values, as the kernels' references take them. */
final class Arrays16 {

  private Arrays16() {}

  /** {@return {@code values} rounded to {@code type}: a float[] for fp32, else a short[]} */
  static Object of(DType type, float[] values) {
    if (type == DType.F32) {
      return values.clone();
    }
    MemorySegment m = Numerics.encode(type, values);
    short[] out = new short[values.length];
    MemorySegment.copy(
        m, java.lang.foreign.ValueLayout.JAVA_SHORT_UNALIGNED, 0, out, 0, out.length);
    return out;
  }

  /** {@return the values of an array {@link #of} made, widened} */
  static float[] values(DType type, Object array) {
    if (array instanceof float[] f) {
      return f.clone();
    }
    short[] s = (short[]) array;
    return Numerics.decode(type, MemorySegment.ofArray(s), 0, s.length);
  }

  /** {@return {@code n} values of a normal distribution, rounded to {@code type}} */
  static float[] gaussian(Random random, DType type, int n, double scale) {
    float[] v = new float[n];
    for (int i = 0; i < n; i++) {
      v[i] = Numerics.round(type, (float) (scale * random.nextGaussian()));
    }
    return v;
  }

  /** {@return the spacing of {@code type}'s values at {@code x}: one unit in the last place} */
  static float ulp(DType type, float x) {
    float a = Math.max(Math.abs(x), Float.MIN_NORMAL);
    return switch (type) {
      case F32 -> Math.ulp(a);
      case F16 -> Math.max(Math.ulp(a) * (1 << 13), 0x1p-24f);
      case BF16 -> Math.ulp(a) * (1 << 16);
    };
  }
}
