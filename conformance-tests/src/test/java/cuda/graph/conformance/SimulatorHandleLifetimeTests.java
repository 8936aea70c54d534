package cuda.graph.conformance;

/**
 * Runs {@link HandleLifetimeContract} against the simulator with its defaults (asynchronous
 * streams).
 */
class SimulatorHandleLifetimeTests implements HandleLifetimeContract, SimulatorUnderTest {}
