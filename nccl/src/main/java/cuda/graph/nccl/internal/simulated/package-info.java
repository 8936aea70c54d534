// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 the cuda-graph authors
/**
 * The model of NCCL that runs on the simulator: each group of collectives is one Java kernel per
 * rank, and the ranks' kernels meet in a rendezvous that matches their collectives by order, checks
 * that they agree, and computes the results from the inputs every rank brought, as NCCL would. May
 * depend on {@code cuda.graph}, {@code cuda.graph.nccl} and {@code .collective}.
 */
@NullMarked
package cuda.graph.nccl.internal.simulated;

import org.jspecify.annotations.NullMarked;
