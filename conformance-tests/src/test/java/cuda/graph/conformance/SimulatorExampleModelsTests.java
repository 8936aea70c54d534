// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 the cuda-graph authors
package cuda.graph.conformance;

/**
 * Runs {@link ExampleModelsContract} against the simulator with its defaults (asynchronous
 * streams).
 */
class SimulatorExampleModelsTests implements ExampleModelsContract, SimulatorUnderTest {}
