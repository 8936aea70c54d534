// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 the cuda-graph authors
// The anchors' kernel: one thread adds 1 to one int. Regenerate the PTX with regenerate.sh.
extern "C" __global__ void inc(int *counter) {
  *counter += 1;
}
