package cuda.graph.conformance;

/**
 * Runs {@link ReferenceGraphContract} against the simulator with its defaults (asynchronous
 * streams).
 */
class SimulatorReferenceGraphTests implements ReferenceGraphContract, SimulatorUnderTest {}
