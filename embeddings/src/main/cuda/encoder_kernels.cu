// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 the cuda-graph authors
// The encoder's own kernels: everything of a BERT encoder's forward pass that is not a matrix
// product (those are cuBLASLt matmul nodes, bias and residual in their epilogues). A padded batch
// of `batch` sequences of `length` tokens is `tokens = batch * length` rows of `hidden` floats,
// token t of sequence b at row b * length + t; ids, token types and the attention mask are ints
// in the same order. Activations and weights are fp32, sums are fp32; the `_half` entry points,
// for the encoder's fp16 mode, also write (LayerNorm) or only write (attention) their rows as fp16,
// the matrix products' inputs in that mode. Java references, reading
// exactly what these kernels read, are in cuda.graph.embeddings.internal.gpu.EncoderKernels. Regenerate the
// PTX with regenerate.sh.
//
// Every kernel checks its block against the sizes it is given, so a launch with more blocks than
// rows writes nothing out of bounds. Arguments the launch cannot check (a token id outside the
// vocabulary, a row wider than the kernel's shared memory) turn the affected rows into NaN
// rather than reading or writing outside the buffers, so the error shows in the embeddings.
#include <cuda_fp16.h>
#include <cuda_runtime.h>
#include <math_constants.h>
#include <cooperative_groups.h>
#include <mma.h>
// The measurement tools' kernel timeline (in testkit's resources): nothing without -DKERNEL_TRACE.
#include "kernel_trace.cuh"

// Blocks of any multiple of WARP threads up to 1024 (the host launches 128); loops stride by
// blockDim.x, and the reductions' scratch has room for a 1024-thread block's warps.
#define WARP 32
#define MAX_WARPS 32
// The widest row the row kernels keep in shared memory (all-MiniLM's and bge-small's are 384).
#define MAX_HIDDEN 1024

__device__ __forceinline__ float warp_sum(float v) {
  for (int o = WARP / 2; o > 0; o /= 2) v += __shfl_xor_sync(0xffffffffu, v, o);
  return v;
}

__device__ __forceinline__ float warp_max(float v) {
  for (int o = WARP / 2; o > 0; o /= 2) v = fmaxf(v, __shfl_xor_sync(0xffffffffu, v, o));
  return v;
}

// Waits until the kernel before this one in the stream or graph has finished and its writes are
// visible. A kernel launched as a programmatic dependent launch starts early (its launch overlaps
// the one before) and must call this before it touches what that kernel writes; launched plainly
// it returns at once. Every kernel here calls it before reading or writing activations.
__device__ __forceinline__ void wait_for_previous_kernel() {
  asm volatile("griddepcontrol.wait;" ::: "memory");
  KERNEL_TRACE_WAITED();
}

// Lets the next kernel, if launched as a programmatic dependent launch, start its launch now; it
// still waits for this kernel's completion before it reads anything (above).
__device__ __forceinline__ void let_next_kernel_launch() {
  asm volatile("griddepcontrol.launch_dependents;" ::: "memory");
}

// Sum over the block; every thread gets the result. The first barrier lets a second call reuse
// scratch (MAX_WARPS floats of shared memory) once every thread has read the first call's result.
__device__ float block_sum(float v, float *scratch) {
  v = warp_sum(v);
  int warp = threadIdx.x / WARP, lane = threadIdx.x % WARP;
  __syncthreads();
  if (lane == 0) scratch[warp] = v;
  __syncthreads();
  float total = 0.f;
  for (int w = 0; w < blockDim.x / WARP; w++) total += scratch[w];
  return total;
}

__device__ float block_max(float v, float *scratch) {
  v = warp_max(v);
  int warp = threadIdx.x / WARP, lane = threadIdx.x % WARP;
  __syncthreads();
  if (lane == 0) scratch[warp] = v;
  __syncthreads();
  float m = scratch[0];
  for (int w = 1; w < blockDim.x / WARP; w++) m = fmaxf(m, scratch[w]);
  return m;
}

__device__ __forceinline__ void store(float *p, float v) { *p = v; }
__device__ __forceinline__ void store(__half *p, float v) { *p = __float2half_rn(v); }

// NaN into a row of out and, where given, of its fp16 copy.
__device__ void fill_nan(float *row, __half *half_row, int hidden) {
  for (int i = threadIdx.x; i < hidden; i += blockDim.x) {
    if (row) row[i] = CUDART_NAN_F;
    if (half_row) store(half_row + i, CUDART_NAN_F);
  }
}

// LayerNorm of the row in shared memory into out: (v - mean) / sqrt(var + eps) * gamma + beta,
// the variance taken about the mean (two passes over shared memory, not E[v^2] - mean^2, which
// loses digits when the mean is large against the spread). Where half_out is given, each value is
// also written to it rounded to fp16.
__device__ void normalize_row(const float *row, const float *gamma, const float *beta, float *out,
                              __half *half_out, int hidden, float eps, float *scratch) {
  float sum = 0.f;
  for (int i = threadIdx.x; i < hidden; i += blockDim.x) sum += row[i];
  float mean = block_sum(sum, scratch) / hidden;
  float squares = 0.f;
  for (int i = threadIdx.x; i < hidden; i += blockDim.x) {
    float d = row[i] - mean;
    squares += d * d;
  }
  float scale = rsqrtf(block_sum(squares, scratch) / hidden + eps);
  for (int i = threadIdx.x; i < hidden; i += blockDim.x) {
    float v = (row[i] - mean) * scale * gamma[i] + beta[i];
    out[i] = v;
    if (half_out) store(half_out + i, v);
  }
}

// x[r] = LayerNorm(word[ids[r]] + position[r % length] + type[types[r]]) for r < tokens, one
// block per row. Padded positions are embedded like any other (id 0, type 0):
// the attention mask, not the embeddings, keeps them out of the result.
__device__ void embed_row(const int *ids, const int *types, const float *word, const float *position,
                          const float *type_table, const float *gamma, const float *beta, float *x,
                          __half *x_half, int tokens, int length, int hidden, int vocabulary,
                          int positions, int type_count, float eps) {
  __shared__ float row[MAX_HIDDEN];
  __shared__ float scratch[MAX_WARPS];
  int r = blockIdx.x;
  if (r >= tokens || length < 1) return;
  wait_for_previous_kernel();
  let_next_kernel_launch();
  float *out = x + (size_t)r * hidden;
  __half *half_out = x_half ? x_half + (size_t)r * hidden : nullptr;
  int id = ids[r], type = types[r];
  int pos = r % length;
  if (hidden > MAX_HIDDEN || id < 0 || id >= vocabulary || pos >= positions || type < 0 ||
      type >= type_count) {
    fill_nan(out, half_out, hidden);
    return;
  }
  const float *w = word + (size_t)id * hidden;
  const float *p = position + (size_t)pos * hidden;
  const float *t = type_table + (size_t)type * hidden;
  for (int i = threadIdx.x; i < hidden; i += blockDim.x) row[i] = w[i] + t[i] + p[i];
  __syncthreads();
  normalize_row(row, gamma, beta, out, half_out, hidden, eps, scratch);
}

