// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 the cuda-graph authors
package cuda.graph.blas.internal.simulated;

/**
 * The roundings of cuBLASLt's arithmetic, on fp32 values: to TF32 for tensor-core inputs, and to
 * fp16 and bf16 for outputs. fp16 and bf16 inputs widen to fp32 exactly, and their products are
 * exact in fp32 (11 + 11 and 8 + 8 significant bits fit in 24).
 */
final class Rounding {

  private Rounding() {}

  /**
   * {@return {@code x} rounded to nearest to 10 mantissa bits, ties away from zero} ({@code
   * cvt.rna.tf32.f32}); infinities and NaN pass unchanged
   */
  static float toTf32(float x) {
    if (!Float.isFinite(x)) {
      return x;
    }
    int bits = Float.floatToRawIntBits(x);
    // Adding half of the last kept place to the magnitude and truncating rounds half away from
    // zero; a carry into the exponent is the correct next binade (or infinity).
    return Float.intBitsToFloat((bits + 0x1000) & ~0x1FFF);
  }

  /** {@return the bf16 bits nearest {@code x}, ties to even; NaN stays a (quiet) NaN} */
  static short toBf16(float x) {
    int bits = Float.floatToRawIntBits(x);
    if (Float.isNaN(x)) {
      return (short) ((bits >>> 16) | 0x40);
    }
    int lsb = (bits >>> 16) & 1;
    return (short) ((bits + 0x7FFF + lsb) >>> 16);
  }

  /** {@return the value of bf16 bits {@code bits}, exactly} */
  static float fromBf16(short bits) {
    return Float.intBitsToFloat((bits & 0xFFFF) << 16);
  }

  /** {@return the fp16 bits nearest {@code x}, ties to even} */
  static short toF16(float x) {
    return Float.floatToFloat16(x);
  }

  /** {@return the value of fp16 bits {@code bits}, exactly} */
  static float fromF16(short bits) {
    return Float.float16ToFloat(bits);
  }

  /**
   * {@return GELU of {@code x}, tanh approximation, as cuBLASLt's epilogue}: {@code 0.5 x (1 +
   * tanh(sqrt(2 / pi) (x + 0.044715 x^3)))}, evaluated in double and rounded once to fp32
   */
  static float gelu(float x) {
    double v = x;
    return (float) (0.5 * v * (1 + Math.tanh(Math.sqrt(2 / Math.PI) * (v + 0.044715 * v * v * v))));
  }
}
