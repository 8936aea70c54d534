// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 the cuda-graph authors
package cuda.graph.conformance;

/**
 * Runs {@link FaultSoakContract} against the simulator with its defaults (asynchronous streams);
 * its long soak runs with {@code -Dcuda.graph.soak.tries=N} ({@code -Psoak}).
 */
class SimulatorFaultSoakTests implements FaultSoakContract, SimulatorUnderTest {}
