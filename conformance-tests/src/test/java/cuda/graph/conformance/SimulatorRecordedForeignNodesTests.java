package cuda.graph.conformance;

/** Runs {@link RecordedForeignNodesContract} against the simulator. */
class SimulatorRecordedForeignNodesTests
    implements RecordedForeignNodesContract, SimulatorUnderTest {}
