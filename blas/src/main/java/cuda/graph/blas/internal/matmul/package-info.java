// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 the cuda-graph authors
/**
 * The implementation of the public matmul API: {@code Blas} and {@code Workspace}, the checks of a
 * node against its device and workspace, the plans cached per product, the resolution of a public
 * {@code Matmul} into the backend contract, and the choice of backend by provider. May depend on
 * {@code cuda.graph}, {@code cuda.graph.blas}, {@code .plan}, and the backends it chooses from:
 * {@code .simulated} and {@code .binding}.
 */
@NullMarked
package cuda.graph.blas.internal.matmul;

import org.jspecify.annotations.NullMarked;
