package cuda.graph.conformance;

import org.junit.jupiter.api.Tag;

/** Runs {@link GraphCacheContract} against the {@code cuda} provider on a GPU host. */
@Tag("gpu")
class CudaGraphCacheTests implements GraphCacheContract, CudaUnderTest {}
