// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 the cuda-graph authors
/**
 * The FFM binding of cuBLASLt ({@code libcublasLt.so.13} or {@code .12}) and the backend that runs
 * checked matmuls through it; not exported. {@link cuda.graph.blas.internal.binding.CublasLtEntry}
 * describes each entry point bound (symbol and C signature); {@link
 * cuda.graph.blas.internal.binding.CublasLtLibrary} loads the library once per process, checks its
 * symbols and version, and offers one typed method per entry point, taking handles, device pointers
 * and sizes as {@code long} so a launch costs no allocation; {@link
 * cuda.graph.blas.internal.binding.CublasLtErrors} is the one place a failed call becomes a {@link
 * cuda.graph.blas.BlasException}, in the words of {@link
 * cuda.graph.blas.internal.binding.CublasLtStatus}; {@link
 * cuda.graph.blas.internal.binding.CublasLtAbi} holds the numbers and struct layouts used; {@link
 * cuda.graph.blas.internal.binding.LtMatmulSpec} turns a checked product into the attributes
 * cuBLASLt is given; {@link cuda.graph.blas.internal.binding.CublasLtBackend} is the {@code cuda}
 * provider's {@link cuda.graph.blas.internal.plan.MatmulBackend}. Only the package-private {@code
 * Ffm} calls restricted FFM methods, and only after {@code NativeAccess} has checked that this
 * module may. May depend on {@code cuda.graph}, {@code cuda.graph.blas} and {@code .plan}.
 */
@NullMarked
package cuda.graph.blas.internal.binding;

import org.jspecify.annotations.NullMarked;
