// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 the cuda-graph authors
// The encoder's own kernels: everything of a BERT encoder's forward pass that is not a matrix
// product (those are cuBLASLt matmul nodes, bias and residual in their epilogues), and
// encode_small, the whole pass of a query in one kernel (at the end of this file). A padded batch
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
#include <mma.h>

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
  normalize(in, gamma, beta, out, nullptr, rows, hidden, eps);
}

// As layer_norm, and each row also into out_half, rounded to fp16.
extern "C" __global__ void layer_norm_half(const float *in, const float *gamma, const float *beta,
                                           float *out, int rows, int hidden, float eps,
                                           __half *out_half) {
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
  attend<float, QUERIES_PER_WARP>(qkv, mask, out, batch, length, heads, head_size, scale);
}

extern "C" __global__ void attention_half(const float *qkv, const int *mask, __half *out,
                                          int batch, int length, int heads, int head_size,
                                          float scale) {
  attend<__half, QUERIES_PER_WARP>(qkv, mask, out, batch, length, heads, head_size, scale);
}

// As attention_half, one query a warp: for short sequences (a query), where four queries a warp
// one after another would leave the GPU idle and a block per four queries costs little staging.
extern "C" __global__ void attention_half_short(const float *qkv, const int *mask, __half *out,
                                                int batch, int length, int heads, int head_size,
                                                float scale) {
  attend<__half, 1>(qkv, mask, out, batch, length, heads, head_size, scale);
}

