package cuda.graph.conformance;

/** Runs {@link GraphTemporariesContract} against the simulator. */
class SimulatorGraphTemporariesTests implements GraphTemporariesContract, SimulatorUnderTest {}
