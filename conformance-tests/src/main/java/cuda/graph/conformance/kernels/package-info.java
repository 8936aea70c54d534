// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 the cuda-graph authors
/**
 * The kit's test kernels: PTX compiled from the {@code .cu} files of {@code src/main/cuda} ({@code
 * conformance_kernels.cu}, and the conditional, programmatic and mapped-memory kernels of their
 * contracts), each with the Java reference the simulator runs, shared by the contracts and the
 * op-sequence arbitraries.
 */
@NullMarked
package cuda.graph.conformance.kernels;

import org.jspecify.annotations.NullMarked;
