// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 the cuda-graph authors
// Probe for issue 36 item B: a product cuBLASLt's heuristic plans but cublasLtMatmul refuses.
// The product: column-major D[64x64] (f32) = A'[64x16] B[16x64], A and B f16, compute 32F, scale
// 32F, epilogue GELU_BIAS with an f32 bias, A stored transposed (16 x 64, ld 16). For each
// heuristic result it prints cublasLtMatmulAlgoCheck's status and cublasLtMatmul's, with the bias
// pointer set before or after the heuristic, and with buffers at several alignments, told to the
// heuristic (CUBLASLT_MATMUL_PREF_MIN_ALIGNMENT_*_BYTES) or not. Each case runs in a child process
// of its own: a misaligned bias faults the device, and the fault is sticky for the context.
// Build: nvcc -O2 -arch=sm_90 lt_not_supported.cu -lcublasLt -o lt_not_supported
#include <cublasLt.h>
#include <cuda_fp16.h>
#include <cuda_runtime.h>

#include <sys/wait.h>
#include <unistd.h>

#include <cstdint>
#include <cstdio>
#include <cstdlib>

#define CUDA_CK(x)                                                                 \
  do {                                                                             \
    cudaError_t e_ = (x);                                                          \
    if (e_ != cudaSuccess) {                                                       \
      std::printf("%s failed: %s\n", #x, cudaGetErrorName(e_));                    \
      std::exit(1);                                                                \
    }                                                                              \
  } while (0)

static const char *name(cublasStatus_t s) { return cublasLtGetStatusName(s); }

struct Case {
  const char *what;
  int m, n, k;
  bool transA, transB;
  cublasLtEpilogue_t epilogue;
  cudaDataType_t dType;
  size_t biasOffsetBytes;  // misalign the bias pointer
  bool biasBeforeHeuristic;
  size_t aOffsetBytes = 0;   // misalign A
  bool tellAlignment = false;  // pass A's real alignment to the heuristic
};

static void run(cublasLtHandle_t lt, const Case &c, char *pool, void *workspace, size_t wsBytes) {
  int m = c.m, n = c.n, k = c.k;
  // Column-major: A stored k x m when transposed (ld k), else m x k (ld m); B k x n (ld k) or
  // n x k (ld n) when transposed.
  int aRows = c.transA ? k : m, aCols = c.transA ? m : k;
  int bRows = c.transB ? n : k, bCols = c.transB ? k : n;
  __half *a = (__half *)(pool + c.aOffsetBytes);
  __half *b = (__half *)(pool + (1 << 20));
  char *d = pool + (2 << 20);
  char *bias = pool + (3 << 20) + c.biasOffsetBytes;
  cublasLtMatmulDesc_t desc;
  cublasLtMatmulDescCreate(&desc, CUBLAS_COMPUTE_32F, CUDA_R_32F);
  cublasOperation_t ta = c.transA ? CUBLAS_OP_T : CUBLAS_OP_N;
  cublasOperation_t tb = c.transB ? CUBLAS_OP_T : CUBLAS_OP_N;
  cublasLtMatmulDescSetAttribute(desc, CUBLASLT_MATMUL_DESC_TRANSA, &ta, sizeof(ta));
  cublasLtMatmulDescSetAttribute(desc, CUBLASLT_MATMUL_DESC_TRANSB, &tb, sizeof(tb));
  cublasLtEpilogue_t ep = c.epilogue;
  cublasLtMatmulDescSetAttribute(desc, CUBLASLT_MATMUL_DESC_EPILOGUE, &ep, sizeof(ep));
  bool hasBias = ep == CUBLASLT_EPILOGUE_BIAS || ep == CUBLASLT_EPILOGUE_GELU_BIAS ||
                 ep == CUBLASLT_EPILOGUE_RELU_BIAS;
  if (hasBias) {
    cudaDataType_t bt = CUDA_R_32F;
    cublasLtMatmulDescSetAttribute(desc, CUBLASLT_MATMUL_DESC_BIAS_DATA_TYPE, &bt, sizeof(bt));
    if (c.biasBeforeHeuristic) {
      cublasLtMatmulDescSetAttribute(desc, CUBLASLT_MATMUL_DESC_BIAS_POINTER, &bias, sizeof(bias));
    }
  }
  cublasLtMatrixLayout_t la, lb, ld;
  cublasLtMatrixLayoutCreate(&la, CUDA_R_16F, aRows, aCols, aRows);
  cublasLtMatrixLayoutCreate(&lb, CUDA_R_16F, bRows, bCols, bRows);
  cublasLtMatrixLayoutCreate(&ld, c.dType, m, n, m);
  cublasLtMatmulPreference_t pref;
  cublasLtMatmulPreferenceCreate(&pref);
  cublasLtMatmulPreferenceSetAttribute(pref, CUBLASLT_MATMUL_PREF_MAX_WORKSPACE_BYTES, &wsBytes,
                                       sizeof(wsBytes));
  if (c.tellAlignment) {
    uint32_t align = 256;
    while (align > 1 && ((uintptr_t)a % align) != 0) align /= 2;
    cublasLtMatmulPreferenceSetAttribute(pref, CUBLASLT_MATMUL_PREF_MIN_ALIGNMENT_A_BYTES, &align,
                                         sizeof(align));
  }
  cublasLtMatmulHeuristicResult_t results[16];
  int found = 0;
  cublasStatus_t h =
      cublasLtMatmulAlgoGetHeuristic(lt, desc, la, lb, ld, ld, pref, 16, results, &found);
  std::printf("case %s: heuristic %s, %d algorithms\n", c.what, name(h), found);
  if (hasBias && !c.biasBeforeHeuristic) {
    cublasLtMatmulDescSetAttribute(desc, CUBLASLT_MATMUL_DESC_BIAS_POINTER, &bias, sizeof(bias));
  }
  float alpha = 1, beta = 0;
  for (int i = 0; i < found; i++) {
    cublasLtMatmulHeuristicResult_t check;
    cublasStatus_t ck = cublasLtMatmulAlgoCheck(lt, desc, la, lb, ld, ld, &results[i].algo, &check);
    cublasStatus_t r = cublasLtMatmul(lt, desc, &alpha, a, la, b, lb, &beta, d, ld, d, ld,
                                      &results[i].algo, workspace, wsBytes, 0);
    cudaError_t sync = cudaDeviceSynchronize();
    int id = -1, tile = -1;
    size_t got = 0;
    cublasLtMatmulAlgoConfigGetAttribute(&results[i].algo, CUBLASLT_ALGO_CONFIG_ID, &id,
                                         sizeof(id), &got);
    cublasLtMatmulAlgoConfigGetAttribute(&results[i].algo, CUBLASLT_ALGO_CONFIG_TILE_ID, &tile,
                                         sizeof(tile), &got);
    std::printf("  algo %d (id %d tile %d ws %zu): state %s, AlgoCheck %s, matmul %s, sync %s\n", i,
                id, tile, results[i].workspaceSize, name(results[i].state), name(ck), name(r),
                cudaGetErrorName(sync));
  }
  cublasLtMatmulPreferenceDestroy(pref);
  cublasLtMatrixLayoutDestroy(la);
  cublasLtMatrixLayoutDestroy(lb);
  cublasLtMatrixLayoutDestroy(ld);
  cublasLtMatmulDescDestroy(desc);
}

static Case cases[] = {
    {"issue: 64x64x16 A' f32-out GELU_BIAS", 64, 64, 16, true, false, CUBLASLT_EPILOGUE_GELU_BIAS,
     CUDA_R_32F, 0, false},
    {"same, bias set before heuristic", 64, 64, 16, true, false, CUBLASLT_EPILOGUE_GELU_BIAS,
     CUDA_R_32F, 0, true},
    {"same, no transpose", 64, 64, 16, false, false, CUBLASLT_EPILOGUE_GELU_BIAS, CUDA_R_32F, 0,
     false},
    {"same, B transposed too", 64, 64, 16, true, true, CUBLASLT_EPILOGUE_GELU_BIAS, CUDA_R_32F, 0,
     false},
    {"same, f16 out (f32 bias)", 64, 64, 16, true, false, CUBLASLT_EPILOGUE_GELU_BIAS, CUDA_R_16F, 0,
     false},
    {"same, bias +4 bytes", 64, 64, 16, true, false, CUBLASLT_EPILOGUE_GELU_BIAS, CUDA_R_32F, 4,
     false},
    {"same, bias +8 bytes", 64, 64, 16, true, false, CUBLASLT_EPILOGUE_GELU_BIAS, CUDA_R_32F, 8,
     false},
    {"same, bias +16 bytes", 64, 64, 16, true, false, CUBLASLT_EPILOGUE_GELU_BIAS, CUDA_R_32F, 16,
     false},
    {"same, bias +32 bytes", 64, 64, 16, true, false, CUBLASLT_EPILOGUE_GELU_BIAS, CUDA_R_32F, 32,
     false},
    {"same, A +16 bytes, heuristic not told", 64, 64, 16, true, false, CUBLASLT_EPILOGUE_GELU_BIAS,
     CUDA_R_32F, 0, false, 16, false},
    {"same, A +16 bytes, heuristic told", 64, 64, 16, true, false, CUBLASLT_EPILOGUE_GELU_BIAS,
     CUDA_R_32F, 0, false, 16, true},
    {"same, A +2 bytes, heuristic not told", 64, 64, 16, true, false, CUBLASLT_EPILOGUE_GELU_BIAS,
     CUDA_R_32F, 0, false, 2, false},
    {"same, A +2 bytes, heuristic told", 64, 64, 16, true, false, CUBLASLT_EPILOGUE_GELU_BIAS,
     CUDA_R_32F, 0, false, 2, true},
    {"256x256x64 no epilogue, A +16 bytes, not told", 256, 256, 64, false, false,
     CUBLASLT_EPILOGUE_DEFAULT, CUDA_R_32F, 0, false, 16, false},
    {"256x256x64 no epilogue, A +16 bytes, told", 256, 256, 64, false, false,
     CUBLASLT_EPILOGUE_DEFAULT, CUDA_R_32F, 0, false, 16, true},
};

static int runCase(const Case &c) {
  cublasLtHandle_t lt;
  if (cublasLtCreate(&lt) != CUBLAS_STATUS_SUCCESS) {
    std::printf("cublasLtCreate failed\n");
    return 1;
  }
  char *pool;
  CUDA_CK(cudaMalloc(&pool, 4 << 20));
  CUDA_CK(cudaMemset(pool, 0, 4 << 20));
  void *ws;
  size_t wsBytes = 32u << 20;
  CUDA_CK(cudaMalloc(&ws, wsBytes));
  run(lt, c, pool, ws, wsBytes);
  cublasLtDestroy(lt);
  return 0;
}

int main() {
  std::printf("cuBLASLt version %zu\n", cublasLtGetVersion());
  std::fflush(stdout);
  for (const Case &c : cases) {
    pid_t child = fork();
    if (child == 0) {
      int rc = runCase(c);
      std::fflush(stdout);
      _exit(rc);
    }
    int status = 0;
    waitpid(child, &status, 0);
  }
  return 0;
}
