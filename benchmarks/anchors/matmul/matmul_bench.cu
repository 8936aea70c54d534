// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 the cuda-graph authors
// Anchor measurement for issue 24: one cuBLASLt matmul per step, eager and replayed from a CUDA
// graph, in C++ on the CUDA runtime API. It makes the call the Java backend makes for a row-major
// linear layer Y[rows x out] = X[rows x in] W'[in x out] (W stored out x in, as a framework keeps
// it): cuBLASLt sees the column-major transpose, D'[out x rows] = op(W)[out x in] X'[in x rows],
// with W transposed (OP_T) and X not, fp16 A, B, C and D, fp32 compute (CUBLAS_COMPUTE_32F) and
// fp32 scale, no epilogue, and the heuristic's first algorithm under a 32 MiB workspace limit,
// asked once per shape.
//
// Build: nvcc -O2 -arch=sm_90 -I../../../examples-decode/src/main/cuda matmul_bench.cu -lcublasLt \
//          -o matmul_bench
// Run:   ./matmul_bench                       (the built-in shapes below)
//        ./matmul_bench 2048x2048x8 384x1152x16 ...   (in x out x rows, one per argument)
//        options before the shapes: -n SAMPLES (default 100), -r REPEATS (default 20)
//
// Protocol per shape and mode: 10 warm-up steps, then SAMPLES samples; a sample times REPEATS
// back-to-back steps between two events and divides by REPEATS. A step is one cublasLtMatmul call
// (eager) or one cudaGraphLaunch of a graph holding that one call (graph). Printed as CSV, per
// matmul in microseconds: the median and the 10th and 90th percentiles of the samples. The two
// modes write different D buffers, which are compared at the end of each shape (OK / MISMATCH).
//
// A third mode, decode_matvec, for up to 128 rows: the same product by the decode example's own
// matrix-vector kernel (matvec_add of examples-decode/src/main/cuda/decode_kernels.cu, the product
// kernel without a norm that decodes the output and FFN-down projections: y[r] += W[r] . x, fp16
// weights streamed through shared memory, fp32 in and out), launched as DecodeEngine launches it:
// 256 threads, 4 blocks an SM (at most one per pair of rows), 2 tiles of 16 KiB in flight. One
// launch per row of X, all rows' launches in one CUDA graph, one step being one replay of it (the
// replays add into Y; the check below starts from zeros). Its results, rounded to fp16, are
// compared with cuBLASLt's and the count of differing values is printed on stderr (information:
// the two sum in different orders). A shape whose widths the kernel cannot tile (see
// DecodeEngine.checkTiling) has no decode_matvec row, and stderr says why.
// Build with -I pointing at examples-decode/src/main/cuda.
#include <cublasLt.h>
#include <cuda_fp16.h>
#include <cuda_runtime.h>

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string>
#include <vector>

#include "decode_kernels.cu"

#define CUDA_CK(x)                                                                       \
  do {                                                                                   \
    cudaError_t e_ = (x);                                                                \
    if (e_ != cudaSuccess) {                                                             \
      std::fprintf(stderr, "%s failed: %s (%s)\n", #x, cudaGetErrorName(e_),             \
                   cudaGetErrorString(e_));                                              \
      std::exit(1);                                                                      \
    }                                                                                    \
  } while (0)