extern "C" __global__ void embed_layer_norm(const int *ids, const int *types, const float *word,
                                            const float *position, const float *type_table,
                                            const float *gamma, const float *beta, float *x,
                                            int tokens, int length, int hidden, int vocabulary,
                                            int positions, int type_count, float eps) {
  KERNEL_TRACE_SCOPE(0);
  embed_row(ids, types, word, position, type_table, gamma, beta, x, nullptr, tokens, length, hidden,
            vocabulary, positions, type_count, eps);
}

// As embed_layer_norm, and each row also into x_half, rounded to fp16.
extern "C" __global__ void embed_layer_norm_half(const int *ids, const int *types,
                                                 const float *word, const float *position,
                                                 const float *type_table, const float *gamma,
                                                 const float *beta, float *x, int tokens,
                                                 int length, int hidden, int vocabulary,
                                                 int positions, int type_count, float eps,
                                                 __half *x_half) {
  KERNEL_TRACE_SCOPE(1);
  embed_row(ids, types, word, position, type_table, gamma, beta, x, x_half, tokens, length, hidden,
            vocabulary, positions, type_count, eps);
}

// out[r] = LayerNorm(in[r]) for r < rows, one block per row; out may be in: the block reads its
// row into shared memory, and the barrier after that comes before any write.
__device__ void normalize(const float *in, const float *gamma, const float *beta, float *out,
                          __half *out_half, int rows, int hidden, float eps) {
  __shared__ float row[MAX_HIDDEN];
  __shared__ float scratch[MAX_WARPS];
  int r = blockIdx.x;
  if (r >= rows) return;
  wait_for_previous_kernel();
  let_next_kernel_launch();
  __half *half_row = out_half ? out_half + (size_t)r * hidden : nullptr;
  if (hidden > MAX_HIDDEN) {
    fill_nan(out + (size_t)r * hidden, half_row, hidden);
    return;
  }
  const float *src = in + (size_t)r * hidden;
  for (int i = threadIdx.x; i < hidden; i += blockDim.x) row[i] = src[i];
  __syncthreads();
  normalize_row(row, gamma, beta, out + (size_t)r * hidden, half_row, hidden, eps, scratch);
}

extern "C" __global__ void layer_norm(const float *in, const float *gamma, const float *beta,
                                      float *out, int rows, int hidden, float eps) {
  KERNEL_TRACE_SCOPE(2);
  normalize(in, gamma, beta, out, nullptr, rows, hidden, eps);
}

// As layer_norm, and each row also into out_half, rounded to fp16.
extern "C" __global__ void layer_norm_half(const float *in, const float *gamma, const float *beta,
                                           float *out, int rows, int hidden, float eps,
                                           __half *out_half) {
  KERNEL_TRACE_SCOPE(3);
  normalize(in, gamma, beta, out, out_half, rows, hidden, eps);
}

// Masked self-attention. Block (x, h, b) takes head h of sequence b for the queries x * Q to
// x * Q + Q - 1, Q = QUERIES (QUERIES_PER_WARP, or 1 for attention_half_short) per warp: for query i, softmax over the keys j of sequence b
// with mask[j] != 0 of scale * q_i . k_j, times V, into out[b * length + i][h * head_size ..]. qkv
// rows are Q | K | V, each heads * head_size wide (the fused projection's output). The keys come
// in tiles of KEY_TILE: the block stages a tile's K and V rows of head h in shared memory once for
// all its queries, and each warp keeps a running max, sum and weighted V per query (the softmax
// taken online), so shared memory does not grow with the length. One lane per dimension of a head,
// so head_size is at most WARP; blocks of at most ATT_MAX_WARPS warps. A sequence whose mask keeps
// no key (batch padding) gets zeros. Out is float (attention) or __half (attention_half).
#define QUERIES_PER_WARP 4
#define KEY_TILE 64
#define ATT_MAX_WARPS 8
template <typename Out, int QUERIES>
__device__ void attend(const float *qkv, const int *mask, Out *out, int batch, int length,
                       int heads, int head_size, float scale) {
  __shared__ float k_tile[KEY_TILE][WARP + 1]; // +1: lanes read one column of different rows
  __shared__ float v_tile[KEY_TILE][WARP];
  __shared__ int keep_tile[KEY_TILE];
  __shared__ float q_rows[ATT_MAX_WARPS][QUERIES][WARP];
  __shared__ float weights[ATT_MAX_WARPS][KEY_TILE];
  int h = blockIdx.y, b = blockIdx.z;
  int warp = threadIdx.x / WARP, lane = threadIdx.x % WARP, warps = blockDim.x / WARP;
  int first = blockIdx.x * warps * QUERIES; // the block's first query
  if (h >= heads || b >= batch || first >= length) return;
  wait_for_previous_kernel();
  let_next_kernel_launch();
  int hidden = heads * head_size;
  size_t stride = 3 * (size_t)hidden;
  const float *rows = qkv + (size_t)b * length * stride;
  const int *keep = mask + (size_t)b * length;
  int mine = first + warp * QUERIES; // the warp's first query
  if (head_size > WARP || warps > ATT_MAX_WARPS) {
    for (int t = 0; t < QUERIES && mine + t < length; t++)
      for (int d = lane; d < head_size; d += WARP)
        store(out + ((size_t)b * length + mine + t) * hidden + h * head_size + d, CUDART_NAN_F);
    return;
  }
  float m[QUERIES], l[QUERIES], acc[QUERIES];
  for (int t = 0; t < QUERIES; t++) {
    int i = mine + t;
    q_rows[warp][t][lane] =
        i < length && lane < head_size ? rows[i * stride + h * head_size + lane] : 0.f;
    m[t] = -CUDART_INF_F;
    l[t] = 0.f;
    acc[t] = 0.f;
  }
  for (int j0 = 0; j0 < length; j0 += KEY_TILE) {
    int n = min(KEY_TILE, length - j0);
    __syncthreads(); // every warp is done with the previous tile (and q_rows is written)
    for (int e = threadIdx.x; e < n * head_size; e += blockDim.x) {
      int j = e / head_size, d = e % head_size;
      const float *r = rows + (size_t)(j0 + j) * stride + h * head_size + d;
      k_tile[j][d] = r[hidden];
      v_tile[j][d] = r[2 * hidden];
    }
    for (int j = threadIdx.x; j < n; j += blockDim.x) keep_tile[j] = keep[j0 + j];
    __syncthreads();
    for (int t = 0; t < QUERIES && mine + t < length; t++) {
      // Lane c of the warp scores keys c and c + WARP of the tile.
      float s[KEY_TILE / WARP];
      float tile_max = -CUDART_INF_F;
      for (int c = 0; c < KEY_TILE / WARP; c++) {
        int j = c * WARP + lane;
        float score = -CUDART_INF_F;
        if (j < n && keep_tile[j] != 0) {
          float dot = 0.f;
          for (int d = 0; d < head_size; d++) dot = fmaf(q_rows[warp][t][d], k_tile[j][d], dot);
          score = dot * scale;
        }
        s[c] = score;
        tile_max = fmaxf(tile_max, score);
      }
      tile_max = warp_max(tile_max);
      if (tile_max == -CUDART_INF_F) continue; // no key of this tile kept: nothing changes
      float m_new = fmaxf(m[t], tile_max);
      float rescale = expf(m[t] - m_new); // 0 while nothing was kept before
      float sum = 0.f;
      for (int c = 0; c < KEY_TILE / WARP; c++) {
        float e = s[c] == -CUDART_INF_F ? 0.f : expf(s[c] - m_new);
        weights[warp][c * WARP + lane] = e;
        sum += e;
      }
      sum = warp_sum(sum);
      __syncwarp(); // the weights are the warp's to read
      float a = 0.f;
      if (lane < head_size)
        for (int j = 0; j < n; j++) a = fmaf(weights[warp][j], v_tile[j][lane], a);
      __syncwarp(); // read before the next query writes them
      acc[t] = acc[t] * rescale + a;
      l[t] = l[t] * rescale + sum;
      m[t] = m_new;
    }
  }
  for (int t = 0; t < QUERIES && mine + t < length; t++)
    if (lane < head_size)
      store(out + ((size_t)b * length + mine + t) * hidden + h * head_size + lane,
            l[t] > 0.f ? acc[t] / l[t] : 0.f);
}

