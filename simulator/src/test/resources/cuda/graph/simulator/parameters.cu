// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 the cuda-graph authors
// The kernels of parameters.cubin, which ParamInfoTests reads as the driver does. Rebuild with
//   nvcc -cubin -arch=sm_90 -o parameters.cubin parameters.cu
// (CUDA 13.0). ptxas describes small parameter lists with EIATTR_KPARAM_INFO records and, once
// the parameters pass 4 KiB, with EIATTR_KPARAM_INFO_V2 records: mixed has both kinds of list.

extern "C" __global__ void saxpy(int n, float a, const float *x, float *y) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) {
    y[i] = a * x[i] + y[i];
  }
}

extern "C" __global__ void none() {}

struct Large {
  int values[1100];
};

extern "C" __global__ void mixed(char c, short s, double d, Large large, int *out) {
  out[0] = c + s + static_cast<int>(d) + large.values[7];
}
