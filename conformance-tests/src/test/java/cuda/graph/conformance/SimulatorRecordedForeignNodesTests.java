// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 the cuda-graph authors
package cuda.graph.conformance;

/** Runs {@link RecordedForeignNodesContract} against the simulator. */
class SimulatorRecordedForeignNodesTests
    implements RecordedForeignNodesContract, SimulatorUnderTest {}
