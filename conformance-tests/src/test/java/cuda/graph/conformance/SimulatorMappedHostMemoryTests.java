package cuda.graph.conformance;

/** Runs {@link MappedHostMemoryContract} against the simulator (asynchronous streams). */
class SimulatorMappedHostMemoryTests implements MappedHostMemoryContract, SimulatorUnderTest {}
