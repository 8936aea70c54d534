// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 the cuda-graph authors
package cuda.graph.nccl.internal.simulated;

import cuda.graph.ElementType;
import cuda.graph.nccl.ReduceOp;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;

/**
 * Element-wise reductions over the ranks' inputs, in rank order, each step rounded to the element
 * type (as a ring over the ranks in order would).
 */
final class Reductions {

  private static final ValueLayout.OfFloat F32 = ValueLayout.JAVA_FLOAT_UNALIGNED;
  private static final ValueLayout.OfDouble F64 = ValueLayout.JAVA_DOUBLE_UNALIGNED;
  private static final ValueLayout.OfShort I16 = ValueLayout.JAVA_SHORT_UNALIGNED;
  private static final ValueLayout.OfInt I32 = ValueLayout.JAVA_INT_UNALIGNED;
  private static final ValueLayout.OfLong I64 = ValueLayout.JAVA_LONG_UNALIGNED;

  private Reductions() {}

  /**
   * {@return the reduction of {@code count} elements of each input, starting at element {@code
   * first}}
   */
  static byte[] reduce(ElementType<?> type, ReduceOp op, byte[][] inputs, long first, long count) {
    int size = type.byteSize();
    byte[] out = new byte[Math.toIntExact(count * size)];
    MemorySegment result = MemorySegment.ofArray(out);
    MemorySegment.copy(MemorySegment.ofArray(inputs[0]), first * size, result, 0, count * size);
    for (int r = 1; r < inputs.length; r++) {
      MemorySegment in = MemorySegment.ofArray(inputs[r]).asSlice(first * size, count * size);
      for (long i = 0; i < count; i++) {
        combine(type, op, result, in, i * size);
      }
    }
    if (op == ReduceOp.AVERAGE) {
      for (long i = 0; i < count; i++) {
        divide(type, result, i * size, inputs.length);
      }
    }
    return out;
  }

  private static void combine(
      ElementType<?> type, ReduceOp op, MemorySegment acc, MemorySegment in, long at) {
    if (type == ElementType.F32) {
      acc.set(F32, at, (float) apply(op, acc.get(F32, at), in.get(F32, at)));
    } else if (type == ElementType.F64) {
      acc.set(F64, at, apply(op, acc.get(F64, at), in.get(F64, at)));
    } else if (type == ElementType.F16) {
      float a = Float.float16ToFloat(acc.get(I16, at));
      float b = Float.float16ToFloat(in.get(I16, at));
      acc.set(I16, at, Float.floatToFloat16((float) apply(op, a, b)));
    } else if (type == ElementType.BF16) {
      float a = bf16ToFloat(acc.get(I16, at));
      float b = bf16ToFloat(in.get(I16, at));
      acc.set(I16, at, floatToBf16((float) apply(op, a, b)));
    } else if (type == ElementType.I8) {
      acc.set(
          ValueLayout.JAVA_BYTE,
          at,
          (byte) apply(op, acc.get(ValueLayout.JAVA_BYTE, at), in.get(ValueLayout.JAVA_BYTE, at)));
    } else if (type == ElementType.I32) {
      acc.set(I32, at, (int) apply(op, acc.get(I32, at), in.get(I32, at)));
    } else if (type == ElementType.I64) {
      acc.set(I64, at, apply(op, acc.get(I64, at), in.get(I64, at)));
    } else {
      throw new IllegalArgumentException("no reduction over " + type);
    }
  }

  private static double apply(ReduceOp op, double a, double b) {
    return switch (op) {
      case SUM, AVERAGE -> a + b;
      case PRODUCT -> a * b;
      case MAX -> Math.max(a, b);
      case MIN -> Math.min(a, b);
    };
  }

  private static long apply(ReduceOp op, long a, long b) {
    return switch (op) {
      case SUM, AVERAGE -> a + b;
      case PRODUCT -> a * b;
      case MAX -> Math.max(a, b);
      case MIN -> Math.min(a, b);
    };
  }

  private static void divide(ElementType<?> type, MemorySegment acc, long at, int n) {
    if (type == ElementType.F32) {
      acc.set(F32, at, acc.get(F32, at) / n);
    } else if (type == ElementType.F64) {
      acc.set(F64, at, acc.get(F64, at) / n);
    } else if (type == ElementType.F16) {
      acc.set(I16, at, Float.floatToFloat16(Float.float16ToFloat(acc.get(I16, at)) / n));
    } else if (type == ElementType.BF16) {
      acc.set(I16, at, floatToBf16(bf16ToFloat(acc.get(I16, at)) / n));
    } else if (type == ElementType.I8) {
      acc.set(ValueLayout.JAVA_BYTE, at, (byte) (acc.get(ValueLayout.JAVA_BYTE, at) / n));
    } else if (type == ElementType.I32) {
      acc.set(I32, at, acc.get(I32, at) / n);
    } else {
      acc.set(I64, at, acc.get(I64, at) / n);
    }
  }

  static float bf16ToFloat(short bits) {
    return Float.intBitsToFloat((bits & 0xffff) << 16);
  }

  /** Rounds to nearest even, as the device's conversion does; NaN stays NaN. */
  static short floatToBf16(float value) {
    int bits = Float.floatToRawIntBits(value);
    if (Float.isNaN(value)) {
      return (short) ((bits >>> 16) | 0x40);
    }
    int rounding = 0x7fff + ((bits >>> 16) & 1);
    return (short) ((bits + rounding) >>> 16);
  }
}
