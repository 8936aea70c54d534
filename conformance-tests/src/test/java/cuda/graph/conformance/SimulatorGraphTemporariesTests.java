// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 the cuda-graph authors
package cuda.graph.conformance;

/** Runs {@link GraphTemporariesContract} against the simulator. */
class SimulatorGraphTemporariesTests implements GraphTemporariesContract, SimulatorUnderTest {}
