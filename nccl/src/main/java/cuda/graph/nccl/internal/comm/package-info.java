// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 the cuda-graph authors
/**
 * Communicators, their collectives as graph nodes, the checks every provider shares, and the
 * backends that run them: NCCL through the binding, or the model of it on the simulator. May depend
 * on {@code cuda.graph}, {@code cuda.graph.nccl}, {@code .collective}, and the backends it chooses
 * from: {@code .binding} and {@code .simulated}.
 */
@NullMarked
package cuda.graph.nccl.internal.comm;

import org.jspecify.annotations.NullMarked;
