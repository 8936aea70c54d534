package cuda.graph.conformance;

/** Runs {@link ConcurrentChangesContract} against the simulator. */
class SimulatorConcurrentChangesTests implements ConcurrentChangesContract, SimulatorUnderTest {}
