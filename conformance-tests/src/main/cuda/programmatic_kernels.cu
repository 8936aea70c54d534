// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 the cuda-graph authors
// The kernels of the programmatic-dependent-launch contracts (compute capability 9.0): one thread
// each on one counter. Java references in cuda.graph.conformance.kernels.ProgrammaticKernels;
// regenerate the PTX with regenerate.sh.
#include <cuda_runtime.h>

// Waits for the kernel before it, increments, then lets the next kernel start.
extern "C" __global__ void inc_after_wait(int *counter) {
  cudaGridDependencySynchronize();
  counter[0] += 1;
  cudaTriggerProgrammaticLaunchCompletion();
}

// Lets the next kernel start first (it overlaps this one), then waits and increments.
extern "C" __global__ void inc_trigger_first(int *counter) {
  cudaTriggerProgrammaticLaunchCompletion();
  cudaGridDependencySynchronize();
  counter[0] += 1;
}

// The misuse: reads the counter before waiting for the kernel before it, so under programmatic
// launch it may read a value that kernel has not yet incremented, and an increment is lost.
extern "C" __global__ void inc_reading_too_early(int *counter) {
  cudaTriggerProgrammaticLaunchCompletion();
  int seen = counter[0];
  cudaGridDependencySynchronize();
  counter[0] = seen + 1;
}