extern "C" __global__ void attention(const float *qkv, const int *mask, float *out, int batch,
                                     int length, int heads, int head_size, float scale) {
  KERNEL_TRACE_SCOPE(4);
  attend<float, QUERIES_PER_WARP>(qkv, mask, out, batch, length, heads, head_size, scale);
}

extern "C" __global__ void attention_half(const float *qkv, const int *mask, __half *out,
                                          int batch, int length, int heads, int head_size,
                                          float scale) {
  KERNEL_TRACE_SCOPE(5);
  attend<__half, QUERIES_PER_WARP>(qkv, mask, out, batch, length, heads, head_size, scale);
}

// As attention_half, one query a warp: for short sequences (a query), where four queries a warp
// one after another would leave the GPU idle and a block per four queries costs little staging.
extern "C" __global__ void attention_half_short(const float *qkv, const int *mask, __half *out,
                                                int batch, int length, int heads, int head_size,
                                                float scale) {
  KERNEL_TRACE_SCOPE(6);
  attend<__half, 1>(qkv, mask, out, batch, length, heads, head_size, scale);
}

// x[i] = GELU(x[i]) for i < n in BERT's exact form, x/2 (1 + erf(x / sqrt 2)); a grid-stride loop.
extern "C" __global__ void gelu(float *x, long long n) {
  KERNEL_TRACE_SCOPE(7);
  wait_for_previous_kernel();
  let_next_kernel_launch();
  for (long long i = blockIdx.x * (long long)blockDim.x + threadIdx.x; i < n;
       i += (long long)gridDim.x * blockDim.x) {
    float v = x[i];
    x[i] = 0.5f * v * (1.f + erff(v * 0.70710678118654752f));
  }
}

// out[b] = sequence b's pooled row divided by its L2 norm, and norms[b] = that norm, for b <
// batch; one block per sequence, one element of the row per thread and pass. Pooling is the mean
// of the sequence's rows over its mask (cls == 0), or its first row, the [CLS] token's (cls != 0).
// A sequence whose mask keeps no token (batch padding), or with cls not its first, gets zeros and
// norm 0. The norm lets the host undo the normalisation: LangChain4j averages the pooled rows of a
// long text's runs, then normalises.
extern "C" __global__ void pool_normalize(const float *x, const int *mask, float *out, float *norms,
                                          int batch, int length, int hidden, int cls) {
  KERNEL_TRACE_SCOPE(8);
  __shared__ float pooled[MAX_HIDDEN];
  __shared__ float scratch[MAX_WARPS];
  int b = blockIdx.x;
  if (b >= batch) return;
  wait_for_previous_kernel();
  let_next_kernel_launch();
  float *o = out + (size_t)b * hidden;
  if (hidden > MAX_HIDDEN) {
    fill_nan(o, nullptr, hidden);
    if (threadIdx.x == 0) norms[b] = CUDART_NAN_F;
    return;
  }
  const int *keep = mask + (size_t)b * length;
  const float *rows = x + (size_t)b * length * hidden;
  int count = 0;
  if (cls)
    count = length > 0 && keep[0] != 0;
  else
    for (int t = 0; t < length; t++) count += keep[t] != 0;
  float squares = 0.f;
  for (int i = threadIdx.x; i < hidden; i += blockDim.x) {
    float v = 0.f;
    if (count > 0 && cls) {
      v = rows[i];
    } else if (count > 0) {
      float sum = 0.f;
      for (int t = 0; t < length; t++)
        if (keep[t] != 0) sum += rows[(size_t)t * hidden + i];
      v = sum / count;
    }
    pooled[i] = v;
    squares += v * v;
  }
  float norm = sqrtf(block_sum(squares, scratch)); // its barriers also publish the pooled row
  float inv = norm > 0.f ? 1.f / norm : 0.f;
  for (int i = threadIdx.x; i < hidden; i += blockDim.x) o[i] = pooled[i] * inv;
  if (threadIdx.x == 0) norms[b] = norm;
}

