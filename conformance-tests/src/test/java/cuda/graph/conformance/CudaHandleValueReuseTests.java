// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 the cuda-graph authors
package cuda.graph.conformance;

import org.junit.jupiter.api.Tag;

/**
 * Runs {@link HandleValueReuseContract} against the {@code cuda} provider on a GPU host: the
 * simulator's model of handle values, checked against the real driver.
 */
@Tag("gpu")
class CudaHandleValueReuseTests implements HandleValueReuseContract, CudaUnderTest {}
