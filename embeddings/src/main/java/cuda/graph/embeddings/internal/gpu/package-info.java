// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 the cuda-graph authors
/**
 * The encoder on the device: the forward pass of a padded batch as one captured graph per shape,
 * cuBLASLt matmul nodes and the encoder's own kernels (with their Java references, which the
 * simulator runs). May depend on {@code cuda.graph}, {@code cuda.graph.blas}, {@code
 * cuda.graph.embeddings} and {@code .model}.
 */
@NullMarked
package cuda.graph.embeddings.internal.gpu;

import org.jspecify.annotations.NullMarked;
