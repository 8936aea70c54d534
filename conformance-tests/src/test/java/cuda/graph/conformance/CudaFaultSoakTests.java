// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 the cuda-graph authors
package cuda.graph.conformance;

import net.jqwik.api.Tag;
import net.jqwik.api.lifecycle.AddLifecycleHook;

/**
 * Runs {@link FaultSoakContract} against the {@code cuda} provider on a GPU host; its long soak
 * runs with {@code JAVA_OPTS=-Dcuda.graph.soak.tries=N}.
 */
@Tag("gpu")
@AddLifecycleHook(CudaUnderTest.SkipUnlessAvailable.class)
class CudaFaultSoakTests implements FaultSoakContract, CudaUnderTest {}
