// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 the cuda-graph authors
package cuda.graph.conformance;

import net.jqwik.api.Tag;
import net.jqwik.api.lifecycle.AddLifecycleHook;

/** Runs {@link CaptureFailureContract} against the {@code cuda} provider on a GPU host. */
@Tag("gpu")
@AddLifecycleHook(CudaUnderTest.SkipUnlessAvailable.class)
class CudaCaptureFailureTests implements CaptureFailureContract, CudaUnderTest {}
