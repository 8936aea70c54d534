// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 the cuda-graph authors
/**
 * GPU sentence embeddings: the public API of module {@code cuda.graph.embeddings}.
 *
 * <p>{@link cuda.graph.embeddings.Embedder} is the one thing users hold; {@link
 * cuda.graph.embeddings.ModelSource} says where its model comes from. Every other type here is a
 * record or an enum that describes a choice or a result.
 */
@NullMarked
package cuda.graph.embeddings;

import org.jspecify.annotations.NullMarked;
