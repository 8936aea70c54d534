// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 the cuda-graph authors
// Kernels the GPU tests of the cuda provider launch. extern "C" keeps the names unmangled, so
// cuModuleGetFunction finds them by their plain names. Regenerate the PTX with ./regenerate.sh.

// y[i] = a * x[i] + y[i]
extern "C" __global__ void saxpy(float a, const float* x, float* y, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) {
    y[i] = a * x[i] + y[i];
  }
}

// p[i] = value
extern "C" __global__ void fill_u32(unsigned int* p, unsigned int value, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) {
    p[i] = value;
  }
}

// p[i] += value
extern "C" __global__ void add_u32(unsigned int* p, unsigned int value, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) {
    p[i] += value;
  }
}

// Busy-waits for about `cycles` SM clock cycles, to keep a stream busy for a known time.
extern "C" __global__ void spin(long long cycles) {
  long long start = clock64();
  while (clock64() - start < cycles) {
  }
}
