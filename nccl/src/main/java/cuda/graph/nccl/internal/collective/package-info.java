// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 the cuda-graph authors
/**
 * What a collective is, independent of who runs it: the checked description of one collective of a
 * group, and the contract of a backend (NCCL, or the simulator's model of it) that turns groups of
 * them into graph nodes. May depend on {@code cuda.graph} and {@code cuda.graph.nccl}.
 */
@NullMarked
package cuda.graph.nccl.internal.collective;

import org.jspecify.annotations.NullMarked;
