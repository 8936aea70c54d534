// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 the cuda-graph authors
package cuda.graph.embeddings.internal.gpu;

import cuda.graph.embeddings.internal.model.Architecture;
import cuda.graph.embeddings.internal.model.EncoderWeights;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;

/**
 * Random weights of a BERT encoder's shape, for measurements of time (which depends on a model's
 * sizes, not its values) where the model's own artifact cannot travel: QueryBreakdown's {@code
 * --random-weights}. Values are small (normal, 0.05) so that LayerNorm and softmax see ordinary
 * magnitudes.
 */
final class RandomWeights {

  private RandomWeights() {}

  /** all-MiniLM-L6-v2's sizes. */
  static final Architecture MINILM =
      new Architecture(6, 384, 12, 1536, 30522, 512, 2, 1e-12f, false);

  /** bge-small-en-v1.5's sizes: twelve layers of all-MiniLM's. */
  static final Architecture BGE_SMALL =
      new Architecture(12, 384, 12, 1536, 30522, 512, 2, 1e-12f, false);

  static EncoderWeights of(Architecture a, long seed) {
    Random random = new Random(seed);
    int h = a.hidden(), f = a.intermediate();
    List<EncoderWeights.Layer> layers = new ArrayList<>();
    for (int n = 0; n < a.layers(); n++) {
      String p = "layer." + n + ".";
      layers.add(
          new EncoderWeights.Layer(
              linear(random, p + "query", h, h),
              linear(random, p + "key", h, h),
              linear(random, p + "value", h, h),
              linear(random, p + "attention.output", h, h),
              norm(random, p + "attention.norm", h),
              linear(random, p + "intermediate", h, f),
              linear(random, p + "output", f, h),
              norm(random, p + "output.norm", h)));
    }
    return EncoderWeights.of(
        a,
        values(random, a.vocabulary() * h, 0, 0.05),
        values(random, a.positions() * h, 0, 0.05),
        values(random, a.types() * h, 0, 0.05),
        norm(random, "embeddings.norm", h),
        layers);
  }

  private static EncoderWeights.Linear linear(Random random, String name, int in, int out) {
    return new EncoderWeights.Linear(
        name + ".weight",
        name + ".bias",
        in,
        out,
        values(random, in * out, 0, 0.05),
        values(random, out, 0, 0.02));
  }

  private static EncoderWeights.LayerNorm norm(Random random, String name, int h) {
    return new EncoderWeights.LayerNorm(
        name + ".gamma", name + ".beta", values(random, h, 1, 0.05), values(random, h, 0, 0.02));
  }

  private static float[] values(Random random, int n, double mean, double deviation) {
    float[] v = new float[n];
    for (int i = 0; i < n; i++) {
      v[i] = (float) (mean + deviation * random.nextGaussian());
    }
    return v;
  }
}
