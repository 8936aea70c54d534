/**
 * Support for writing {@link cuda.graph.spi.CudaDriver} decorators: {@link
 * cuda.graph.spi.support.ForwardingCudaDriver} forwards every entry point, so a decorator overrides
 * only what it intercepts.
 */
@NullMarked
package cuda.graph.spi.support;

import org.jspecify.annotations.NullMarked;