// ---------------------------------------------------------------------------------------------
// The products of a query (fp16 mode, at most QUERY_ROWS tokens): out = f(a W + bias) with a the
// fp16 rows of width k, W [k, n] row-major fp16 (the layout the weights are stored in). Block
// (x, y) owns NB columns of QUERY_ROWS rows, from y * QUERY_ROWS. The nodes of a query's pass are tiny (a 1 x 32 query's QKV
// product is 28 MFLOP over 0.9 MB of weights) and dependent, so what costs is each kernel's own
// latency: the block copies its slice of W into shared memory before it waits for the kernel
// before it (the weights do not depend on it), and only the activations, 24 to 96 KB, are read
// after. On the tensor cores (wmma 16 x 16 x 16, fp32 accumulators): QUERY_ROWS / 16 row tiles by
// NB / 16 column tiles, the block's QUERY_WARPS warps split the k steps among as many warps as
// there are tiles, their partial tiles summed in the epilogue in a fixed order.
//
// Epilogues: QUERY_BIAS out (fp32) = a W + bias (fp32), the attention's Q | K | V;
// QUERY_RESIDUAL out (fp32) = residual + a W + bias (fp32), an output product onto the residual
// stream (out may be residual); QUERY_GELU out (fp16) = GELU(a W + bias (fp16)), the exact erf
// form, the feed-forward's inner rows. A block's rows past `rows` are zeros in shared memory and
// are not written.
//
// The block checks what it relies on: k a multiple of 16, n of NB, a and W 16-byte aligned (its
// copies are 16 bytes), QUERY_WARPS warps, and the dynamic shared memory query_linear_bytes gives;
// otherwise it writes NaN over its columns of its rows.
#define QUERY_ROWS 32
#define QUERY_WARPS 8
#define QUERY_PAD 8 // fp16 padding of each shared row, so the rows of a tile start on other banks
#define QUERY_BIAS 0
#define QUERY_RESIDUAL 1
#define QUERY_GELU 2

__device__ __forceinline__ void copy_16_async(void *shared, const void *global) {
  unsigned s = (unsigned)__cvta_generic_to_shared(shared);
  asm volatile("cp.async.cg.shared.global [%0], [%1], 16;" ::"r"(s), "l"(global) : "memory");
}

__device__ __forceinline__ bool aligned_16(const void *p) {
  return ((unsigned long long)p & 15ull) == 0;
}

// The dynamic shared memory of a block: W's slice, the rows, the warps' partial tiles, the bias.
__host__ __device__ constexpr int query_linear_bytes(int nb, int k) {
  return k * (nb + QUERY_PAD) * 2 + QUERY_ROWS * (k + QUERY_PAD) * 2 +
         QUERY_WARPS / (QUERY_ROWS / 16 * (nb / 16)) * QUERY_ROWS * nb * 4 + nb * 4;
}

template <int NB, int EPILOGUE>
__device__ void query_linear(const __half *a, const __half *w, const void *bias,
                             const float *residual, void *out, int rows, int n, int k) {
  using namespace nvcuda;
  constexpr int COLUMN_TILES = NB / 16, TILES = QUERY_ROWS / 16 * COLUMN_TILES;
  constexpr int SPLITS = QUERY_WARPS / TILES;
  constexpr int PER_THREAD = QUERY_ROWS * NB / (QUERY_WARPS * WARP); // epilogue elements
  extern __shared__ __align__(128) unsigned char query_shared[];
  int col0 = blockIdx.x * NB, row0 = blockIdx.y * QUERY_ROWS;
  if (col0 >= n || row0 >= rows) return;
  int m = min(rows - row0, QUERY_ROWS); // the block's rows
  int ldw = NB + QUERY_PAD, lda = k + QUERY_PAD;
  __half *w_rows = (__half *)query_shared;   // [k][ldw]
  __half *a_rows = w_rows + (size_t)k * ldw; // [QUERY_ROWS][lda]
  float *partial = (float *)(a_rows + (size_t)QUERY_ROWS * lda); // [SPLITS][QUERY_ROWS][NB]
  float *bias_cols = partial + SPLITS * QUERY_ROWS * NB;         // [NB]
  unsigned shared_bytes;
  asm("mov.u32 %0, %%dynamic_smem_size;" : "=r"(shared_bytes));
  bool fits = k >= 16 && k % 16 == 0 && n % NB == 0 && blockDim.x == QUERY_WARPS * WARP &&
              aligned_16(a) && aligned_16(w) &&
              shared_bytes >= (unsigned)query_linear_bytes(NB, k);
  int warp = threadIdx.x / WARP;
  // What does not depend on the kernel before: the weights' slice and the bias, both requested
  // before the wait.
  if (fits) {
    for (int e = threadIdx.x; e < k * (NB / 8); e += blockDim.x) {
      int r = e / (NB / 8), c = e % (NB / 8) * 8;
      copy_16_async(w_rows + r * ldw + c, w + (size_t)r * n + col0 + c);
    }
    for (int c = threadIdx.x; c < NB; c += blockDim.x)
      bias_cols[c] = EPILOGUE == QUERY_GELU ? __half2float(((const __half *)bias)[col0 + c])
                                            : ((const float *)bias)[col0 + c];
  }
  wait_for_previous_kernel();
  let_next_kernel_launch();
  if (!fits) {
    for (int e = threadIdx.x; e < m * NB; e += blockDim.x) {
      int c = col0 + e % NB;
      if (c >= n) continue;
      size_t at = (size_t)(row0 + e / NB) * n + c;
      if (EPILOGUE == QUERY_GELU)
        store((__half *)out + at, CUDART_NAN_F);
      else
        store((float *)out + at, CUDART_NAN_F);
    }
    return;
  }
  // The residual, written by the kernel before: its loads go out now, beside the rows'.
  float res[PER_THREAD];
  if (EPILOGUE == QUERY_RESIDUAL) {
#pragma unroll
    for (int j = 0; j < PER_THREAD; j++) {
      int e = threadIdx.x + j * QUERY_WARPS * WARP;
      res[j] = e < m * NB ? residual[(size_t)(row0 + e / NB) * n + col0 + e % NB] : 0.f;
    }
  }
  for (int e = threadIdx.x; e < QUERY_ROWS * (k / 8); e += blockDim.x) {
    int r = e / (k / 8), c = e % (k / 8) * 8;
    __half *to = a_rows + r * lda + c;
    if (r < m)
      copy_16_async(to, a + (size_t)(row0 + r) * k + c);
    else
      *(uint4 *)to = make_uint4(0u, 0u, 0u, 0u);
  }
  asm volatile("cp.async.wait_all;" ::: "memory");
  __syncthreads();
  int tile = warp % TILES, split = warp / TILES;
  int tile_row = tile / COLUMN_TILES * 16, tile_col = tile % COLUMN_TILES * 16;
  wmma::fragment<wmma::accumulator, 16, 16, 16, float> acc;
  wmma::fragment<wmma::matrix_a, 16, 16, 16, __half, wmma::row_major> fa;
  wmma::fragment<wmma::matrix_b, 16, 16, 16, __half, wmma::row_major> fb;
  wmma::fill_fragment(acc, 0.f);
  if (tile_row < m) // a tile of padding rows only adds zeros
    for (int s = split * 16; s < k; s += SPLITS * 16) {
      wmma::load_matrix_sync(fa, a_rows + tile_row * lda + s, lda);
      wmma::load_matrix_sync(fb, w_rows + s * ldw + tile_col, ldw);
      wmma::mma_sync(acc, fa, fb, acc);
    }
  wmma::store_matrix_sync(partial + (split * QUERY_ROWS + tile_row) * NB + tile_col, acc, NB,
                          wmma::mem_row_major);
  __syncthreads();
#pragma unroll
  for (int j = 0; j < PER_THREAD; j++) {
    int e = threadIdx.x + j * QUERY_WARPS * WARP;
    if (e >= m * NB) break;
    int r = e / NB, c = e % NB;
    float v = 0.f;
    for (int p = 0; p < SPLITS; p++) v += partial[(p * QUERY_ROWS + r) * NB + c];
    v += bias_cols[c];
    size_t at = (size_t)(row0 + r) * n + col0 + c;
    if (EPILOGUE == QUERY_GELU)
      store((__half *)out + at, 0.5f * v * (1.f + erff(v * 0.70710678118654752f)));
    else if (EPILOGUE == QUERY_RESIDUAL)
      store((float *)out + at, res[j] + v);
    else
      store((float *)out + at, v);
  }
}

