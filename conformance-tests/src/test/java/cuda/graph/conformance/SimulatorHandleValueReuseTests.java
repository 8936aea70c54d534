// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 the cuda-graph authors
package cuda.graph.conformance;

/** Runs {@link HandleValueReuseContract} against the simulator, which reuses values as bound. */
class SimulatorHandleValueReuseTests implements HandleValueReuseContract, SimulatorUnderTest {}
