// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 the cuda-graph authors
package cuda.graph.llm.internal.engine;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import org.junit.jupiter.api.Test;

/**
 * The inverse frequencies are {@code theta^(-2i/d)}, and with Llama 3's scaling (Llama 3.2-1B's:
 * factor 32, low 1, high 4, 8192 positions, theta 500000, head 64) the formula of transformers'
 * {@code _compute_llama3_parameters} written out in double: wavelengths above 8192 divided by 32,
 * below 2048 kept, between them interpolated.
 */
class RopeTests {

  @Test
  void withoutScalingTheInverseFrequenciesAreThetaToTheMinusTwoIOverD() {
    float[] inverse = Rope.inverseFrequencies(16, 10000, null);
    assertEquals(8, inverse.length);
    for (int i = 0; i < 8; i++) {
      double expected = Math.pow(10000, -2.0 * i / 16);
      assertEquals(expected, inverse[i], 2e-7 * expected, "i = " + i);
    }
  }

  @Test
  void llama3ScalingDividesTheLowFrequenciesKeepsTheHighAndInterpolatesBetween() {
    Rope.Llama3Scaling scaling = new Rope.Llama3Scaling(32, 1, 4, 8192);
    float[] inverse = Rope.inverseFrequencies(64, 500000, scaling);
    int low = 0, high = 0, medium = 0;
    for (int i = 0; i < 32; i++) {
      double f = Math.pow(500000, -2.0 * i / 64);
      double wavelength = 2 * Math.PI / f;
      double expected;
      if (wavelength < 8192 / 4.0) {
        expected = f;
        high++;
      } else if (wavelength > 8192 / 1.0) {
        expected = f / 32;
        low++;
      } else {
        double smooth = (8192 / wavelength - 1) / (4 - 1);
        expected = (1 - smooth) * f / 32 + smooth * f;
        medium++;
      }
      assertEquals(expected, inverse[i], 1e-5 * expected, "i = " + i);
    }
    assertEquals(32, low + high + medium);
    // Every branch is taken at Llama 3.2's sizes.
    assertEquals(true, low > 0 && high > 0 && medium > 0, low + " " + high + " " + medium);
  }

  @Test
  void anOddHeadOrAThetaOfOneIsRefused() {
    assertThrows(IllegalArgumentException.class, () -> Rope.inverseFrequencies(15, 10000, null));
    assertThrows(IllegalArgumentException.class, () -> Rope.inverseFrequencies(16, 1, null));
    assertThrows(IllegalArgumentException.class, () -> new Rope.Llama3Scaling(32, 4, 1, 8192));
  }
}