// The attention's Q | K | V: 32 columns a block.
extern "C" __global__ void query_linear_bias(const __half *a, const __half *w, const float *bias,
                                             float *out, int rows, int n, int k) {
  KERNEL_TRACE_SCOPE(9);
  query_linear<32, QUERY_BIAS>(a, w, bias, nullptr, out, rows, n, k);
}

// The output products onto the residual stream, out = residual + a W + bias: 16 columns a block
// (n is the hidden width, 384: 24 blocks).
extern "C" __global__ void query_linear_residual(const __half *a, const __half *w,
                                                 const float *bias, const float *residual,
                                                 float *out, int rows, int n, int k) {
  KERNEL_TRACE_SCOPE(10);
  query_linear<16, QUERY_RESIDUAL>(a, w, bias, residual, out, rows, n, k);
}

// The feed-forward's up product with the exact GELU, fp16 out: 32 columns a block.
extern "C" __global__ void query_linear_gelu_half(const __half *a, const __half *w,
                                                  const __half *bias, __half *out, int rows, int n,
                                                  int k) {
  KERNEL_TRACE_SCOPE(11);
  query_linear<32, QUERY_GELU>(a, w, bias, nullptr, out, rows, n, k);
}

// ---------------------------------------------------------------------------------------------
// An output product onto the residual stream and the LayerNorm after it, in one node of the query
// path: out = LayerNorm(residual + a W + bias) in fp32, and rounded to fp16 into out_half (the
// next product's rows). LayerNorm needs whole rows and a row is 384 columns, more than one block's
// product should take, so a cluster of NORM_CLUSTER blocks shares each band of 16 or 32 rows
// (query_linear_residual_norm_16 and _32), a block for each NORM_COLUMNS columns. Each block takes
// the mean of its part of every row and the sum of squares about it, reads the other blocks' from
// their shared memory (distributed shared memory) and merges them without cancellation. The
// product is query_linear's: W's slice and the columns' bias, gamma and beta requested before the
// wait, the rows after it; SPLITS warps share each 16-column tile's k steps, their partial tiles
// written over W's slice once every warp is done with it (W's slice of the down product, 1,536 x
// 56 fp16, is most of the 227 KB a block may have, hence bands of 16 rows for it; the output
// product's rows, 384 wide, fit bands of 32, which read W's slice half as often).
//
// The block checks what it relies on: n = NORM_CLUSTER * NORM_COLUMNS (the grid's x), k a multiple
// of 16 whose slice of W can hold the partial tiles, NORM_WARPS warps, a and W 16-byte aligned,
// and the dynamic shared memory query_norm_bytes gives; otherwise it writes NaN over its columns
// of its rows, in both outputs. Each check is the same for every block of a cluster, so either all
// of a cluster's blocks meet at its barriers or none does.
#define NORM_CLUSTER 8
#define NORM_COLUMNS 48
#define NORM_WARPS 12

__host__ __device__ constexpr int query_norm_bytes(int rows, int k) {
  return k * (NORM_COLUMNS + QUERY_PAD) * 2 + rows * (k + QUERY_PAD) * 2 + 3 * NORM_COLUMNS * 4 +
         rows * 8;
}

