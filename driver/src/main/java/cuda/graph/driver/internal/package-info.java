// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 the cuda-graph authors
/**
 * The {@code cuda} provider's implementation; not exported.
 *
 * <p>Layers, bottom up: {@link cuda.graph.driver.internal.Ffm} is the only class that calls
 * restricted FFM methods; {@link cuda.graph.driver.internal.CudaLibrary} loads {@code libcuda};
 * {@link cuda.graph.driver.internal.CuEntry} describes every entry point bound (SPI call, symbol,
 * ABI version, C signature) and gives its downcall handle, which {@link
 * cuda.graph.driver.internal.Downcall} links on first use; {@link
 * cuda.graph.driver.internal.FfmCudaDriver} implements the SPI on top, with {@link
 * cuda.graph.driver.internal.Errors} turning statuses into exceptions. NVRTC has the same shape in
 * {@link cuda.graph.driver.internal.NvrtcLibrary}, {@link cuda.graph.driver.internal.Nvrtc} and
 * {@link cuda.graph.driver.internal.NvrtcCompiler}.
 *
 * <p>May depend on {@code cuda.graph.spi}.
 */
@NullMarked
package cuda.graph.driver.internal;

import org.jspecify.annotations.NullMarked;
