// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 the cuda-graph authors
package cuda.graph.blas.internal.simulated;

import static org.junit.jupiter.api.Assertions.assertEquals;

import org.junit.jupiter.api.Test;

/** The model rounds as the GPU does: outputs to nearest even, TF32 inputs to nearest away. */
class RoundingTests {

  @Test
  void bf16RoundsToNearestWithTiesToEven() {
    // 1 + 2^-8 lies halfway between bf16 1 and 1 + 2^-7: the even one is 1.
    assertEquals(1f, Rounding.fromBf16(Rounding.toBf16(1f + 0x1p-8f)));
    // 1 + 3 * 2^-8 lies halfway between 1 + 2^-7 and 1 + 2^-6: the even one is 1 + 2^-6.
    assertEquals(1f + 0x1p-6f, Rounding.fromBf16(Rounding.toBf16(1f + 3 * 0x1p-8f)));
    // Just above halfway goes up.
    assertEquals(1f + 0x1p-7f, Rounding.fromBf16(Rounding.toBf16(1f + 0x1p-8f + 0x1p-20f)));
    assertEquals(-2f, Rounding.fromBf16(Rounding.toBf16(-2f)));
    assertEquals(Float.POSITIVE_INFINITY, Rounding.fromBf16(Rounding.toBf16(Float.MAX_VALUE)));
    assertEquals(true, Float.isNaN(Rounding.fromBf16(Rounding.toBf16(Float.NaN))));
  }

  @Test
  void f16RoundsToNearestWithTiesToEven() {
    assertEquals(1f, Rounding.fromF16(Rounding.toF16(1f + 0x1p-11f)));
    assertEquals(1f + 0x1p-9f, Rounding.fromF16(Rounding.toF16(1f + 3 * 0x1p-11f)));
    assertEquals(Float.POSITIVE_INFINITY, Rounding.fromF16(Rounding.toF16(70000f)));
  }

  @Test
  void tf32KeepsTenMantissaBitsRoundingHalfAwayFromZero() {
    assertEquals(1f + 0x1p-10f, Rounding.toTf32(1f + 0x1p-11f), "a tie goes away from zero");
    assertEquals(-(1f + 0x1p-10f), Rounding.toTf32(-(1f + 0x1p-11f)));
    assertEquals(1f, Rounding.toTf32(1f + 0x1p-12f));
    assertEquals(2f, Rounding.toTf32(2f - 0x1p-23f), "a carry into the exponent");
    assertEquals(Float.POSITIVE_INFINITY, Rounding.toTf32(Float.POSITIVE_INFINITY));
  }

  @Test
  void geluIsTheTanhApproximation() {
    assertEquals(0f, Rounding.gelu(0f));
    assertEquals(0.841192f, Rounding.gelu(1f), 1e-6f);
    assertEquals(-0.158808f, Rounding.gelu(-1f), 1e-6f);
    assertEquals(3f, Rounding.gelu(3f), 0.004f);
  }
}