template <int NORM_ROWS>
__device__ void residual_norm(const __half *a, const __half *w, const float *bias,
                              const float *residual, const float *gamma, const float *beta,
                              float *out, __half *out_half, int rows, int n, int k, float eps) {
  using namespace nvcuda;
  namespace cg = cooperative_groups;
  constexpr int COLUMN_TILES = NORM_COLUMNS / 16, TILES = NORM_ROWS / 16 * COLUMN_TILES;
  constexpr int SPLITS = NORM_WARPS / TILES;
  constexpr int BANDS = (NORM_ROWS + NORM_WARPS - 1) / NORM_WARPS; // rows a warp normalises
  constexpr int LANES = (NORM_COLUMNS + WARP - 1) / WARP;          // columns a lane of a row
  extern __shared__ __align__(128) unsigned char norm_shared[];
  cg::cluster_group cluster = cg::this_cluster();
  int col0 = blockIdx.x * NORM_COLUMNS, row0 = blockIdx.y * NORM_ROWS;
  if (row0 >= rows) return; // the same for the whole cluster: its blocks share blockIdx.y
  int m = min(rows - row0, NORM_ROWS);
  int ldw = NORM_COLUMNS + QUERY_PAD, lda = k + QUERY_PAD;
  __half *w_rows = (__half *)norm_shared;   // [k][ldw]
  __half *a_rows = w_rows + (size_t)k * ldw; // [NORM_ROWS][lda]
  float *bias_cols = (float *)(a_rows + (size_t)NORM_ROWS * lda);
  float *gamma_cols = bias_cols + NORM_COLUMNS, *beta_cols = gamma_cols + NORM_COLUMNS;
  float2 *row_stats = (float2 *)(beta_cols + NORM_COLUMNS); // [NORM_ROWS]: mean, squares
  float *partial = (float *)norm_shared; // [SPLITS][NORM_ROWS][NORM_COLUMNS], over W's slice
  unsigned shared_bytes;
  asm("mov.u32 %0, %%dynamic_smem_size;" : "=r"(shared_bytes));
  bool fits = n == NORM_CLUSTER * NORM_COLUMNS && gridDim.x == NORM_CLUSTER && k >= 16 &&
              k % 16 == 0 && k * ldw * 2 >= SPLITS * NORM_ROWS * NORM_COLUMNS * 4 &&
              blockDim.x == NORM_WARPS * WARP && aligned_16(a) && aligned_16(w) &&
              shared_bytes >= (unsigned)query_norm_bytes(NORM_ROWS, k);
  int warp = threadIdx.x / WARP, lane = threadIdx.x % WARP;
  if (fits) {
    for (int e = threadIdx.x; e < k * (NORM_COLUMNS / 8); e += blockDim.x) {
      int r = e / (NORM_COLUMNS / 8), c = e % (NORM_COLUMNS / 8) * 8;
      copy_16_async(w_rows + r * ldw + c, w + (size_t)r * n + col0 + c);
    }
    for (int c = threadIdx.x; c < NORM_COLUMNS; c += blockDim.x) {
      bias_cols[c] = bias[col0 + c];
      gamma_cols[c] = gamma[col0 + c];
      beta_cols[c] = beta[col0 + c];
    }
  }
  wait_for_previous_kernel();
  let_next_kernel_launch();
  if (!fits) {
    for (int e = threadIdx.x; e < m * NORM_COLUMNS; e += blockDim.x) {
      int c = col0 + e % NORM_COLUMNS;
      if (c >= n) continue;
      size_t at = (size_t)(row0 + e / NORM_COLUMNS) * n + c;
      out[at] = CUDART_NAN_F;
      out_half[at] = __float2half_rn(CUDART_NAN_F);
    }
    return;
  }
  // Warp w normalises rows w, w + NORM_WARPS, ...; lane l columns l, l + 32, ... of them. The
  // residual, written by the kernel before, is loaded now, beside the rows.
  float v[BANDS][LANES];
#pragma unroll
  for (int i = 0; i < BANDS; i++)
#pragma unroll
    for (int j = 0; j < LANES; j++) {
      int r = warp + i * NORM_WARPS, c = lane + j * WARP;
      v[i][j] = r < m && c < NORM_COLUMNS ? residual[(size_t)(row0 + r) * n + col0 + c] : 0.f;
    }
  for (int e = threadIdx.x; e < NORM_ROWS * (k / 8); e += blockDim.x) {
    int r = e / (k / 8), c = e % (k / 8) * 8;
    __half *to = a_rows + r * lda + c;
    if (r < m)
      copy_16_async(to, a + (size_t)(row0 + r) * k + c);
    else
      *(uint4 *)to = make_uint4(0u, 0u, 0u, 0u);
  }
  asm volatile("cp.async.wait_all;" ::: "memory");
  __syncthreads();
  int tile = warp % TILES, split = warp / TILES;
  int tile_row = tile / COLUMN_TILES * 16, tile_col = tile % COLUMN_TILES * 16;
  wmma::fragment<wmma::accumulator, 16, 16, 16, float> acc;
  wmma::fragment<wmma::matrix_a, 16, 16, 16, __half, wmma::row_major> fa;
  wmma::fragment<wmma::matrix_b, 16, 16, 16, __half, wmma::row_major> fb;
  wmma::fill_fragment(acc, 0.f);
  if (tile_row < m) // a tile of padding rows only adds zeros
    for (int s = split * 16; s < k; s += SPLITS * 16) {
      wmma::load_matrix_sync(fa, a_rows + tile_row * lda + s, lda);
      wmma::load_matrix_sync(fb, w_rows + s * ldw + tile_col, ldw);
      wmma::mma_sync(acc, fa, fb, acc);
    }
  __syncthreads(); // every warp is done with W's slice before the partial tiles go over it
  wmma::store_matrix_sync(partial + (split * NORM_ROWS + tile_row) * NORM_COLUMNS + tile_col, acc,
                          NORM_COLUMNS, wmma::mem_row_major);
  __syncthreads();
  // residual + (a W + bias); each row's mean over the block's columns and the sum of its squares
  // about that mean (two passes over registers).
#pragma unroll
  for (int i = 0; i < BANDS; i++) {
    int r = warp + i * NORM_WARPS;
    if (r >= NORM_ROWS) break; // the same for the whole warp
    float sum = 0.f;
#pragma unroll
    for (int j = 0; j < LANES; j++) {
      int c = lane + j * WARP;
      if (c >= NORM_COLUMNS) continue;
      float p = 0.f;
      for (int s = 0; s < SPLITS; s++) p += partial[(s * NORM_ROWS + r) * NORM_COLUMNS + c];
      p += bias_cols[c];
      v[i][j] += p;
      sum += v[i][j];
    }
    float local = warp_sum(sum) / NORM_COLUMNS, squares = 0.f;
#pragma unroll
    for (int j = 0; j < LANES; j++) {
      int c = lane + j * WARP;
      if (c >= NORM_COLUMNS) continue;
      float d = v[i][j] - local;
      squares += d * d;
    }
    squares = warp_sum(squares);
    if (lane == 0) row_stats[r] = make_float2(local, squares);
  }
  cluster.sync();
  // The row's mean and squares about it from the cluster's parts (Chan et al.'s merge of equal
  // counts: the squares about each part's mean plus the part's count times its mean's distance
  // from the row's, squared), so one exchange serves both, without E[v^2] - mean^2's cancellation.
  float mean[BANDS], scale[BANDS];
#pragma unroll
  for (int i = 0; i < BANDS; i++) {
    int r = warp + i * NORM_WARPS;
    if (r >= NORM_ROWS) break;
    float2 part = lane < NORM_CLUSTER ? cluster.map_shared_rank(row_stats, lane)[r]
                                      : make_float2(0.f, 0.f);
    mean[i] = warp_sum(part.x) / NORM_CLUSTER;
    float d = lane < NORM_CLUSTER ? part.x - mean[i] : 0.f;
    scale[i] = rsqrtf(warp_sum(part.y + NORM_COLUMNS * d * d) / n + eps);
  }
  // Done with the other blocks' shared memory: they may leave once every block has said so (the
  // wait below), while this one writes its rows.
  asm volatile("barrier.cluster.arrive.relaxed;" ::: "memory");
#pragma unroll
  for (int i = 0; i < BANDS; i++) {
    int r = warp + i * NORM_WARPS;
    if (r >= m) break;
#pragma unroll
    for (int j = 0; j < LANES; j++) {
      int c = lane + j * WARP;
      if (c >= NORM_COLUMNS) continue;
      float y = (v[i][j] - mean[i]) * scale[i] * gamma_cols[c] + beta_cols[c];
      size_t at = (size_t)(row0 + r) * n + col0 + c;
      out[at] = y;
      out_half[at] = __float2half_rn(y);
    }
  }
  asm volatile("barrier.cluster.wait;" ::: "memory"); // no block leaves while another reads it
}