#define LT_CK(x)                                                                         \
  do {                                                                                   \
    cublasStatus_t s_ = (x);                                                             \
    if (s_ != CUBLAS_STATUS_SUCCESS) {                                                   \
      std::fprintf(stderr, "%s failed: %s (%d)\n", #x, cublasLtGetStatusName(s_), (int)s_); \
      std::exit(1);                                                                      \
    }                                                                                    \
  } while (0)

// DecodeEngine's launch of the product kernels (its STAGES and BLOCKS_PER_SM).
const int kStages = 2, kBlocksPerSm = 4;

// Why matvec_add cannot stream a rows x cols matrix (DecodeEngine.checkTiling's rules for one
// matrix), or nullptr when it can.
static const char* matvecUnfit(int rows, int cols) {
  int rowBytes = cols * 2;
  if (cols % 8 != 0) return "the columns are not a multiple of 8 (16-byte rows)";
  if (rowBytes > TILE_BYTES) return "a row is larger than a tile";
  if (rows % 2 != 0) return "the rows are odd";
  if (WARPS * rowBytes > TILE_BYTES) {
    int tileRows = WARPS;
    while (tileRows > 1 && tileRows * rowBytes > TILE_BYTES) tileRows /= 2;
    if (cols % (8 * (WARPS / tileRows)) != 0) return "the columns do not split between the warps";
  }
  return nullptr;
}

struct Shape {
  std::string name;
  int in, out, rows;
};

// Deterministic small values in [-1, 1], multiples of 1/64: exact in fp16.
__global__ void fill(__half* p, size_t n, unsigned seed) {
  for (size_t i = blockIdx.x * (size_t)blockDim.x + threadIdx.x; i < n;
       i += (size_t)gridDim.x * blockDim.x) {
    unsigned h = (unsigned)i * 2654435761u ^ seed;
    h ^= h >> 15;
    p[i] = __float2half((float)((int)(h % 129) - 64) / 64.0f);
  }
}

// Counts positions where the two results differ bit for bit.
__global__ void differ(const __half* a, const __half* b, size_t n, unsigned long long* count) {
  for (size_t i = blockIdx.x * (size_t)blockDim.x + threadIdx.x; i < n;
       i += (size_t)gridDim.x * blockDim.x) {
    if (__half_as_ushort(a[i]) != __half_as_ushort(b[i])) atomicAdd(count, 1ull);
  }
}

// x16 -> x32, element by element.
__global__ void widen(const __half* in, float* out, size_t n) {
  for (size_t i = blockIdx.x * (size_t)blockDim.x + threadIdx.x; i < n;
       i += (size_t)gridDim.x * blockDim.x)
    out[i] = __half2float(in[i]);
}

// Counts positions where the fp32 result rounded to fp16 differs from the fp16 one.
__global__ void differ32(const __half* a, const float* b, size_t n, unsigned long long* count) {
  for (size_t i = blockIdx.x * (size_t)blockDim.x + threadIdx.x; i < n;
       i += (size_t)gridDim.x * blockDim.x) {
    if (__half_as_ushort(a[i]) != __half_as_ushort(__float2half(b[i]))) atomicAdd(count, 1ull);
  }
}

static void percentiles(std::vector<double> v, double* p10, double* p50, double* p90) {
  std::sort(v.begin(), v.end());
  auto at = [&](double q) { return v[(size_t)(q * (v.size() - 1) + 0.5)]; };
  *p10 = at(0.1);
  *p50 = at(0.5);
  *p90 = at(0.9);
}

static std::vector<Shape> builtIn() {
  std::vector<Shape> shapes;
  // Llama-3.2-1B projections (in -> out) at decode batch 1, 8, 32 and 128.
  const int llama[][2] = {{2048, 2048}, {2048, 512}, {2048, 8192}, {8192, 2048}, {2048, 128256}};
  for (auto& p : llama)
    for (int b : {1, 8, 32, 128})
      shapes.push_back({"llama_" + std::to_string(p[0]) + "to" + std::to_string(p[1]) + "_b" +
                            std::to_string(b),
                        p[0], p[1], b});
  // A 384-wide encoder at 1x16, 8x32, 64x64 and 256x128 tokens.
  const int enc[][2] = {{384, 1152}, {384, 384}, {384, 1536}, {1536, 384}};
  for (auto& p : enc)
    for (int r : {16, 256, 4096, 32768})
      shapes.push_back({"encoder_" + std::to_string(p[0]) + "to" + std::to_string(p[1]) + "_r" +
                            std::to_string(r),
                        p[0], p[1], r});
  return shapes;
}

int main(int argc, char** argv) {
  int samples = 100, repeats = 20;
  std::vector<Shape> shapes;
  for (int i = 1; i < argc; i++) {
    if (!std::strcmp(argv[i], "-n") && i + 1 < argc) {
      samples = std::atoi(argv[++i]);
    } else if (!std::strcmp(argv[i], "-r") && i + 1 < argc) {
      repeats = std::atoi(argv[++i]);
    } else {
      Shape s;
      if (std::sscanf(argv[i], "%dx%dx%d", &s.in, &s.out, &s.rows) != 3 || s.in <= 0 ||
          s.out <= 0 || s.rows <= 0) {
        std::fprintf(stderr, "a shape is INxOUTxROWS, e.g. 2048x8192x32, not '%s'\n", argv[i]);
        return 2;
      }
      s.name = argv[i];
      shapes.push_back(s);
    }
  }
  if (shapes.empty()) shapes = builtIn();
  if (samples < 1 || repeats < 1) {
    std::fprintf(stderr, "-n and -r take a positive count\n");
    return 2;
  }

  const size_t workspaceLimit = 32u << 20;
  cudaStream_t stream;
  CUDA_CK(cudaStreamCreateWithFlags(&stream, cudaStreamNonBlocking));
  cublasLtHandle_t lt;
  LT_CK(cublasLtCreate(&lt));
  void* workspace;
  CUDA_CK(cudaMalloc(&workspace, workspaceLimit));
  cudaEvent_t start, stop;
  CUDA_CK(cudaEventCreate(&start));
  CUDA_CK(cudaEventCreate(&stop));
  unsigned long long* mismatches;
  CUDA_CK(cudaMalloc(&mismatches, sizeof(unsigned long long)));

  std::printf("impl,shape,in,out,rows,mode,us_per_matmul_median,us_p10,us_p90,samples,repeats,"
              "algo_workspace_bytes\n");
  for (const Shape& s : shapes) {
    const int m = s.out, n = s.rows, k = s.in;  // cuBLASLt's column-major problem
    __half *w, *x, *yEager, *yGraph;
    CUDA_CK(cudaMalloc(&w, (size_t)k * m * sizeof(__half)));
    CUDA_CK(cudaMalloc(&x, (size_t)k * n * sizeof(__half)));
    CUDA_CK(cudaMalloc(&yEager, (size_t)m * n * sizeof(__half)));
    CUDA_CK(cudaMalloc(&yGraph, (size_t)m * n * sizeof(__half)));
    fill<<<1024, 256, 0, stream>>>(w, (size_t)k * m, 1u);
    fill<<<1024, 256, 0, stream>>>(x, (size_t)k * n, 2u);
    CUDA_CK(cudaGetLastError());

    cublasLtMatmulDesc_t desc;
    LT_CK(cublasLtMatmulDescCreate(&desc, CUBLAS_COMPUTE_32F, CUDA_R_32F));
    cublasOperation_t opT = CUBLAS_OP_T, opN = CUBLAS_OP_N;
    LT_CK(cublasLtMatmulDescSetAttribute(desc, CUBLASLT_MATMUL_DESC_TRANSA, &opT, sizeof(opT)));
    LT_CK(cublasLtMatmulDescSetAttribute(desc, CUBLASLT_MATMUL_DESC_TRANSB, &opN, sizeof(opN)));
    // W stored out x in row-major is in x out column-major (ld in), used transposed.
    cublasLtMatrixLayout_t aLayout, bLayout, dLayout;
    LT_CK(cublasLtMatrixLayoutCreate(&aLayout, CUDA_R_16F, k, m, k));
    LT_CK(cublasLtMatrixLayoutCreate(&bLayout, CUDA_R_16F, k, n, k));
    LT_CK(cublasLtMatrixLayoutCreate(&dLayout, CUDA_R_16F, m, n, m));
    cublasLtMatmulPreference_t preference;
    LT_CK(cublasLtMatmulPreferenceCreate(&preference));
    uint64_t limit = workspaceLimit;
    LT_CK(cublasLtMatmulPreferenceSetAttribute(
        preference, CUBLASLT_MATMUL_PREF_MAX_WORKSPACE_BYTES, &limit, sizeof(limit)));
    cublasLtMatmulHeuristicResult_t result;
    int found = 0;
    LT_CK(cublasLtMatmulAlgoGetHeuristic(lt, desc, aLayout, bLayout, dLayout, dLayout, preference,
                                         1, &result, &found));
    if (found == 0 || result.state != CUBLAS_STATUS_SUCCESS) {
      std::fprintf(stderr, "no cuBLASLt algorithm for %s\n", s.name.c_str());
      return 1;
    }
    const float alpha = 1.0f, beta = 0.0f;
    auto matmul = [&](__half* y) {
      LT_CK(cublasLtMatmul(lt, desc, &alpha, w, aLayout, x, bLayout, &beta, y, dLayout, y, dLayout,
                           &result.algo, workspace, workspaceLimit, stream));
    };

    cudaGraph_t graph;
    cudaGraphExec_t exec;
    CUDA_CK(cudaStreamBeginCapture(stream, cudaStreamCaptureModeThreadLocal));
    matmul(yGraph);
    CUDA_CK(cudaStreamEndCapture(stream, &graph));
    CUDA_CK(cudaGraphInstantiate(&exec, graph, 0));
    CUDA_CK(cudaGraphUpload(exec, stream));

    for (int mode = 0; mode < 2; mode++) {
      auto step = [&]() {
        if (mode == 0) {
          matmul(yEager);
        } else {
          CUDA_CK(cudaGraphLaunch(exec, stream));
        }
      };
      for (int i = 0; i < 10; i++) step();
      CUDA_CK(cudaStreamSynchronize(stream));
      std::vector<double> us;
      us.reserve(samples);
      for (int i = 0; i < samples; i++) {
        CUDA_CK(cudaEventRecord(start, stream));
        for (int r = 0; r < repeats; r++) step();
        CUDA_CK(cudaEventRecord(stop, stream));
        CUDA_CK(cudaEventSynchronize(stop));
        float ms;
        CUDA_CK(cudaEventElapsedTime(&ms, start, stop));
        us.push_back(ms * 1000.0 / repeats);
      }
      double p10, p50, p90;
      percentiles(us, &p10, &p50, &p90);
      std::printf("cpp,%s,%d,%d,%d,%s,%.3f,%.3f,%.3f,%d,%d,%zu\n", s.name.c_str(), s.in, s.out,
                  s.rows, mode == 0 ? "eager" : "graph", p50, p10, p90, samples, repeats,
                  (size_t)result.workspaceSize);
    }

    const char* unfit = s.rows <= 128 ? matvecUnfit(m, k) : nullptr;
    if (unfit != nullptr)
      std::fprintf(stderr, "%s: no decode_matvec row: %s\n", s.name.c_str(), unfit);
    if (s.rows <= 128 && unfit == nullptr) {
      // The decode example's kernel, one launch per row, in one graph.
      float *x32, *y32;
      CUDA_CK(cudaMalloc(&x32, (size_t)k * n * sizeof(float)));
      CUDA_CK(cudaMalloc(&y32, (size_t)m * n * sizeof(float)));
      widen<<<1024, 256, 0, stream>>>(x, x32, (size_t)k * n);
      CUDA_CK(cudaMemsetAsync(y32, 0, (size_t)m * n * sizeof(float), stream));
      int sms = 0;
      CUDA_CK(cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, 0));
      int blocks = std::min(kBlocksPerSm * sms, (m + 1) / 2);
      size_t shared = (size_t)kStages * TILE_BYTES;  // under 48 KiB: no opt-in needed
      cudaGraph_t mvGraph;
      cudaGraphExec_t mvExec;
      CUDA_CK(cudaStreamBeginCapture(stream, cudaStreamCaptureModeThreadLocal));
      for (int j = 0; j < n; j++)
        matvec_add<<<blocks, BLOCK, shared, stream>>>(x32 + (size_t)j * k, w, y32 + (size_t)j * m,
                                                      m, k);
      CUDA_CK(cudaGetLastError());
      CUDA_CK(cudaStreamEndCapture(stream, &mvGraph));
      CUDA_CK(cudaGraphInstantiate(&mvExec, mvGraph, 0));
      CUDA_CK(cudaGraphUpload(mvExec, stream));
      // Fewer samples: a step streams W once per row.
      int mvSamples = std::min(samples, 20), mvRepeats = std::max(1, repeats * 4 / n);
      for (int i = 0; i < 3; i++) CUDA_CK(cudaGraphLaunch(mvExec, stream));
      CUDA_CK(cudaStreamSynchronize(stream));
      std::vector<double> us;
      for (int i = 0; i < mvSamples; i++) {
        CUDA_CK(cudaEventRecord(start, stream));
        for (int r = 0; r < mvRepeats; r++) CUDA_CK(cudaGraphLaunch(mvExec, stream));
        CUDA_CK(cudaEventRecord(stop, stream));
        CUDA_CK(cudaEventSynchronize(stop));
        float ms;
        CUDA_CK(cudaEventElapsedTime(&ms, start, stop));
        us.push_back(ms * 1000.0 / mvRepeats);
      }
      double p10, p50, p90;
      percentiles(us, &p10, &p50, &p90);
      std::printf("cpp,%s,%d,%d,%d,decode_matvec,%.3f,%.3f,%.3f,%d,%d,0\n", s.name.c_str(), s.in,
                  s.out, s.rows, p50, p10, p90, mvSamples, mvRepeats);
      // One replay from zeros: y = W x, rounded to fp16 and compared with cuBLASLt's.
      CUDA_CK(cudaMemsetAsync(y32, 0, (size_t)m * n * sizeof(float), stream));
      CUDA_CK(cudaGraphLaunch(mvExec, stream));
      CUDA_CK(cudaMemsetAsync(mismatches, 0, sizeof(unsigned long long), stream));
      differ32<<<1024, 256, 0, stream>>>(yEager, y32, (size_t)m * n, mismatches);
      unsigned long long mv = 0;
      CUDA_CK(cudaMemcpyAsync(&mv, mismatches, sizeof(mv), cudaMemcpyDeviceToHost, stream));
      CUDA_CK(cudaStreamSynchronize(stream));
      std::fprintf(stderr, "%s: decode matvec rounded to fp16 differs from cuBLASLt at %llu of %zu\n",
                   s.name.c_str(), mv, (size_t)m * n);
      CUDA_CK(cudaGraphExecDestroy(mvExec));
      CUDA_CK(cudaGraphDestroy(mvGraph));
      CUDA_CK(cudaFree(y32));
      CUDA_CK(cudaFree(x32));
    }

    CUDA_CK(cudaMemsetAsync(mismatches, 0, sizeof(unsigned long long), stream));
    differ<<<1024, 256, 0, stream>>>(yEager, yGraph, (size_t)m * n, mismatches);
    unsigned long long host = 0;
    CUDA_CK(cudaMemcpyAsync(&host, mismatches, sizeof(host), cudaMemcpyDeviceToHost, stream));
    CUDA_CK(cudaStreamSynchronize(stream));
    std::fprintf(stderr, "%s: eager and graph results %s\n", s.name.c_str(),
                 host == 0 ? "OK" : "MISMATCH");
    if (host != 0) return 1;

    CUDA_CK(cudaGraphExecDestroy(exec));
    CUDA_CK(cudaGraphDestroy(graph));
    LT_CK(cublasLtMatmulPreferenceDestroy(preference));
    LT_CK(cublasLtMatrixLayoutDestroy(dLayout));
    LT_CK(cublasLtMatrixLayoutDestroy(bLayout));
    LT_CK(cublasLtMatrixLayoutDestroy(aLayout));
    LT_CK(cublasLtMatmulDescDestroy(desc));
    CUDA_CK(cudaFree(yGraph));
    CUDA_CK(cudaFree(yEager));
    CUDA_CK(cudaFree(x));
    CUDA_CK(cudaFree(w));
  }
  CUDA_CK(cudaFree(mismatches));
  CUDA_CK(cudaEventDestroy(stop));
  CUDA_CK(cudaEventDestroy(start));
  CUDA_CK(cudaFree(workspace));
  LT_CK(cublasLtDestroy(lt));
  CUDA_CK(cudaStreamDestroy(stream));
  return 0;
}
