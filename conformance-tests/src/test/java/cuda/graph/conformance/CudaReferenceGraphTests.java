package cuda.graph.conformance;

import org.junit.jupiter.api.Tag;

/** Runs {@link ReferenceGraphContract} against the {@code cuda} provider on a GPU host. */
@Tag("gpu")
class CudaReferenceGraphTests implements ReferenceGraphContract, CudaUnderTest {}
