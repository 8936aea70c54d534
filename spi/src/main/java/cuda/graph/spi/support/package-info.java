/**
 * Driver decorators and the instruments tests use to prove a caller of any {@link
 * cuda.graph.spi.CudaDriver} correct.
 *
 * <p>{@link cuda.graph.spi.support.ForwardingCudaDriver} forwards every entry point through two
 * hooks, so a decorator overrides only what it intercepts. {@link
 * cuda.graph.spi.support.InstrumentedDriver} is such a decorator: it gives any driver a {@link
 * cuda.graph.spi.support.HandleLedger} of live handles, refuses calls that break a handle's
 * lifetime with a {@link cuda.graph.spi.support.LifetimeViolation}, records a {@link
 * cuda.graph.spi.support.CallLog}, and injects the failures of a {@link
 * cuda.graph.spi.support.FaultPlan}. The simulator and the conformance kit share these instruments.
 */
@NullMarked
package cuda.graph.spi.support;

import org.jspecify.annotations.NullMarked;
