// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 the cuda-graph authors
/**
 * The encoder on the device: its kernels (PTX built from {@code src/main/cuda}) and the forward
 * pass of a padded batch as one captured graph per shape, replayed from a graph cache, with matmul
 * nodes for the products. May depend on {@code cuda.graph}, {@code cuda.graph.blas}, {@code
 * cuda.graph.embeddings}, {@code .model} and {@code jdk.jfr}.
 */
@NullMarked
package cuda.graph.embeddings.internal.gpu;

import org.jspecify.annotations.NullMarked;
