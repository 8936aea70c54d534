package cuda.graph.conformance;

import org.junit.jupiter.api.Tag;

/** Runs {@link RecordedForeignNodesContract} against the {@code cuda} provider on a GPU host. */
@Tag("gpu")
class CudaRecordedForeignNodesTests implements RecordedForeignNodesContract, CudaUnderTest {}
