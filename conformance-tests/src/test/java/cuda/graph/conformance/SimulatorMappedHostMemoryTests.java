// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 the cuda-graph authors
package cuda.graph.conformance;

/** Runs {@link MappedHostMemoryContract} against the simulator (asynchronous streams). */
class SimulatorMappedHostMemoryTests implements MappedHostMemoryContract, SimulatorUnderTest {}
