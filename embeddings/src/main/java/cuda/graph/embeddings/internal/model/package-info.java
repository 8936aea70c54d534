// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 the cuda-graph authors
/**
 * A model as the encoder reads it: the artifact (a LangChain4j jar or files on disk), the ONNX
 * graph parsed, its weights mapped onto BERT with the architecture the graph says (int8 weights
 * dequantized), the tokenizer as LangChain4j uses it, and the plain-Java fp32 reference encoder.
 * May depend on {@code cuda.graph.embeddings} and {@code cuda.graph.embeddings.internal.model.onnx}.
 */
@NullMarked
package cuda.graph.embeddings.internal.model;

import org.jspecify.annotations.NullMarked;
