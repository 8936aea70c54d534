// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 the cuda-graph authors
package cuda.graph.conformance;

class SimulatorNodeChangesFuzzTests implements NodeChangesFuzzContract, SimulatorUnderTest {}
