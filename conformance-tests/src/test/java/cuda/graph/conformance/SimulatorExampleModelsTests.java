package cuda.graph.conformance;

/**
 * Runs {@link ExampleModelsContract} against the simulator with its defaults (asynchronous
 * streams).
 */
class SimulatorExampleModelsTests implements ExampleModelsContract, SimulatorUnderTest {}
