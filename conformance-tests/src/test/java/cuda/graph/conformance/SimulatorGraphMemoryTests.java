package cuda.graph.conformance;

/** Runs {@link GraphMemoryContract} against the simulator. */
class SimulatorGraphMemoryTests implements GraphMemoryContract, SimulatorUnderTest {}