// x[i] = GELU(x[i]) for i < n in BERT's exact form, x/2 (1 + erf(x / sqrt 2)); a grid-stride loop.
extern "C" __global__ void gelu(float *x, long long n) {
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
// encode_small: the whole forward pass of a query (a padded batch of at most 32 tokens, fp16
// weights) as one kernel, one graph node. Of a query's replay on the cuBLASLt path (44 nodes,
// about 3.5 us each), little is work: all-MiniLM's fp16 weights are 21 MB, which stay in L2
// between queries, and 32 tokens are 0.7 GFLOP. What costs is a node's launch and its tail.
//
// The work is cut into items, in phases: the embeddings (1 item); per layer, QKV with attention
// (an item a head), the output product (an item per 16 columns of H), the up product (per 16 of
// F), the down product (per 16 of H); pooling (1 item). A block takes the next item by a ticket
// (an atomic counter), waits until every item of the phase before is done (a counter a phase),
// does it, and counts it done. Tickets go out in the order blocks start, and an item waits only
// on items of lower tickets, which blocks already running hold: so every item finishes however
// many blocks are resident and whatever else the GPU runs (no co-residency is assumed, unlike a
// grid barrier). The last block to finish sets every counter back to 0 for the next launch: sync
// must be 0 before the first, and two launches on one sync buffer must not overlap (the encoder
// replays its graphs on one stream).
//
// The LayerNorm after a product is done by the items that read its rows: each block of the next
// product phase normalises all rows (at most 32 of 384) into shared memory as its fp16 operand,
// and writes the fp32 rows it owns (row r by item r % items) to x, the residual of the product
// after. So a layer is four phases. Rows past the tokens (up to the next 16) are zeros in h and
// x and finite elsewhere; nothing reads them into a real row.
//
// Memory order: an item's writes, then __syncthreads and a fence before its count (release); a
// waiting block's thread 0 loads the count with ld.acquire.gpu and fences before the barrier that
// releases its block, so the block's loads after it see every write of the phase before. The
// activations are never read through the non-coherent path (no __restrict__ const on them).
//
// Products: tensor-core wmma tiles of 16 x 16 x 16, fp16 operands, fp32 sums. A block computes a
// strip of 16 columns for every row tile (one or two), its 8 warps splitting the k steps, the
// partial tiles summed in shared memory in a fixed order; a warp issues ES_AHEAD steps' loads before
// it multiplies (the weights come from L2).
#define ES_THREADS 256
#define ES_WARPS 8
#define ES_MAX_ROWS 32
#define ES_MAX_HIDDEN 384
#define ES_MAX_HEAD 32
#define ES_LDA (ES_MAX_HIDDEN + 8)     // the fp16 operand's row stride in shared memory
#define ES_QKV_LD (3 * ES_MAX_HEAD + 1) // +1: lanes read one column of different rows
#define ES_AHEAD 8
#define ES_MAX_LAYERS 64

__device__ __forceinline__ int load_acquire(const int *p) {
  int v;
  asm volatile("ld.acquire.gpu.global.s32 %0, [%1];" : "=r"(v) : "l"(p) : "memory");
  return v;
}

// Waits until counter reaches need, for the whole block.
__device__ void es_wait(const int *counter, int need) {
  if (threadIdx.x == 0) {
    while (load_acquire(counter) < need) __nanosleep(32);
    __threadfence();
  }
  __syncthreads();
}

// out[r][c0 + c] for the rows r < 16 * row_tiles and c < 16 of a (rows x k) times w (k x n,
// row-major, fp16), handed to epi(r, c, sum) once each, after the block's barrier. a may be shared
// or global memory, lda its row stride. partial: ES_WARPS tiles of 16 x 16 floats.
template <class Epilogue>
__device__ void es_strip(const __half *a, int lda, const __half *w, int n, int c0, int k,
                         int row_tiles, float *partial, Epilogue epi) {
  using namespace nvcuda;
  int warp = threadIdx.x / WARP;
  int groups = ES_WARPS / row_tiles, tile = warp % row_tiles, group = warp / row_tiles;
  int steps = k / 16;
  wmma::fragment<wmma::accumulator, 16, 16, 16, float> acc;
  wmma::fill_fragment(acc, 0.f);
  const __half *a_rows = a + (size_t)tile * 16 * lda;
  for (int s0 = group; s0 < steps; s0 += groups * ES_AHEAD) {
    wmma::fragment<wmma::matrix_a, 16, 16, 16, __half, wmma::row_major> fa[ES_AHEAD];
    wmma::fragment<wmma::matrix_b, 16, 16, 16, __half, wmma::row_major> fb[ES_AHEAD];
#pragma unroll
    for (int i = 0; i < ES_AHEAD; i++) {
      int s = s0 + i * groups;
      if (s < steps) {
        wmma::load_matrix_sync(fb[i], w + (size_t)s * 16 * n + c0, n);
        wmma::load_matrix_sync(fa[i], a_rows + s * 16, lda);
      }
    }
#pragma unroll
    for (int i = 0; i < ES_AHEAD; i++)
      if (s0 + i * groups < steps) wmma::mma_sync(acc, fa[i], fb[i], acc);
  }
  wmma::store_matrix_sync(partial + warp * 256, acc, 16, wmma::mem_row_major);
  __syncthreads();
  for (int e = threadIdx.x; e < row_tiles * 256; e += blockDim.x) {
    int t = e / 256, rc = e % 256;
    float v = 0.f;
    for (int g = 0; g < groups; g++) v += partial[(g * row_tiles + t) * 256 + rc];
    epi(t * 16 + rc / 16, rc % 16, v);
  }
  __syncthreads(); // partial and the operand are free again
}

// LayerNorm of h's rows (tokens of them; rows up to `rows` are zeros) into a_s as fp16, and the
// fp32 rows r with r % items == item into x (where x is given). A warp a row, its values in
// registers: every load of a warp's rows is in flight at once.
__device__ void es_normalize(const float *h, const float *gamma, const float *beta, float eps,
                             int tokens, int rows, int hidden, __half *a_s, float *x, int item,
                             int items) {
  constexpr int PER_LANE = ES_MAX_HIDDEN / WARP, ROWS = ES_MAX_ROWS / ES_WARPS;
  int warp = threadIdx.x / WARP, lane = threadIdx.x % WARP;
  float v[ROWS][PER_LANE];
#pragma unroll
  for (int q = 0; q < ROWS; q++) {
    int r = warp + q * ES_WARPS;
#pragma unroll
    for (int j = 0; j < PER_LANE; j++) {
      int i = lane + j * WARP;
      v[q][j] = r < tokens && i < hidden ? h[(size_t)r * hidden + i] : 0.f;
    }
  }
#pragma unroll
  for (int q = 0; q < ROWS; q++) {
    int r = warp + q * ES_WARPS;
    if (r >= rows) continue;
    bool real = r < tokens, mine = x && r % items == item;
    float sum = 0.f;
#pragma unroll
    for (int j = 0; j < PER_LANE; j++) sum += v[q][j];
    float mean = warp_sum(sum) / hidden;
    float squares = 0.f;
#pragma unroll
    for (int j = 0; j < PER_LANE; j++) {
      int i = lane + j * WARP;
      float d = i < hidden ? v[q][j] - mean : 0.f;
      squares += d * d;
    }
    float scale = rsqrtf(warp_sum(squares) / hidden + eps);
#pragma unroll
    for (int j = 0; j < PER_LANE; j++) {
      int i = lane + j * WARP;
      if (i >= hidden) continue;
      float y = real ? (v[q][j] - mean) * scale * gamma[i] + beta[i] : 0.f;
      a_s[r * ES_LDA + i] = __float2half_rn(y);
      if (mine) x[(size_t)r * hidden + i] = y;
    }
  }
  __syncthreads();
}

extern "C" __global__ void __launch_bounds__(ES_THREADS) encode_small(
    const int *ids, const int *types, const int *mask, const float *word, const float *position,
    const float *type_table, const float *emb_gamma, const float *emb_beta, const __half *wqkv,
    const float *bqkv, const __half *wo, const float *bo, const float *g1, const float *b1,
    const __half *wu, const float *bu, const __half *wd, const float *bd, const float *g2,
    const float *b2, float *h, float *x, __half *ctx, __half *u, float *out, float *norms,
    int *sync, int batch, int length, int layers, int hidden, int heads, int ffn, int vocabulary,
    int positions, int type_count, int cls, float eps, float scale) {
  // The operand (rows x ES_LDA fp16) and the head's Q | K | V (rows x ES_QKV_LD fp32), then the
  // products' partial tiles; pooling reuses the first part.
  __shared__ __align__(32) unsigned char smem[ES_MAX_ROWS * ES_LDA * 2 +
                                              ES_MAX_ROWS * ES_QKV_LD * 4 + ES_WARPS * 256 * 4];
  __shared__ int ticket_s;
  __half *a_s = reinterpret_cast<__half *>(smem);
  float *qkv_s = reinterpret_cast<float *>(smem + ES_MAX_ROWS * ES_LDA * 2);
  float *partial =
      reinterpret_cast<float *>(smem + ES_MAX_ROWS * ES_LDA * 2 + ES_MAX_ROWS * ES_QKV_LD * 4);

  int tokens = batch * length, rows = (tokens + 15) / 16 * 16, row_tiles = rows / 16;
  int head_size = heads > 0 ? hidden / heads : 0;
  int col_items = hidden / 16, up_items = ffn / 16;
  int per_layer = heads + 2 * col_items + up_items;
  bool ok = batch >= 1 && length >= 1 && batch <= ES_MAX_ROWS && length <= ES_MAX_ROWS &&
            tokens <= ES_MAX_ROWS && hidden >= 16 && hidden <= ES_MAX_HIDDEN && hidden % 16 == 0 &&
            heads >= 1 && hidden % heads == 0 && head_size % 16 == 0 &&
            head_size <= ES_MAX_HEAD && ffn >= 16 && ffn % 16 == 0 && ffn <= (1 << 16) &&
            layers >= 1 && layers <= ES_MAX_LAYERS && blockDim.x == ES_THREADS &&
            gridDim.x == 2 + layers * per_layer;
  if (!ok) {
    if (blockIdx.x == 0 && batch >= 1 && hidden >= 1) {
      for (long long e = threadIdx.x; e < (long long)batch * hidden; e += blockDim.x)
        out[e] = CUDART_NAN_F;
      for (int b = threadIdx.x; b < batch; b += blockDim.x) norms[b] = CUDART_NAN_F;
    }
    return;
  }
  wait_for_previous_kernel();
  if (threadIdx.x == 0) ticket_s = atomicAdd(sync, 1);
  __syncthreads();
  int ticket = ticket_s;
  int *done = sync + 2; // done[p]: the items of phase p finished
  int total = gridDim.x;
  int warp = threadIdx.x / WARP, lane = threadIdx.x % WARP;

  // The ticket's phase p and item: 0 the embeddings, then four a layer, then pooling.
  int p, item, layer = 0, kind;
  if (ticket == 0) {
    p = 0;
    item = 0;
    kind = -1;
  } else if (ticket == total - 1) {
    p = 1 + 4 * layers;
    item = 0;
    kind = 4;
  } else {
    int t = ticket - 1;
    layer = t / per_layer;
    t %= per_layer;
    int counts[4] = {heads, col_items, up_items, col_items};
    kind = 0;
    while (t >= counts[kind]) t -= counts[kind++];
    item = t;
    p = 1 + 4 * layer + kind;
  }
  if (p > 0) {
    int before = p - 1, need;
    if (before == 0) need = 1;
    else switch ((before - 1) % 4) {
        case 0: need = heads; break;
        case 1: need = col_items; break;
        case 2: need = up_items; break;
        default: need = col_items;
      }
    es_wait(done + before, need);
  }

  size_t hh = (size_t)hidden * hidden;
  if (kind == -1) {
    // The embeddings, summed; their LayerNorm is the first QKV item's.
    for (int r = warp; r < rows; r += ES_WARPS) {
      float *row = h + (size_t)r * hidden;
      if (r >= tokens) {
        for (int i = lane; i < hidden; i += WARP) row[i] = 0.f;
        continue;
      }
      int id = ids[r], type = types[r], pos = r % length;
      bool bad = id < 0 || id >= vocabulary || type < 0 || type >= type_count || pos >= positions;
      for (int i = lane; i < hidden; i += WARP)
        row[i] = bad ? CUDART_NAN_F
                     : word[(size_t)id * hidden + i] + type_table[(size_t)type * hidden + i] +
                           position[(size_t)pos * hidden + i];
    }
  } else if (kind == 0) {
    // QKV of head `item` for every row, then its attention.
    const float *gamma = layer == 0 ? emb_gamma : g2 + (size_t)(layer - 1) * hidden;
    const float *beta = layer == 0 ? emb_beta : b2 + (size_t)(layer - 1) * hidden;
    es_normalize(h, gamma, beta, eps, tokens, rows, hidden, a_s, x, item, heads);
    const __half *w = wqkv + (size_t)layer * 3 * hh;
    const float *bias = bqkv + (size_t)layer * 3 * hidden;
    for (int part = 0; part < 3; part++)
      for (int c16 = 0; c16 < head_size; c16 += 16) {
        int c0 = part * hidden + item * head_size + c16;
        int at = part * head_size + c16;
        es_strip(a_s, ES_LDA, w, 3 * hidden, c0, hidden, row_tiles, partial,
                 [&](int r, int c, float v) { qkv_s[r * ES_QKV_LD + at + c] = v + bias[c0 + c]; });
      }
    // A warp a query, a lane a key (length <= 32), then a lane a dimension.
    for (int i = warp; i < rows; i += ES_WARPS) {
      __half *o = ctx + (size_t)i * hidden + item * head_size;
      if (i >= tokens) {
        if (lane < head_size) o[lane] = __float2half_rn(0.f);
        continue;
      }
      int b = i / length, first = b * length;
      float score = -CUDART_INF_F;
      if (lane < length && mask[first + lane] != 0) {
        float dot = 0.f;
        for (int d = 0; d < head_size; d++)
          dot = fmaf(qkv_s[i * ES_QKV_LD + d], qkv_s[(first + lane) * ES_QKV_LD + head_size + d], dot);
        score = dot * scale;
      }
      float m = warp_max(score);
      float e = score == -CUDART_INF_F ? 0.f : expf(score - m);
      float sum = warp_sum(e);
      float a = 0.f;
      for (int j = 0; j < length; j++) {
        float pj = __shfl_sync(0xffffffffu, e, j);
        if (lane < head_size) a = fmaf(pj, qkv_s[(first + j) * ES_QKV_LD + 2 * head_size + lane], a);
      }
      if (lane < head_size) o[lane] = __float2half_rn(m == -CUDART_INF_F ? 0.f : a / sum);
    }
  } else if (kind == 1 || kind == 3) {
    // h = ctx Wo + bo + x (kind 1), or u Wd + bd + x (kind 3): 16 columns of H.
    bool down = kind == 3;
    const __half *a = down ? u : ctx;
    const __half *w = down ? wd + (size_t)layer * ffn * hidden : wo + (size_t)layer * hh;
    const float *bias = (down ? bd : bo) + (size_t)layer * hidden;
    int c0 = item * 16, k = down ? ffn : hidden;
    es_strip(a, k, w, hidden, c0, k, row_tiles, partial, [&](int r, int c, float v) {
      size_t at = (size_t)r * hidden + c0 + c;
      h[at] = v + bias[c0 + c] + x[at];
    });
  } else if (kind == 2) {
    // u = GELU(LayerNorm(h) Wu + bu), 16 columns of F; the normalised rows it owns into x.
    es_normalize(h, g1 + (size_t)layer * hidden, b1 + (size_t)layer * hidden, eps, tokens, rows,
                 hidden, a_s, x, item, up_items);
    const __half *w = wu + (size_t)layer * hidden * ffn;
    const float *bias = bu + (size_t)layer * ffn;
    int c0 = item * 16;
    es_strip(a_s, ES_LDA, w, ffn, c0, hidden, row_tiles, partial, [&](int r, int c, float v) {
      v += bias[c0 + c];
      u[(size_t)r * ffn + c0 + c] = __float2half_rn(0.5f * v * (1.f + erff(v * 0.70710678118654752f)));
    });
  } else {
    // Pooling over LayerNorm(h) of the last layer: a warp's rows summed into its own partial
    // row, the warps' partials then summed in order (the same result every launch).
    const float *gamma = g2 + (size_t)(layers - 1) * hidden, *beta = b2 + (size_t)(layers - 1) * hidden;
    float *sums = reinterpret_cast<float *>(smem); // ES_WARPS rows of hidden
    float *pooled = sums + ES_WARPS * ES_MAX_HIDDEN;
    __shared__ float scratch[MAX_WARPS];
    for (int b = 0; b < batch; b++) {
      const int *keep = mask + (size_t)b * length;
      int count = 0;
      if (cls) count = keep[0] != 0;
      else for (int t = 0; t < length; t++) count += keep[t] != 0;
      for (int i = lane; i < hidden; i += WARP) sums[warp * ES_MAX_HIDDEN + i] = 0.f;
      for (int t = warp; t < (cls ? 1 : length); t += ES_WARPS) {
        if (keep[t] == 0) continue;
        const float *row = h + ((size_t)b * length + t) * hidden;
        float sum = 0.f;
        for (int i = lane; i < hidden; i += WARP) sum += row[i];
        float mean = warp_sum(sum) / hidden;
        float squares = 0.f;
        for (int i = lane; i < hidden; i += WARP) {
          float d = row[i] - mean;
          squares += d * d;
        }
        float inv = rsqrtf(warp_sum(squares) / hidden + eps);
        for (int i = lane; i < hidden; i += WARP)
          sums[warp * ES_MAX_HIDDEN + i] += (row[i] - mean) * inv * gamma[i] + beta[i];
      }
      __syncthreads();
      float squares = 0.f;
      for (int i = threadIdx.x; i < hidden; i += blockDim.x) {
        float v = 0.f;
        for (int w8 = 0; w8 < ES_WARPS; w8++) v += sums[w8 * ES_MAX_HIDDEN + i];
        v = count > 0 ? v / count : 0.f;
        pooled[i] = v;
        squares += v * v;
      }
      float norm = sqrtf(block_sum(squares, scratch)); // its barriers publish pooled
      float inv = norm > 0.f ? 1.f / norm : 0.f;
      for (int i = threadIdx.x; i < hidden; i += blockDim.x)
        out[(size_t)b * hidden + i] = pooled[i] * (norm > 0.f ? inv : 1.f);
      if (threadIdx.x == 0) norms[b] = norm;
      __syncthreads(); // sums and pooled are free for the next sequence
    }
  }

  __syncthreads();
  if (threadIdx.x == 0) {
    __threadfence();
    atomicAdd(done + p, 1);
    if (atomicAdd(sync + 1, 1) == total - 1) {
      // Every block has finished: the counters go back to 0 for the next launch.
      for (int c = 0; c < 4 + 4 * layers; c++) sync[c] = 0;
      __threadfence();
    }
  }
}
