// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 the cuda-graph authors
// The kernel of the mapped-host-memory contract: it writes host memory mapped into the device's
// address space while the host reads it, and waits for the host's answers. Java reference in
// cuda.graph.conformance.kernels.MappedKernels; regenerate the PTX with regenerate.sh.

// Nanoseconds of the GPU's global timer, to bound a wait without counting SM clock cycles.
__device__ static long long now_ns() {
  long long t;
  asm volatile("mov.u64 %0, %%globaltimer;" : "=l"(t));
  return t;
}

// On one thread, publishes n values one at a time: stores values[i] = 1000 + 7 * i, makes it
// visible to the host before anything after it (__threadfence_system), publishes the count
// control[0] = i + 1, then waits until the host has acknowledged that count in control[1]. The
// flag and the counter are volatile accesses, so each is one real load or store of host memory.
// If the host does not answer within timeout_ns, stores 1 in control[2] and returns.
extern "C" __global__ void publish_each(int n, int *values, int *control, long long timeout_ns) {
  if (blockIdx.x != 0 || threadIdx.x != 0) {
    return;
  }
  volatile int *published = control;
  volatile int *acknowledged = control + 1;
  volatile int *timed_out = control + 2;
  long long deadline = now_ns() + timeout_ns;
  for (int i = 0; i < n; i++) {
    values[i] = 1000 + 7 * i;
    __threadfence_system();
    *published = i + 1;
    while (*acknowledged < i + 1) {
      if (now_ns() > deadline) {
        *timed_out = 1;
        return;
      }
      __nanosleep(1000);
    }
  }
}
