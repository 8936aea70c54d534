// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 the cuda-graph authors
// y[i] = a * x[i] + y[i] for i < n.
extern "C" __global__ void saxpy(int n, float a, const float *x, float *y) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) {
    y[i] = a * x[i] + y[i];
  }
}
