package cuda.graph.conformance;

/** Runs {@link GraphCacheContract} against the simulator. */
class SimulatorGraphCacheTests implements GraphCacheContract, SimulatorUnderTest {}
