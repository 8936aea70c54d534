package cuda.graph.conformance;

/**
 * Runs {@link CaptureFailureContract} against the simulator with its defaults (asynchronous
 * streams).
 */
class SimulatorCaptureFailureTests implements CaptureFailureContract, SimulatorUnderTest {}
