package cuda.graph.conformance;

/** Runs {@link SharedMemoryContract} against the simulator, which refuses what the driver does. */
class SimulatorSharedMemoryTests implements SharedMemoryContract, SimulatorUnderTest {}
