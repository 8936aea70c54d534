// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 the cuda-graph authors
/**
 * The classes protoc generates from {@code src/main/proto/onnx_model.proto}: the part of the ONNX
 * IR that reading a model's weights needs. May depend on {@code com.google.protobuf}.
 */
package cuda.graph.embeddings.internal.model.onnx;
