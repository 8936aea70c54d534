// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 the cuda-graph authors
package cuda.graph.embeddings.internal.model;

/**
 * The shape of a BERT encoder, as {@link EncoderWeights} reads it from the ONNX graph: never
 * assumed per model. all-MiniLM-L6-v2 is {@code (6, 384, 12, 1536, 30522, 512, 2, 1e-12)},
 * bge-small-en-v1.5 the same with 12 layers.
 *
 * @param layers encoder layers: the {@code /encoder/layer.N/} scopes of the graph's nodes
 * @param hidden the hidden size: the width of the word embedding table
 * @param heads attention heads: the constant of the attention's {@code Reshape} to {@code [batch,
 *     length, heads, head size]}, checked against the scores' divisor, the square root of the head
 *     size
 * @param intermediate the feed-forward layers' inner size: the width of the intermediate weight
 * @param vocabulary the rows of the word embedding table
 * @param positions the rows of the position embedding table: the most tokens of one pass
 * @param types the rows of the token type table
 * @param layerNormEpsilon the constant every LayerNorm adds to the variance (one for all)
 * @param quantized whether the file stores int8 weights (dequantized to fp32 when read)
 */
public record Architecture(
    int layers,
    int hidden,
    int heads,
    int intermediate,
    int vocabulary,
    int positions,
    int types,
    float layerNormEpsilon,
    boolean quantized) {

  /** {@return the width of one attention head, {@code hidden / heads}} */
  public int headSize() {
    return hidden / heads;
  }
}
