// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 the cuda-graph authors
package cuda.graph.llm.internal.engine;

import cuda.graph.ElementType;
import cuda.graph.llm.internal.checkpoint.DType;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;

/**
 * The element types the engine computes in, on memory segments: reading a value of a {@link DType}
 * as a float (exact) and storing a float rounded to it (to nearest, ties to even, as CUDA's {@code
 * __float2half_rn} and {@code __float2bfloat16_rn}).
 */
public final class Numerics {

  private static final ValueLayout.OfFloat F = ValueLayout.JAVA_FLOAT_UNALIGNED;
  private static final ValueLayout.OfShort H = ValueLayout.JAVA_SHORT_UNALIGNED;

  private Numerics() {}

  /** {@return the library's element type of {@code type}} */
  public static ElementType<?> elementType(DType type) {
    return switch (type) {
      case F32 -> ElementType.F32;
      case F16 -> ElementType.F16;
      case BF16 -> ElementType.BF16;
    };
  }

  /** {@return the value of bf16 bits {@code bits}, exactly} */
  public static float bf16ToFloat(short bits) {
    return Float.intBitsToFloat((bits & 0xffff) << 16);
  }

  /** {@return the bf16 bits nearest {@code x}, ties to even; NaN stays a quiet NaN} */
  public static short floatToBf16(float x) {
    int b = Float.floatToRawIntBits(x);
    if (Float.isNaN(x)) {
      return (short) ((b >>> 16) | 0x0040);
    }
    int rounded = b + 0x7fff + ((b >>> 16) & 1);
    return (short) (rounded >>> 16);
  }

  /** {@return {@code x} rounded to {@code type} and widened back} */
  public static float round(DType type, float x) {
    return switch (type) {
      case F32 -> x;
      case F16 -> Float.float16ToFloat(Float.floatToFloat16(x));
      case BF16 -> bf16ToFloat(floatToBf16(x));
    };
  }

  /** {@return element {@code index} of {@code m}, which holds {@code type}, as a float} */
  public static float get(DType type, MemorySegment m, long index) {
    return switch (type) {
      case F32 -> m.getAtIndex(F, index);
      case F16 -> Float.float16ToFloat(m.getAtIndex(H, index));
      case BF16 -> bf16ToFloat(m.getAtIndex(H, index));
    };
  }

  /** Stores {@code value} rounded to {@code type} as element {@code index} of {@code m}. */
  public static void set(DType type, MemorySegment m, long index, float value) {
    switch (type) {
      case F32 -> m.setAtIndex(F, index, value);
      case F16 -> m.setAtIndex(H, index, Float.floatToFloat16(value));
      case BF16 -> m.setAtIndex(H, index, floatToBf16(value));
    }
  }

  /** {@return {@code values} rounded to {@code type}, in a heap segment of its encoding} */
  public static MemorySegment encode(DType type, float[] values) {
    MemorySegment m = MemorySegment.ofArray(new byte[values.length * type.bytes()]);
    for (int i = 0; i < values.length; i++) {
      set(type, m, i, values[i]);
    }
    return m;
  }

  /** {@return the {@code count} values of {@code type} in {@code m} from {@code from}, widened} */
  public static float[] decode(DType type, MemorySegment m, long from, int count) {
    float[] out = new float[count];
    for (int i = 0; i < count; i++) {
      out[i] = get(type, m, from + i);
    }
    return out;
  }
}
