// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 the cuda-graph authors
// The kernels the conformance contracts launch, on the simulator (through their Java references in
// cuda.graph.conformance.ConformanceKernels) and on a GPU (through this file's PTX).
// Regenerate the PTX with regenerate.sh after changing this file, and keep the Java references in step.

// counter[i] += 1 for i < n: each replay of a graph that launches it is visible in the counter.
extern "C" __global__ void inc(int n, int *counter) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) {
    counter[i] += 1;
  }
}

// y[i] = a * x[i] + y[i] for i < n (nvcc contracts this to one fused multiply-add).
extern "C" __global__ void saxpy(int n, float a, const float *x, float *y) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) {
    y[i] = a * x[i] + y[i];
  }
}

// One dense layer: y[j] = b[j] + sum_k w[j * in + k] * x[k] for j < out, summed in order of k
// (each step one fused multiply-add), then max(y[j], 0) when relu is non-zero.
extern "C" __global__ void dense(int in, int out, const float *w, const float *b, const float *x, float *y,
                                 int relu) {
  int j = blockIdx.x * blockDim.x + threadIdx.x;
  if (j < out) {
    float s = b[j];
    for (int k = 0; k < in; k++) {
      s = fmaf(w[j * in + k], x[k], s);
    }
    if (relu != 0 && s < 0.0f) {
      s = 0.0f;
    }
    y[j] = s;
  }
}

// counter[i] += 1 for i < n, as inc does, but through 4 KiB of static shared memory (a __shared__
// array, one int for each thread of the largest block): each thread stages its element's new value,
// and after the barrier the thread at the mirrored position of the block stores it. Blocks are
// one-dimensional. Its launches show that a block's static shared memory counts beside the dynamic.
extern "C" __global__ void inc_staged(int n, int *counter) {
  __shared__ int staged[1024];
  unsigned int t = threadIdx.x;
  unsigned int mirror = blockDim.x - 1 - t;
  int i = blockIdx.x * blockDim.x + t;
  int j = blockIdx.x * blockDim.x + mirror;
  if (i < n) {
    staged[t] = counter[i] + 1;
  }
  __syncthreads();
  if (j < n) {
    counter[j] = staged[mirror];
  }
}
