// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 the cuda-graph authors
// Body kernels for the conditional-node GPU tests (ConditionalGpuTests). Each runs on one thread
// and sets its node's condition with cudaGraphSetConditional, which the PTX declares as an extern
// function and the driver resolves when it loads the module. Regenerate the PTX with
// ./regenerate.sh.
#include <cuda_runtime.h>

// One iteration of a WHILE loop: counts the iteration in *iterations and clears the condition
// once `limit` iterations have run, so the loop stops.
extern "C" __global__ void count_iterations(cudaGraphConditionalHandle handle,
                                            unsigned int* iterations, unsigned int limit) {
  unsigned int done = ++*iterations;
  if (done >= limit) {
    cudaGraphSetConditional(handle, 0);
  }
}

// Sets the condition to `value`: the node that decides whether an IF body runs.
extern "C" __global__ void set_condition(cudaGraphConditionalHandle handle, unsigned int value) {
  cudaGraphSetConditional(handle, value);
}
