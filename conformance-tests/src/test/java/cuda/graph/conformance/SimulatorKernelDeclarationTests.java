package cuda.graph.conformance;

/** Runs {@link KernelDeclarationContract} against the simulator. */
class SimulatorKernelDeclarationTests implements KernelDeclarationContract, SimulatorUnderTest {}
