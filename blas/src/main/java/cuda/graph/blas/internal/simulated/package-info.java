// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 the cuda-graph authors
/**
 * The model of cuBLASLt on the simulator: a Java reference matmul with cuBLASLt's rounding, run as
 * one kernel launch per node. May depend on {@code cuda.graph} and {@code .plan}.
 */
@NullMarked
package cuda.graph.blas.internal.simulated;

import org.jspecify.annotations.NullMarked;
