// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 the cuda-graph authors
/**
 * The engine's device side: the kernels of a batched step (src/main/cuda/llm_kernels.cu, PTX
 * committed, each with the Java reference the simulator runs), the paged KV cache's block
 * allocator, and one step of up to T tokens of up to S sequences as one graph per token bucket,
 * its products cuBLASLt nodes of the blas module. May depend on {@code cuda.graph}, {@code
 * cuda.graph.blas} and {@code .checkpoint}.
 */
@NullMarked
package cuda.graph.llm.internal.engine;

import org.jspecify.annotations.NullMarked;
