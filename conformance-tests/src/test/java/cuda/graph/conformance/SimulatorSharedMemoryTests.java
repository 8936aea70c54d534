// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 the cuda-graph authors
package cuda.graph.conformance;

/** Runs {@link SharedMemoryContract} against the simulator, which refuses what the driver does. */
class SimulatorSharedMemoryTests implements SharedMemoryContract, SimulatorUnderTest {}
