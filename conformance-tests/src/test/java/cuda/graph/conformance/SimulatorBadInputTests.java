package cuda.graph.conformance;

/** Runs {@link BadInputContract} against the simulator with its defaults (asynchronous streams). */
class SimulatorBadInputTests implements BadInputContract, SimulatorUnderTest {}
