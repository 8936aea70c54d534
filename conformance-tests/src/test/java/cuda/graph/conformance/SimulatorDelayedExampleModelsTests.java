package cuda.graph.conformance;

/**
 * Runs {@link ExampleModelsContract} against simulators that hold every queued operation back for a
 * while.
 */
class SimulatorDelayedExampleModelsTests
    implements ExampleModelsContract, SimulatorUnderTest.Delayed {}
