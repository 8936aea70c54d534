package cuda.graph.conformance;

/**
 * Runs {@link FaultSoakContract} against the simulator with its defaults (asynchronous streams);
 * its long soak runs with {@code -Dcuda.graph.soak.tries=N} ({@code -Psoak}).
 */
class SimulatorFaultSoakTests implements FaultSoakContract, SimulatorUnderTest {}
