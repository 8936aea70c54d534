// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 the cuda-graph authors
/**
 * What a model is made of, read from its source: the artifact (a LangChain4j jar or files on disk,
 * and the pooling its model class names), the ONNX graph and its initializers, the weights mapped
 * onto the BERT structure, the tokenizer as LangChain4j uses it, and the plain-Java reference
 * encoder the GPU encoder is checked against. May depend on {@code cuda.graph.embeddings} and
 * {@code .onnx} (the classes protoc generates from {@code src/main/proto/onnx_model.proto}).
 */
@NullMarked
package cuda.graph.embeddings.internal.model;

import org.jspecify.annotations.NullMarked;
