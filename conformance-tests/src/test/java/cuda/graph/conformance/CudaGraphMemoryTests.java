package cuda.graph.conformance;

import org.junit.jupiter.api.Tag;

/** Runs {@link GraphMemoryContract} against the {@code cuda} provider on a GPU host. */
@Tag("gpu")
class CudaGraphMemoryTests implements GraphMemoryContract, CudaUnderTest {}
