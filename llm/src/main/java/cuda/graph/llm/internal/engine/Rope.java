// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 the cuda-graph authors
package cuda.graph.llm.internal.engine;

import org.jspecify.annotations.Nullable;

/**
 * The rotary embedding's inverse frequencies, computed once on the host and uploaded: {@code
 * theta^(-2i / headDim)} for {@code i < headDim / 2}, in fp32 as transformers computes them ({@code
 * 1.0 / base ** (arange(0, dim, 2).float() / dim)}), and with Llama 3's scaling where the config
 * has one ({@code _compute_llama3_parameters} of transformers' {@code modeling_rope_utils}).
 */
public final class Rope {

  /**
   * Llama 3's {@code rope_scaling} ({@code rope_type: "llama3"}).
   *
   * @param factor {@code factor}
   * @param lowFreqFactor {@code low_freq_factor}
   * @param highFreqFactor {@code high_freq_factor}
   * @param originalMaxPositions {@code original_max_position_embeddings}
   */
  public record Llama3Scaling(
      double factor, double lowFreqFactor, double highFreqFactor, int originalMaxPositions) {

    /**
     * Checks the parameters.
     *
     * @throws IllegalArgumentException if a factor is not positive, the high frequency factor is
     *     not above the low one, or the original positions are not positive
     */
    public Llama3Scaling {
      if (!(factor > 0) || !(lowFreqFactor > 0) || !(highFreqFactor > lowFreqFactor)) {
        throw new IllegalArgumentException(
            "Rope.Llama3Scaling: factor "
                + factor
                + ", low_freq_factor "
                + lowFreqFactor
                + ", high_freq_factor "
                + highFreqFactor
                + "; the factors are positive and high_freq_factor > low_freq_factor (Llama 3.2"
                + " has 32, 1 and 4)");
      }
      if (originalMaxPositions < 1) {
        throw new IllegalArgumentException(
            "Rope.Llama3Scaling: original_max_position_embeddings "
                + originalMaxPositions
                + " is not positive (Llama 3 has 8192)");
      }
    }
  }

  private Rope() {}

  /**
   * {@return the {@code headDim / 2} inverse frequencies}
   *
   * @param headDim a head's width, even
   * @param theta {@code rope_theta}
   * @param scaling Llama 3's scaling, or null for none
   * @throws IllegalArgumentException if {@code headDim} is not positive and even or {@code theta}
   *     is not above 1
   */
  public static float[] inverseFrequencies(
      int headDim, double theta, @Nullable Llama3Scaling scaling) {
    if (headDim < 2 || headDim % 2 != 0 || !(theta > 1)) {
      throw new IllegalArgumentException(
          "Rope.inverseFrequencies: head_dim "
              + headDim
              + " and rope_theta "
              + theta
              + "; head_dim is positive and even, rope_theta above 1 (Llama: 10000 or 500000)");
    }
    int half = headDim / 2;
    float[] inverse = new float[half];
    float base = (float) theta;
    for (int i = 0; i < half; i++) {
      // transformers: arange(0, dim, 2) / dim in fp32, base ** that in fp32, 1 / it in fp32.
      float exponent = (float) (2 * i) / headDim;
      inverse[i] = 1f / (float) Math.pow(base, exponent);
    }
    if (scaling == null) {
      return inverse;
    }
    float factor = (float) scaling.factor();
    float low = (float) scaling.lowFreqFactor(), high = (float) scaling.highFreqFactor();
    float old = scaling.originalMaxPositions();
    float lowWavelength = old / low, highWavelength = old / high;
    for (int i = 0; i < half; i++) {
      float wavelength = (float) (2 * Math.PI) / inverse[i];
      float scaled = wavelength > lowWavelength ? inverse[i] / factor : inverse[i];
      boolean medium = !(wavelength < highWavelength) && !(wavelength > lowWavelength);
      if (medium) {
        float smooth = (old / wavelength - low) / (high - low);
        scaled = (1 - smooth) * scaled / factor + smooth * scaled;
      }
      inverse[i] = scaled;
    }
    return inverse;
  }
}