// Bands of 16 rows (the down product, k = 1,536).
extern "C" __global__ void __cluster_dims__(NORM_CLUSTER, 1, 1)
    query_linear_residual_norm_16(const __half *a, const __half *w, const float *bias,
                                  const float *residual, const float *gamma, const float *beta,
                                  float *out, __half *out_half, int rows, int n, int k, float eps) {
  KERNEL_TRACE_SCOPE(12);
  residual_norm<16>(a, w, bias, residual, gamma, beta, out, out_half, rows, n, k, eps);
}

// Bands of 32 rows (the attention's output product, k = 384).
extern "C" __global__ void __cluster_dims__(NORM_CLUSTER, 1, 1)
    query_linear_residual_norm_32(const __half *a, const __half *w, const float *bias,
                                  const float *residual, const float *gamma, const float *beta,
                                  float *out, __half *out_half, int rows, int n, int k, float eps) {
  KERNEL_TRACE_SCOPE(13);
  residual_norm<32>(a, w, bias, residual, gamma, beta, out, out_half, rows, n, k, eps);
}

// ---------------------------------------------------------------------------------------------
// Masked self-attention of sequences of up to ATT_TILES_MAX_LENGTH tokens on the tensor cores
// (fp16 mode), for batches: block (h, b) takes head h of sequence b whole, with a warp for each 16
// queries of the length padded to 16. The kernels above score each key on the CUDA cores, one lane
// a dimension; a batch of 256 sequences of 48 tokens has 7 M scores a layer, and under Nsight
// Compute they were most of an ingestion batch's time. Here the block rounds the head's Q, K and V
// rows to fp16 into shared memory once (rows past the length are zeros), and warp w, for queries
// 16 w to 16 w + 15: S = Q K^T (wmma 16 x 16 x 16, fp32 sums); each row's softmax of scale * S in
// fp32 over the keys its mask keeps, the weights P = e / sum rounded to fp16; out = P V (fp32 sums)
// rounded to fp16. A query whose mask keeps no key gets zeros; padding queries within the length
// are computed like any other, as above.
//
// The block checks what it relies on: blockDim.x = 32 per 16 padded queries, 1 <= length <=
// ATT_TILES_MAX_LENGTH, head_size a multiple of 16 up to ATT_TILES_MAX_HEAD, qkv 16-byte aligned
// and out 4-byte aligned (its loads are 16 bytes, its stores half2), and the dynamic shared memory
// attention_tiles_bytes gives; otherwise it writes NaN over its head of its sequence's rows.
#define ATT_TILES_MAX_LENGTH 128
#define ATT_TILES_MAX_HEAD 64
#define ATT_TILES_PAD 8 // fp16 padding of each shared row of Q, K, V and P

// The dynamic shared memory of a block: Q, K, V [padded][head + PAD] fp16, the mask [padded]
// floats, then each warp's scores (later its output) [16][max(padded, head) + 4] floats and
// weights [16][padded + PAD] fp16.
__host__ __device__ constexpr int attention_tiles_bytes(int length, int head_size) {
  return 3 * ((length + 15) / 16 * 16) * (head_size + ATT_TILES_PAD) * 2 +
         ((length + 15) / 16 * 16) * 4 +
         ((length + 15) / 16) *
             (16 * (((length + 15) / 16 * 16 > head_size ? (length + 15) / 16 * 16 : head_size) +
                    4) * 4 +
              16 * ((length + 15) / 16 * 16 + ATT_TILES_PAD) * 2);
}

// Eight elements of a row into shared memory as fp16: from fp32 rows two 16-byte loads, rounded;
// from fp16 rows one, as they are.
__device__ __forceinline__ void stage_eight(__half *to, const float *from) {
  float4 a = *(const float4 *)from, b = *(const float4 *)(from + 4);
  *(__half2 *)to = __floats2half2_rn(a.x, a.y);
  *(__half2 *)(to + 2) = __floats2half2_rn(a.z, a.w);
  *(__half2 *)(to + 4) = __floats2half2_rn(b.x, b.y);
  *(__half2 *)(to + 6) = __floats2half2_rn(b.z, b.w);
}

__device__ __forceinline__ void stage_eight(__half *to, const __half *from) {
  *(uint4 *)to = *(const uint4 *)from;
}

