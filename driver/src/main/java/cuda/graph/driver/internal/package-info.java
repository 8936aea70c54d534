/**
 * The {@code cuda} provider's implementation; not exported.
 *
 * <p>Layers, bottom up: {@link cuda.graph.driver.internal.Ffm} is the only class that calls
 * restricted FFM methods; {@link cuda.graph.driver.internal.CudaLibrary} loads {@code libcuda} and
 * {@link cuda.graph.driver.internal.CuSymbol} names every entry point bound; {@link
 * cuda.graph.driver.internal.Cu} holds one downcall handle per entry point; {@link
 * cuda.graph.driver.internal.FfmCudaDriver} implements the SPI on top, with {@link
 * cuda.graph.driver.internal.Errors} turning statuses into exceptions. NVRTC has the same shape in
 * {@link cuda.graph.driver.internal.NvrtcLibrary}, {@link cuda.graph.driver.internal.Nvrtc} and
 * {@link cuda.graph.driver.internal.NvrtcCompiler}.
 */
@NullMarked
package cuda.graph.driver.internal;

import org.jspecify.annotations.NullMarked;
