package cuda.graph.conformance;

/** Runs {@link ChangingGraphsSoakContract} against the simulator. */
class SimulatorChangingGraphsSoakTests implements ChangingGraphsSoakContract, SimulatorUnderTest {}
