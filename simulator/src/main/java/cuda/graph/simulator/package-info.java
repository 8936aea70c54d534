// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 the cuda-graph authors
/**
 * Building the CUDA driver simulator.
 *
 * <p>{@link cuda.graph.simulator.Simulator#builder()} makes a {@link
 * cuda.graph.simulator.SimulatedDriver}: a {@link cuda.graph.spi.CudaDriver} whose devices are
 * modelled in this process (device memory is real off-heap memory at fake device addresses; kernels
 * run through their Java implementations). What tests need to prove a caller correct (a ledger of
 * live handles, a call log, fault injection) decorates any driver: {@code
 * cuda.graph.testkit.InstrumentedDriver}, in the test kit.
 */
@NullMarked
package cuda.graph.simulator;

import org.jspecify.annotations.NullMarked;
