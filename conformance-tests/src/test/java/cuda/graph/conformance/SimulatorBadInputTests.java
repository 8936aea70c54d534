// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 the cuda-graph authors
package cuda.graph.conformance;

/** Runs {@link BadInputContract} against the simulator with its defaults (asynchronous streams). */
class SimulatorBadInputTests implements BadInputContract, SimulatorUnderTest {}
