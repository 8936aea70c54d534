// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 the cuda-graph authors
package cuda.graph.conformance;

import cuda.graph.conformance.SimulatorUnderTest.Deterministic;

/**
 * Runs {@link CaptureFailureContract} against deterministic simulators, so that a failing try
 * replays exactly.
 */
class SimulatorDeterministicCaptureFailureTests implements CaptureFailureContract, Deterministic {}
