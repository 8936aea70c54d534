// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 the cuda-graph authors
/**
 * The driver contract: a small subset of the CUDA driver API that a provider implements.
 *
 * <p>Calls are named and behave like the CUDA driver entry points they stand for ({@code
 * streamBeginCapture} is {@code cuStreamBeginCapture_v2}); failures throw {@link
 * cuda.graph.spi.CudaDriverException} carrying CUDA's numeric {@code CUresult}, so every provider
 * reports identical errors. Handles ({@link cuda.graph.spi.CuHandle}) are opaque values. The
 * measured behaviour every provider must reproduce is written down in the project's driver
 * specification and checked by the conformance kit.
 */
@NullMarked
package cuda.graph.spi;

import org.jspecify.annotations.NullMarked;
