// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 the cuda-graph authors
package cuda.graph.conformance;

/**
 * Runs {@link ExampleModelsContract} against simulators that hold every queued operation back for a
 * while.
 */
class SimulatorDelayedExampleModelsTests
    implements ExampleModelsContract, SimulatorUnderTest.Delayed {}