template <typename In>
__device__ void attend_tiles(const In *qkv, const int *mask, __half *out, int batch, int length,
                             int heads, int head_size, float scale) {
  using namespace nvcuda;
  extern __shared__ __align__(128) unsigned char tiles_shared[];
  int h = blockIdx.x, b = blockIdx.y;
  if (h >= heads || b >= batch) return;
  int padded = (length + 15) / 16 * 16, warps = padded / 16;
  int ld = head_size + ATT_TILES_PAD, lp = padded + ATT_TILES_PAD;
  int ls = max(padded, head_size) + 4;
  unsigned shared_bytes;
  asm("mov.u32 %0, %%dynamic_smem_size;" : "=r"(shared_bytes));
  bool fits = length >= 1 && length <= ATT_TILES_MAX_LENGTH && head_size >= 16 &&
              head_size % 16 == 0 && head_size <= ATT_TILES_MAX_HEAD &&
              blockDim.x == warps * WARP && aligned_16(qkv) &&
              ((unsigned long long)out & 3ull) == 0 &&
              shared_bytes >= (unsigned)attention_tiles_bytes(length, head_size);
  wait_for_previous_kernel();
  let_next_kernel_launch();
  int hidden = heads * head_size;
  size_t stride = 3 * (size_t)hidden;
  const In *rows = qkv + (size_t)b * length * stride + h * head_size;
  __half *out_rows = out + (size_t)b * length * hidden + h * head_size;
  if (!fits) {
    for (int e = threadIdx.x; e < length * head_size; e += blockDim.x)
      store(out_rows + (size_t)(e / head_size) * hidden + e % head_size, CUDART_NAN_F);
    return;
  }
  __half *q_s = (__half *)tiles_shared; // Q, K, V one after another, [padded][ld] each
  float *keep = (float *)(q_s + 3 * padded * ld);
  int warp = threadIdx.x / WARP, lane = threadIdx.x % WARP;
  float *s = keep + padded + warp * 16 * ls;                   // [16][ls]
  __half *p = (__half *)(keep + padded + warps * 16 * ls) + warp * 16 * lp; // [16][lp]
  int eights = head_size / 8;
  for (int e = threadIdx.x; e < 3 * padded * eights; e += blockDim.x) {
    int part = e / (padded * eights), rest = e % (padded * eights);
    int t = rest / eights, d = rest % eights * 8;
    __half *to = q_s + (part * padded + t) * ld + d;
    if (t < length)
      stage_eight(to, rows + (size_t)t * stride + part * hidden + d);
    else
      *(uint4 *)to = make_uint4(0u, 0u, 0u, 0u);
  }
  for (int t = threadIdx.x; t < padded; t += blockDim.x)
    keep[t] = t < length && mask[(size_t)b * length + t] != 0 ? 1.f : 0.f;
  __syncthreads();
  const __half *k_s = q_s + padded * ld, *v_s = q_s + 2 * padded * ld;
  int q0 = warp * 16;
  wmma::fragment<wmma::matrix_a, 16, 16, 16, __half, wmma::row_major> fa;
  wmma::fragment<wmma::matrix_b, 16, 16, 16, __half, wmma::col_major> fk; // K^T
  wmma::fragment<wmma::matrix_b, 16, 16, 16, __half, wmma::row_major> fv;
  wmma::fragment<wmma::accumulator, 16, 16, 16, float> acc;
  for (int j0 = 0; j0 < padded; j0 += 16) {
    wmma::fill_fragment(acc, 0.f);
    for (int c = 0; c < head_size; c += 16) {
      wmma::load_matrix_sync(fa, q_s + q0 * ld + c, ld);
      wmma::load_matrix_sync(fk, k_s + j0 * ld + c, ld);
      wmma::mma_sync(acc, fa, fk, acc);
    }
    wmma::store_matrix_sync(s + j0, acc, ls, wmma::mem_row_major);
  }
  __syncwarp();
  // Lanes 2r and 2r + 1 take row r, the even and the odd keys.
  int r = lane / 2, side = lane % 2;
  float *score = s + r * ls;
  float m = -CUDART_INF_F;
  for (int j = side; j < length; j += 2)
    if (keep[j] != 0.f) m = fmaxf(m, score[j] * scale);
  m = fmaxf(m, __shfl_xor_sync(0xffffffffu, m, 1));
  float sum = 0.f;
  for (int j = side; j < length; j += 2) {
    float e = keep[j] != 0.f ? expf(score[j] * scale - m) : 0.f;
    score[j] = e;
    sum += e;
  }
  sum += __shfl_xor_sync(0xffffffffu, sum, 1);
  __half *weight = p + r * lp;
  for (int j = side; j < padded; j += 2)
    weight[j] = __float2half_rn(j < length && sum > 0.f ? score[j] / sum : 0.f);
  __syncwarp();
  for (int c = 0; c < head_size; c += 16) {
    wmma::fill_fragment(acc, 0.f);
    for (int j0 = 0; j0 < padded; j0 += 16) {
      wmma::load_matrix_sync(fa, p + j0, lp);
      wmma::load_matrix_sync(fv, v_s + j0 * ld + c, ld);
      wmma::mma_sync(acc, fa, fv, acc);
    }
    wmma::store_matrix_sync(s + c, acc, ls, wmma::mem_row_major); // S is spent: out in its place
  }
  __syncwarp();
  int pairs = head_size / 2;
  for (int e = lane; e < 16 * pairs; e += WARP) {
    int row = e / pairs, c = e % pairs * 2, t = q0 + row;
    if (t < length)
      *(__half2 *)(out_rows + (size_t)t * hidden + c) =
          __floats2half2_rn(s[row * ls + c], s[row * ls + c + 1]);
  }
}

extern "C" __global__ void attention_half_tiles(const float *qkv, const int *mask, __half *out,
                                                int batch, int length, int heads, int head_size,
                                                float scale) {
  KERNEL_TRACE_SCOPE(14);
  attend_tiles(qkv, mask, out, batch, length, heads, head_size, scale);
}

// As attention_half_tiles over Q | K | V rows already in fp16 (the QKV product's output in the
// fp16 mode's batches): half the bytes to read, and the same values, since the kernel above
// rounds its rows to fp16 as it stages them.
extern "C" __global__ void attention_half_tiles_half_qkv(const __half *qkv, const int *mask,
                                                         __half *out, int batch, int length,
                                                         int heads, int head_size, float scale) {
  KERNEL_TRACE_SCOPE(15);
  attend_tiles(qkv, mask, out, batch, length, heads, head_size, scale);
}
