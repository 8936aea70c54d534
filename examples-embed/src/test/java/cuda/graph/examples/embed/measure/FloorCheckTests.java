// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 the cuda-graph authors
package cuda.graph.examples.embed.measure;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import cuda.graph.embeddings.internal.model.ReferenceEncoder;
import java.util.Arrays;
import java.util.Random;
import org.junit.jupiter.api.Test;

/**
 * The check behind the published floors (EmbedDemo, EmbedBench) fails on NaN embeddings and on
 * embeddings of the wrong length, which every cosine passes, and passes unit embeddings at the
 * floor.
 */
class FloorCheckTests {

  private static final double FLOOR = 0.99999;

  private final Random random = new Random(36);

  private float[] unit() {
    float[] v = new float[384]; // all-MiniLM-L6-v2's dimension
    for (int i = 0; i < v.length; i++) {
      v[i] = (float) random.nextGaussian();
    }
    return ReferenceEncoder.normalized(v);
  }

  private float[][] units(int n) {
    float[][] all = new float[n][];
    for (int i = 0; i < n; i++) {
      all[i] = unit();
    }
    return all;
  }

  private static float[][] copy(float[][] embeddings) {
    return Arrays.stream(embeddings).map(float[]::clone).toArray(float[][]::new);
  }

  @Test
  void nanEmbeddingsFailWhereAWorstKeptWithLessThanPrintedPass() {
    float[][] anchors = units(4);
    float[][] ours = copy(anchors);
    Arrays.fill(ours[2], Float.NaN);

    FloorCheck check = FloorCheck.of(ours, anchors, FLOOR);

    assertFalse(check.passed(), check::toString);
    assertTrue(Double.isNaN(check.worstCosine()), check::toString);
    assertEquals(2, check.worstCosineAt());
    assertTrue(Double.isNaN(check.worstNormError()), check::toString);
    assertTrue(check.columns().startsWith("worst_cosine,NaN,at,2,floor,"), check.columns());
    assertTrue(check.columns().endsWith(",FAIL"), check.columns());
    assertTrue(check.judged().startsWith("NaN (BELOW 0.99999)"), check.judged());
  }

  @Test
  void oneNanElementAfterALowerCosineIsStillTheWorst() {
    float[][] anchors = units(3);
    float[][] ours = copy(anchors);
    ours[0] = unit(); // a cosine of about 0: the worst until the NaN
    ours[1][7] = Float.NaN;

    FloorCheck check = FloorCheck.of(ours, anchors, -1);

    assertFalse(check.passed(), "a floor of -1 passes every cosine but NaN");
    assertTrue(Double.isNaN(check.worstCosine()));
    assertEquals(1, check.worstCosineAt());
    assertEquals(1, check.worstNormAt());
  }

  @Test
  void embeddingsHalfAsLongFailOnTheNormThoughEveryCosineIsOne() {
    float[][] anchors = units(3);
    float[][] ours = copy(anchors);
    for (float[] e : ours) {
      for (int i = 0; i < e.length; i++) {
        e[i] *= 0.5f;
      }
    }

    FloorCheck check = FloorCheck.of(ours, anchors, FLOOR);

    assertTrue(check.worstCosine() >= FLOOR, check::toString);
    assertEquals(0.5, check.worstNormError(), 1e-6);
    assertFalse(check.passed(), check::toString);
    assertTrue(check.judged().contains("(OUTSIDE 1e-05)"), check.judged());
  }

  @Test
  void unitEmbeddingsAtTheFloorPassAndTheWorstIsNamed() {
    float[][] anchors = units(5);
    float[][] ours = copy(anchors);
    ours[3] = ReferenceEncoder.normalized(anchors[3].clone());
    ours[3][0] += 0.01f; // a little off, and no longer quite of norm 1
    ours[3] = ReferenceEncoder.normalized(ours[3]);
    double cosine = FloorCheck.cosine(ours[3], anchors[3]);

    FloorCheck atFloor = FloorCheck.of(ours, anchors, cosine);
    FloorCheck above = FloorCheck.of(ours, anchors, Math.nextUp(cosine));

    assertTrue(atFloor.passed(), atFloor::toString);
    assertEquals(3, atFloor.worstCosineAt());
    assertTrue(atFloor.columns().endsWith(",PASS"), atFloor.columns());
    assertFalse(above.passed(), above::toString);
  }

  @Test
  void aCheckOfNoEmbeddingsDoesNotPass() {
    assertFalse(FloorCheck.of(new float[0][], new float[0][], FLOOR).passed());
  }
}
