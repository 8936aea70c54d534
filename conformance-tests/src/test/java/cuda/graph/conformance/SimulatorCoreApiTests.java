package cuda.graph.conformance;

/** Runs {@link CoreApiContract} against the simulator. */
class SimulatorCoreApiTests implements CoreApiContract, SimulatorUnderTest {}
