package cuda.graph.conformance;

/** Runs {@link ChangingGraphsContract} against the simulator. */
class SimulatorChangingGraphsTests implements ChangingGraphsContract, SimulatorUnderTest {}
