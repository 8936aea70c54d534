// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 the cuda-graph authors
module example.saxpy {
  requires cuda.graph;
}
