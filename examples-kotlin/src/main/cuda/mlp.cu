// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 the cuda-graph authors
// One dense layer of the MLP example: y = act(W x + b), W row-major out x in, one thread per output.
// act is ReLU when relu != 0. Regenerate the PTX with regenerate.sh.
extern "C" __global__ void dense(int in, int out, const float *w, const float *b, const float *x, float *y, int relu) {
  int j = blockIdx.x * blockDim.x + threadIdx.x;
  if (j >= out) return;
  float acc = b[j];
  const float *row = w + (long long)j * in;
  for (int i = 0; i < in; i++) acc += row[i] * x[i];
  y[j] = (relu && acc < 0.0f) ? 0.0f : acc;
}
