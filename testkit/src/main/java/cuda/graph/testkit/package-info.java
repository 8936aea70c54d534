// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 the cuda-graph authors
/**
 * Instruments that prove a caller of any {@link cuda.graph.spi.CudaDriver} correct.
 *
 * <p>{@link cuda.graph.testkit.InstrumentedDriver} decorates a driver (the simulator, the real
 * one): it keeps a {@link cuda.graph.testkit.HandleLedger} of live handles, refuses a call that
 * breaks a handle's lifetime with a {@link cuda.graph.testkit.LifetimeViolation} before the driver
 * sees it, records a {@link cuda.graph.testkit.CallLog}, and injects the failures of a {@link
 * cuda.graph.testkit.FaultPlan}. {@link cuda.graph.testkit.GraphCallOverlaps} counts calls on one
 * graph object that overlap in time. The simulator's tests, the api's and the conformance kit share
 * them. May depend on {@code cuda.graph.spi} and {@code cuda.graph.spi.support}.
 */
@NullMarked
package cuda.graph.testkit;

import org.jspecify.annotations.NullMarked;
