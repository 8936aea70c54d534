// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 the cuda-graph authors
/**
 * The contract between the public matmul API and the backends that run it: a matmul resolved and
 * checked ({@link cuda.graph.blas.internal.plan.CheckedMatmul}), the buffers it runs over ({@link
 * cuda.graph.blas.internal.plan.MatmulOperands}), a backend's plan for it ({@link
 * cuda.graph.blas.internal.plan.MatmulPlan}) and the backend itself ({@link
 * cuda.graph.blas.internal.plan.MatmulBackend}). May depend on {@code cuda.graph}.
 */
@NullMarked
package cuda.graph.blas.internal.plan;

import org.jspecify.annotations.NullMarked;
