// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 the cuda-graph authors
package cuda.graph.llm.internal.engine;

import cuda.graph.llm.internal.checkpoint.ModelConfig;
import org.jspecify.annotations.Nullable;

/**
 * The dimensions of a Llama model as the engine needs them (the checkpoint's {@code ModelConfig}
 * maps onto it).
 *
 * @param hidden {@code hidden_size}
 * @param intermediate {@code intermediate_size}
 * @param layers {@code num_hidden_layers}
 * @param heads {@code num_attention_heads}
 * @param kvHeads {@code num_key_value_heads}, dividing {@code heads}
 * @param headDim a head's width ({@code head_dim}, or hidden / heads), even, at most {@link
 *     LlmKernels#MAX_HEAD_DIM}
 * @param vocab {@code vocab_size}
 * @param rmsNormEps {@code rms_norm_eps}
 * @param ropeTheta {@code rope_theta}
 * @param ropeScaling Llama 3's {@code rope_scaling}, or null
 */
public record ModelShape(
    int hidden,
    int intermediate,
    int layers,
    int heads,
    int kvHeads,
    int headDim,
    int vocab,
    float rmsNormEps,
    double ropeTheta,
    Rope.@Nullable Llama3Scaling ropeScaling) {

  /**
   * Checks the dimensions.
   *
   * @throws IllegalArgumentException naming the first that the engine's kernels cannot take
   */
  public ModelShape {
    if (hidden < 1 || intermediate < 1 || layers < 1 || vocab < 1) {
      throw new IllegalArgumentException(
          "ModelShape: hidden "
              + hidden
              + ", intermediate "
              + intermediate
              + ", layers "
              + layers
              + ", vocab "
              + vocab
              + "; each is at least 1");
    }
    if (heads < 1 || kvHeads < 1 || heads % kvHeads != 0) {
      throw new IllegalArgumentException(
          "ModelShape: "
              + heads
              + " heads and "
              + kvHeads
              + " key/value heads; the heads are a positive multiple of the key/value heads");
    }
    if (headDim < 2 || headDim % 2 != 0 || headDim > LlmKernels.MAX_HEAD_DIM) {
      throw new IllegalArgumentException(
          "ModelShape: head_dim "
              + headDim
              + "; the engine's attention takes even head widths up to "
              + LlmKernels.MAX_HEAD_DIM);
    }
    if (!(rmsNormEps > 0) || !(ropeTheta > 1)) {
      throw new IllegalArgumentException(
          "ModelShape: rms_norm_eps "
              + rmsNormEps
              + " and rope_theta "
              + ropeTheta
              + "; the epsilon is positive and rope_theta above 1");
    }
  }

  /**
   * {@return the engine's dimensions of a checked config.json}
   *
   * @param config the checkpoint's config
   * @throws IllegalArgumentException if the engine's kernels cannot take them (a head wider than
   *     {@link LlmKernels#MAX_HEAD_DIM})
   */
  public static ModelShape of(ModelConfig config) {
    ModelConfig.RopeScaling r = config.ropeScaling();
    return new ModelShape(
        config.hiddenSize(),
        config.intermediateSize(),
        config.numHiddenLayers(),
        config.numAttentionHeads(),
        config.numKeyValueHeads(),
        config.headDim(),
        config.vocabSize(),
        (float) config.rmsNormEps(),
        config.ropeTheta(),
        r == null
            ? null
            : new Rope.Llama3Scaling(
                r.factor(),
                r.lowFreqFactor(),
                r.highFreqFactor(),
                r.originalMaxPositionEmbeddings()));
  }

  /** {@return the width of a token's fused Q | K | V row} */
  public int qkvWidth() {
    return (heads + 2 * kvHeads) * headDim;
  }

  /** {@return the width of the attention's output, heads * headDim} */
  public int qWidth() {
    return heads * headDim;
  }

  /** {@return the width of a token's k (or v) in the cache} */
  public int kvWidth() {
    return kvHeads * headDim;
  }
}
