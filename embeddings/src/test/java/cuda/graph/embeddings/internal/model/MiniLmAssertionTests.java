// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 the cuda-graph authors
package cuda.graph.embeddings.internal.model;

import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;
import org.opentest4j.AssertionFailedError;

/** The end-to-end tests' check cannot pass NaN or embeddings of the wrong length. */
class MiniLmAssertionTests {

  private static final double FLOOR = MiniLm.MIN_COSINE;

  private static float[] unit() {
    float[] v = new float[384];
    for (int i = 0; i < v.length; i++) {
      v[i] = (float) Math.sin(i + 1);
    }
    double norm = MiniLm.norm(v);
    for (int i = 0; i < v.length; i++) {
      v[i] /= (float) norm;
    }
    return v;
  }

  @Test
  void theEndToEndTestsAssertionFailsOnNanAndOnHalfLengthEmbeddings() {
    float[] anchor = unit();
    float[] nan = anchor.clone();
    nan[5] = Float.NaN;
    float[] half = anchor.clone();
    for (int i = 0; i < half.length; i++) {
      half[i] *= 0.5f;
    }

    MiniLm.assertEmbedding(anchor.clone(), anchor, FLOOR, "the anchor itself");
    AssertionFailedError onNan =
        assertThrows(
            AssertionFailedError.class, () -> MiniLm.assertEmbedding(nan, anchor, FLOOR, "NaN"));
    AssertionFailedError onHalf =
        assertThrows(
            AssertionFailedError.class, () -> MiniLm.assertEmbedding(half, anchor, FLOOR, "half"));

    assertTrue(onNan.getMessage().startsWith("cosine NaN (floor 0.99999)"), onNan.getMessage());
    assertTrue(onHalf.getMessage().startsWith("cosine 1.000000000"), onHalf.getMessage());
    assertTrue(onHalf.getMessage().contains("|1 - norm| 5.00e-01"), onHalf.getMessage());
  }
}
