// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 the cuda-graph authors
package cuda.graph.embeddings;

import static org.apiguardian.api.API.Status.EXPERIMENTAL;

import org.apiguardian.api.API;

/**
 * What an {@link Embedder} found in its model: read from the ONNX graph (the layers, sizes and
 * heads) and from its source (the name and pooling), never assumed per model.
 *
 * @param name the model's name: the ONNX file's name without {@code .onnx} (for LangChain4j's
 *     all-MiniLM-L6-v2 jar, {@code all-minilm-l6-v2})
 * @param source where it was read from: the jar and its entries, or the files
 * @param layers encoder layers
 * @param hidden the hidden size, which is the embeddings' dimension
 * @param heads attention heads
 * @param intermediate the feed-forward layers' inner size
 * @param vocabulary the word-piece vocabulary's size
 * @param positions the most tokens one pass of the model takes (its position table)
 * @param pooling how token vectors become one embedding
 * @param quantized whether the file stores int8 weights, which are dequantized to fp32 when loaded
 * @since 0.2.0
 */
@API(status = EXPERIMENTAL, since = "0.2.0")
public record ModelInfo(
    String name,
    String source,
    int layers,
    int hidden,
    int heads,
    int intermediate,
    int vocabulary,
    int positions,
    Pooling pooling,
    boolean quantized) {}
