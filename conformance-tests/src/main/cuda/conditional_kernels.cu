// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 the cuda-graph authors
// The kernels the conditional-node contracts launch: they set a graph condition on the device, so
// they load as an image of their own (cudaGraphSetConditional is an extern function the driver
// resolves when it loads the module). Java references in
// cuda.graph.conformance.kernels.ConditionalKernels; regenerate the PTX with regenerate.sh.
#include <cuda_runtime.h>

// One step of a device-side loop (one thread): counter[0] -= 1, and the loop's condition becomes
// whether steps remain, so a WHILE node runs it counter[0] times, deciding on the device.
extern "C" __global__ void countdown(int *counter, cudaGraphConditionalHandle condition) {
  int left = counter[0] - 1;
  counter[0] = left;
  cudaGraphSetConditional(condition, left > 0 ? 1u : 0u);
}

// Sets a condition from device data (one thread): IF runs its body when value[0] is non-zero,
// SWITCH runs case value[0].
extern "C" __global__ void choose(const int *value, cudaGraphConditionalHandle condition) {
  cudaGraphSetConditional(condition, (unsigned int) value[0]);
}
