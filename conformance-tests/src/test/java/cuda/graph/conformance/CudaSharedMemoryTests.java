// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 the cuda-graph authors
package cuda.graph.conformance;

import org.junit.jupiter.api.Tag;

/** Runs {@link SharedMemoryContract} against the {@code cuda} provider on a GPU host. */
@Tag("gpu")
class CudaSharedMemoryTests implements SharedMemoryContract, CudaUnderTest {}
