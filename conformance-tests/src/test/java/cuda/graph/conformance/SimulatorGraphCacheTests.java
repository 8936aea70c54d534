// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 the cuda-graph authors
package cuda.graph.conformance;

/** Runs {@link GraphCacheContract} against the simulator. */
class SimulatorGraphCacheTests implements GraphCacheContract, SimulatorUnderTest {}
