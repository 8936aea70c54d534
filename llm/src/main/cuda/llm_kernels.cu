// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 the cuda-graph authors
// The LLM engine's kernels: one batched step of a Llama model over a paged KV cache. A step of T
// tokens (decode tokens and prefill chunks of several sequences together) is embed, then per layer
// rms_norm, the QKV product (cuBLASLt), rope_cache, attention, the output product (cuBLASLt, added
// to the residual stream), rms_norm, the gate/up product, silu_mul, the down product (added); then
// gather_rms_norm of each sequence's last token, the lm_head product and sample.
//
// Types: T is the weights' type (float, __half or __nv_bfloat16), each kernel instantiated for the
// three (suffixes _f32, _f16, _bf16). The residual stream x and the products' fp32 outputs (QKV,
// gate/up, logits) are fp32; what feeds a product (the normalised rows, the attention's context,
// the SwiGLU activations) and the KV cache are T. Norms, RoPE, softmax and sampling compute in
// fp32. A token whose position is negative is padding: it writes nothing to the cache and reads
// nothing from it.
//
// Java references, doing the same arithmetic in the same order where it matters, are in
// cuda.graph.llm.internal.engine.LlmKernels. Regenerate the PTX with regenerate.sh.
#include <cuda_bf16.h>
#include <cuda_fp16.h>
#include <cuda_runtime.h>

#define WARP 32
#define BLOCK_SIZE 16    // tokens of a KV cache block (KvCache.BLOCK_SIZE)
#define MAX_HEAD_DIM 256 // a lane holds head_dim / 32 dimensions (LlmKernels.MAX_HEAD_DIM)
#define ATT_WARPS 4

__device__ __forceinline__ float to_float(float v) { return v; }
__device__ __forceinline__ float to_float(__half v) { return __half2float(v); }
__device__ __forceinline__ float to_float(__nv_bfloat16 v) { return __bfloat162float(v); }

template <class T> __device__ __forceinline__ T from_float(float v);
template <> __device__ __forceinline__ float from_float<float>(float v) { return v; }
template <> __device__ __forceinline__ __half from_float<__half>(float v) {
  return __float2half_rn(v);
}
template <> __device__ __forceinline__ __nv_bfloat16 from_float<__nv_bfloat16>(float v) {
  return __float2bfloat16_rn(v);
}

__device__ __forceinline__ float warp_sum(float v) {
  for (int o = WARP / 2; o > 0; o /= 2) v += __shfl_xor_sync(0xffffffffu, v, o);
  return v;
}

__device__ __forceinline__ float warp_max(float v) {
  for (int o = WARP / 2; o > 0; o /= 2) v = fmaxf(v, __shfl_xor_sync(0xffffffffu, v, o));
  return v;
}

// Sum over the block (at most 32 warps); every thread gets it. Reuses its shared scratch.
__device__ float block_sum(float v) {
  __shared__ float scratch[32];
  v = warp_sum(v);
  int warp = threadIdx.x / WARP, lane = threadIdx.x % WARP, warps = blockDim.x / WARP;
  __syncthreads();
  if (lane == 0) scratch[warp] = v;
  __syncthreads();
  float total = 0.f;
  for (int w = 0; w < warps; w++) total += scratch[w];
  return total;
}

__device__ float block_max(float v) {
  __shared__ float scratch[32];
  v = warp_max(v);
  int warp = threadIdx.x / WARP, lane = threadIdx.x % WARP, warps = blockDim.x / WARP;
  __syncthreads();
  if (lane == 0) scratch[warp] = v;
  __syncthreads();
  float m = -INFINITY;
  for (int w = 0; w < warps; w++) m = fmaxf(m, scratch[w]);
  return m;
}

// ---- embed: x[t] = table[ids[t]] in fp32; an id outside the vocabulary gives a row of NaN.
// Grid: a block per token.
template <class T>
__device__ void embed_body(const int *ids, const T *table, float *x, int hidden, int vocab) {
  int t = blockIdx.x, id = ids[t];
  float *row = x + (size_t)t * hidden;
  for (int i = threadIdx.x; i < hidden; i += blockDim.x)
    row[i] = (id >= 0 && id < vocab) ? to_float(table[(size_t)id * hidden + i]) : __int_as_float(0x7fc00000);
}

// ---- rms_norm: out[r] = x[r] / sqrt(mean(x[r]^2) + eps) * weight, in fp32, rounded to T. Rows
// src[r] of x (r itself where src is the identity). Grid: a block per row.
template <class T>
__device__ void rms_norm_row(const float *in, const T *weight, T *out, int hidden, float eps) {
  float ss = 0.f;
  for (int i = threadIdx.x; i < hidden; i += blockDim.x) ss += in[i] * in[i];
  float scale = rsqrtf(block_sum(ss) / hidden + eps);
  for (int i = threadIdx.x; i < hidden; i += blockDim.x)
    out[i] = from_float<T>(in[i] * scale * to_float(weight[i]));
}

// ---- rope_cache: per token, q and k of qkv (fp32, [tokens, (heads + 2 kv_heads) head_dim]) are
// rotated in place for the token's position (HF's rotate_half: dimension i pairs with i + half),
// with angle position * inv_freq[i] in fp32; the rotated k and the v are written into the layer's
// cache at the token's slot, block_tables[seq][pos / BLOCK_SIZE] * BLOCK_SIZE + pos % BLOCK_SIZE.
// Grid: a block per token.
template <class T>
__device__ void rope_cache_body(float *qkv, const float *inv_freq, const int *positions,
                                const int *seq_of_token, const int *block_tables, T *k_cache,
                                T *v_cache, int heads, int kv_heads, int head_dim, int max_blocks) {
  int t = blockIdx.x, pos = positions[t];
  if (pos < 0) return;
  int half = head_dim / 2, kv_dim = kv_heads * head_dim;
  int width = (heads + 2 * kv_heads) * head_dim;
  float *row = qkv + (size_t)t * width;
  int seq = seq_of_token[t];
  long long slot = (long long)block_tables[seq * max_blocks + pos / BLOCK_SIZE] * BLOCK_SIZE +
                   pos % BLOCK_SIZE;
  int pairs = (heads + kv_heads) * half;
  for (int p = threadIdx.x; p < pairs; p += blockDim.x) {
    int head = p / half, i = p % half;
    float angle = (float)pos * inv_freq[i];
    float s, c;
    sincosf(angle, &s, &c);
    float *x = row + head * head_dim;
    float x1 = x[i], x2 = x[i + half];
    float r1 = x1 * c - x2 * s, r2 = x2 * c + x1 * s;
    x[i] = r1;
    x[i + half] = r2;
    if (head >= heads) {
      T *k = k_cache + slot * kv_dim + (head - heads) * head_dim;
      k[i] = from_float<T>(r1);
      k[i + half] = from_float<T>(r2);
    }
  }
  const float *v = row + (heads + kv_heads) * head_dim;
  for (int i = threadIdx.x; i < kv_dim; i += blockDim.x) v_cache[slot * kv_dim + i] = from_float<T>(v[i]);
}

// ---- attention: per token and head, softmax(q . k_j * scale) over the positions j <= the
// token's own in its sequence's blocks, then the weighted sum of v_j, rounded to T into out
// ([tokens, heads head_dim]). Grouped-query: head h reads kv head h / (heads / kv_heads). Each of
// the block's ATT_WARPS warps takes positions w, w + ATT_WARPS, ... with an online softmax (lanes
// over dimensions), then the warps' partial results are combined. A padding token writes zeros.
// Grid: (tokens, heads), ATT_WARPS warps a block.
template <class T>
__device__ void attention_body(const float *qkv, const T *k_cache, const T *v_cache,
                               const int *positions, const int *seq_of_token,
                               const int *block_tables, T *out, int heads, int kv_heads,
                               int head_dim, int max_blocks, float scale) {
  __shared__ float part_m[ATT_WARPS], part_l[ATT_WARPS];
  __shared__ float part_acc[ATT_WARPS][MAX_HEAD_DIM];
  int t = blockIdx.x, h = blockIdx.y, pos = positions[t];
  int warp = threadIdx.x / WARP, lane = threadIdx.x % WARP;
  T *o = out + ((size_t)t * heads + h) * head_dim;
  if (pos < 0 || head_dim > MAX_HEAD_DIM) {
    for (int d = threadIdx.x; d < head_dim; d += blockDim.x)
      o[d] = from_float<T>(pos < 0 ? 0.f : __int_as_float(0x7fc00000));
    return;
  }
  int g = h / (heads / kv_heads), kv_dim = kv_heads * head_dim;
  int width = (heads + 2 * kv_heads) * head_dim;
  const float *q = qkv + (size_t)t * width + h * head_dim;
  const int *table = block_tables + seq_of_token[t] * max_blocks;
  float qr[MAX_HEAD_DIM / WARP], acc[MAX_HEAD_DIM / WARP];
#pragma unroll
  for (int k = 0; k < MAX_HEAD_DIM / WARP; k++) {
    int d = lane + k * WARP;
    qr[k] = d < head_dim ? q[d] : 0.f;
    acc[k] = 0.f;
  }
  float m = -INFINITY, l = 0.f;
  for (int j = warp; j <= pos; j += ATT_WARPS) {
    long long slot = (long long)table[j / BLOCK_SIZE] * BLOCK_SIZE + j % BLOCK_SIZE;
    const T *kj = k_cache + slot * kv_dim + g * head_dim;
    const T *vj = v_cache + slot * kv_dim + g * head_dim;
    float dot = 0.f;
#pragma unroll
    for (int k = 0; k < MAX_HEAD_DIM / WARP; k++) {
      int d = lane + k * WARP;
      if (d < head_dim) dot += qr[k] * to_float(kj[d]);
    }
    float s = warp_sum(dot) * scale;
    float m_new = fmaxf(m, s);
    float correction = expf(m - m_new), p = expf(s - m_new);
    l = l * correction + p;
#pragma unroll
    for (int k = 0; k < MAX_HEAD_DIM / WARP; k++) {
      int d = lane + k * WARP;
      if (d < head_dim) acc[k] = acc[k] * correction + p * to_float(vj[d]);
    }
    m = m_new;
  }
  if (lane == 0) {
    part_m[warp] = m;
    part_l[warp] = l;
  }
#pragma unroll
  for (int k = 0; k < MAX_HEAD_DIM / WARP; k++) {
    int d = lane + k * WARP;
    if (d < head_dim) part_acc[warp][d] = acc[k];
  }
  __syncthreads();
  float mm = -INFINITY;
  for (int w = 0; w < ATT_WARPS; w++) mm = fmaxf(mm, part_m[w]);
  float total = 0.f;
  for (int w = 0; w < ATT_WARPS; w++)
    if (part_m[w] != -INFINITY) total += part_l[w] * expf(part_m[w] - mm);
  for (int d = threadIdx.x; d < head_dim; d += blockDim.x) {
    float sum = 0.f;
    for (int w = 0; w < ATT_WARPS; w++)
      if (part_m[w] != -INFINITY) sum += part_acc[w][d] * expf(part_m[w] - mm);
    o[d] = from_float<T>(sum / total);
  }
}

// ---- attention_grouped: the same result as attention for heads of 32, 64 or 128 and at most
// MAX_GROUP query heads a kv head, read for all of them at once: a block per (token, kv head)
// reads the kv head's keys and values once for its group of query heads (attention reads them once
// a query head). Each warp takes tiles of 32 positions (tile w, w + warps, ...): a lane scores its
// own position for every head of the group (its key row in 16-byte loads, the queries from shared
// memory), the tile's softmax is folded into the warp's running maximum and sums, then the values
// are summed with lanes over dimensions (DIMS = head_dim / 32 adjacent ones a lane), each row's
// weights passed along by shuffles. The warps' partial results are combined in warp order, so the
// result does not depend on timing. Grid: (tokens, kv_heads), 32 to 32 * MAX_ATT_WARPS threads.
#define MAX_GROUP 8
#define MAX_ATT_WARPS 16
#define GROUPED_MAX_HEAD_DIM 128

// 16 bytes of T at p (16-byte aligned), widened to 16 / sizeof(T) floats.
__device__ __forceinline__ void widen16(const float *p, float *f) {
  float4 v = *reinterpret_cast<const float4 *>(p);
  f[0] = v.x; f[1] = v.y; f[2] = v.z; f[3] = v.w;
}
__device__ __forceinline__ void widen16(const __half *p, float *f) {
  uint4 v = *reinterpret_cast<const uint4 *>(p);
  const __half2 *h = reinterpret_cast<const __half2 *>(&v);
#pragma unroll
  for (int i = 0; i < 4; i++) {
    float2 x = __half22float2(h[i]);
    f[2 * i] = x.x; f[2 * i + 1] = x.y;
  }
}
__device__ __forceinline__ void widen16(const __nv_bfloat16 *p, float *f) {
  uint4 v = *reinterpret_cast<const uint4 *>(p);
  const __nv_bfloat162 *h = reinterpret_cast<const __nv_bfloat162 *>(&v);
#pragma unroll
  for (int i = 0; i < 4; i++) {
    float2 x = __bfloat1622float2(h[i]);
    f[2 * i] = x.x; f[2 * i + 1] = x.y;
  }
}

// DIMS adjacent values of T at p, aligned to their size (a power of two), widened.
template <class T, int DIMS> struct alignas(sizeof(T) * DIMS) Lane { T v[DIMS]; };
template <class T, int DIMS> __device__ __forceinline__ void widen_lane(const T *p, float *f) {
  Lane<T, DIMS> l = *reinterpret_cast<const Lane<T, DIMS> *>(p);
#pragma unroll
  for (int k = 0; k < DIMS; k++) f[k] = to_float(l.v[k]);
}

template <class T, int DIMS>
__device__ void grouped_attention(const float *q_s, const T *k_cache, const T *v_cache,
                                  const int *table, int pos, int kvh, int group, int kv_dim,
                                  float scale, float *part_m, float *part_l, float *acc_s, T *o) {
  constexpr int HEAD_DIM = DIMS * WARP, N = 16 / sizeof(T);
  int warp = threadIdx.x / WARP, lane = threadIdx.x % WARP, warps = blockDim.x / WARP;
  float m[MAX_GROUP], l[MAX_GROUP], acc[MAX_GROUP][DIMS];
#pragma unroll
  for (int g = 0; g < MAX_GROUP; g++) {
    m[g] = -INFINITY;
    l[g] = 0.f;
#pragma unroll
    for (int k = 0; k < DIMS; k++) acc[g][k] = 0.f;
  }
  for (int tile = warp * WARP; tile <= pos; tile += warps * WARP) {
    int j = tile + lane;
    bool valid = j <= pos;
    int slot = valid ? table[j / BLOCK_SIZE] * BLOCK_SIZE + j % BLOCK_SIZE : 0;
    float s[MAX_GROUP];
#pragma unroll
    for (int g = 0; g < MAX_GROUP; g++) s[g] = 0.f;
    if (valid) {
      const T *kj = k_cache + (size_t)slot * kv_dim + kvh * HEAD_DIM;
#pragma unroll
      for (int c = 0; c < HEAD_DIM; c += N) {
        float kf[N];
        widen16(kj + c, kf);
#pragma unroll
        for (int g = 0; g < MAX_GROUP; g++) {
          if (g < group) {
#pragma unroll
            for (int e = 0; e < N; e++) s[g] += q_s[g * HEAD_DIM + c + e] * kf[e];
          }
        }
      }
    }
    float p[MAX_GROUP];
#pragma unroll
    for (int g = 0; g < MAX_GROUP; g++) {
      p[g] = 0.f;
      if (g < group) {
        float sg = valid ? s[g] * scale : -INFINITY;
        float m_new = fmaxf(m[g], warp_max(sg)); // lane 0's position is valid: finite
        float correction = expf(m[g] - m_new);
        p[g] = valid ? expf(sg - m_new) : 0.f;
        l[g] = l[g] * correction + p[g]; // this lane's share; summed over the warp at the end
#pragma unroll
        for (int k = 0; k < DIMS; k++) acc[g][k] *= correction;
        m[g] = m_new;
      }
    }
    // The tile's value rows, VB at a time: their loads are issued together, so a tile waits for
    // memory 32 / VB times rather than once a row. Rows past pos are zeros (their weights are 0).
    constexpr int VB = DIMS == 4 ? 8 : 16;
    int count = min(WARP, pos - tile + 1);
    for (int j0 = 0; j0 < count; j0 += VB) {
      float vf[VB][DIMS];
#pragma unroll
      for (int u = 0; u < VB; u++) {
        int sj = __shfl_sync(0xffffffffu, slot, j0 + u);
        if (j0 + u < count) {
          widen_lane<T, DIMS>(v_cache + (size_t)sj * kv_dim + kvh * HEAD_DIM + lane * DIMS, vf[u]);
        } else {
#pragma unroll
          for (int k = 0; k < DIMS; k++) vf[u][k] = 0.f;
        }
      }
#pragma unroll
      for (int u = 0; u < VB; u++) {
#pragma unroll
        for (int g = 0; g < MAX_GROUP; g++) {
          if (g < group) {
            float pj = __shfl_sync(0xffffffffu, p[g], j0 + u);
#pragma unroll
            for (int k = 0; k < DIMS; k++) acc[g][k] += pj * vf[u][k];
          }
        }
      }
    }
  }
#pragma unroll
  for (int g = 0; g < MAX_GROUP; g++) {
    if (g < group) {
      float lg = warp_sum(l[g]);
      if (lane == 0) {
        part_m[warp * MAX_GROUP + g] = m[g];
        part_l[warp * MAX_GROUP + g] = lg;
      }
    }
  }
  __syncthreads();
  // Warps that had no tile (m = -INFINITY) add nothing; warp 0 always has position 0.
  int active = min(warps, pos / WARP + 1);
  for (int w = 0; w < active; w++) {
    if (warp == w) {
#pragma unroll
      for (int g = 0; g < MAX_GROUP; g++) {
        if (g < group) {
          float mm = -INFINITY;
          for (int u = 0; u < active; u++) mm = fmaxf(mm, part_m[u * MAX_GROUP + g]);
          float f = expf(m[g] - mm);
#pragma unroll
          for (int k = 0; k < DIMS; k++) {
            float *a = acc_s + g * HEAD_DIM + lane * DIMS + k;
            *a = (w == 0 ? 0.f : *a) + acc[g][k] * f;
          }
        }
      }
    }
    __syncthreads();
  }
  for (int i = threadIdx.x; i < group * HEAD_DIM; i += blockDim.x) {
    int g = i / HEAD_DIM;
    float mm = -INFINITY, total = 0.f;
    for (int u = 0; u < active; u++) mm = fmaxf(mm, part_m[u * MAX_GROUP + g]);
    for (int u = 0; u < active; u++)
      total += part_l[u * MAX_GROUP + g] * expf(part_m[u * MAX_GROUP + g] - mm);
    o[i] = from_float<T>(acc_s[i] / total);
  }
}

template <class T>
__device__ void attention_grouped_body(const float *qkv, const T *k_cache, const T *v_cache,
                                       const int *positions, const int *seq_of_token,
                                       const int *block_tables, T *out, int heads, int kv_heads,
                                       int head_dim, int max_blocks, float scale) {
  __shared__ __align__(16) float q_s[MAX_GROUP * GROUPED_MAX_HEAD_DIM];
  __shared__ float acc_s[MAX_GROUP * GROUPED_MAX_HEAD_DIM];
  __shared__ float part_m[MAX_ATT_WARPS * MAX_GROUP], part_l[MAX_ATT_WARPS * MAX_GROUP];
  int t = blockIdx.x, kvh = blockIdx.y, pos = positions[t];
  int group = heads / kv_heads, width = group * head_dim;
  T *o = out + ((size_t)t * heads + (size_t)kvh * group) * head_dim; // the group's heads, adjacent
  bool shaped = group <= MAX_GROUP && blockDim.x % WARP == 0 &&
                blockDim.x <= WARP * MAX_ATT_WARPS &&
                (head_dim == 32 || head_dim == 64 || head_dim == 128);
  if (pos < 0 || !shaped) {
    for (int d = threadIdx.x; d < width; d += blockDim.x)
      o[d] = from_float<T>(pos < 0 ? 0.f : __int_as_float(0x7fc00000));
    return;
  }
  const float *q = qkv + (size_t)t * (heads + 2 * kv_heads) * head_dim + (size_t)kvh * width;
  for (int i = threadIdx.x; i < width; i += blockDim.x) q_s[i] = q[i];
  __syncthreads();
  const int *table = block_tables + seq_of_token[t] * max_blocks;
  int kv_dim = kv_heads * head_dim;
  if (head_dim == 32)
    grouped_attention<T, 1>(q_s, k_cache, v_cache, table, pos, kvh, group, kv_dim, scale, part_m,
                            part_l, acc_s, o);
  else if (head_dim == 64)
    grouped_attention<T, 2>(q_s, k_cache, v_cache, table, pos, kvh, group, kv_dim, scale, part_m,
                            part_l, acc_s, o);
  else
    grouped_attention<T, 4>(q_s, k_cache, v_cache, table, pos, kvh, group, kv_dim, scale, part_m,
                            part_l, acc_s, o);
}

// ---- silu_mul: h[t][i] = silu(gu[t][i]) * gu[t][inter + i], gu fp32 [tokens, 2 inter] (the gate
// rows, then the up rows, of one product). Grid-stride over tokens * inter.
template <class T>
__device__ void silu_mul_body(const float *gu, T *h, int tokens, int inter) {
  long long n = (long long)tokens * inter;
  for (long long e = blockIdx.x * (long long)blockDim.x + threadIdx.x; e < n;
       e += (long long)gridDim.x * blockDim.x) {
    long long t = e / inter, i = e % inter;
    float g = gu[t * 2 * inter + i], u = gu[t * 2 * inter + inter + i];
    h[e] = from_float<T>(g / (1.f + expf(-g)) * u);
  }
}

#define INSTANTIATE(SUFFIX, T)                                                                    \
  extern "C" __global__ void embed_##SUFFIX(const int *ids, const T *table, float *x, int hidden, \
                                            int vocab) {                                         \
    embed_body<T>(ids, table, x, hidden, vocab);                                                  \
  }                                                                                               \
  extern "C" __global__ void rms_norm_##SUFFIX(const float *x, const T *weight, T *out,          \
                                               int hidden, float eps) {                          \
    rms_norm_row<T>(x + (size_t)blockIdx.x * hidden, weight, out + (size_t)blockIdx.x * hidden,  \
                    hidden, eps);                                                                 \
  }                                                                                               \
  extern "C" __global__ void gather_rms_norm_##SUFFIX(const float *x, const int *rows,           \
                                                      const T *weight, T *out, int hidden,       \
                                                      float eps) {                               \
    rms_norm_row<T>(x + (size_t)rows[blockIdx.x] * hidden, weight,                               \
                    out + (size_t)blockIdx.x * hidden, hidden, eps);                              \
  }                                                                                               \
  extern "C" __global__ void rope_cache_##SUFFIX(                                                 \
      float *qkv, const float *inv_freq, const int *positions, const int *seq_of_token,          \
      const int *block_tables, T *k_cache, T *v_cache, int heads, int kv_heads, int head_dim,    \
      int max_blocks) {                                                                           \
    rope_cache_body<T>(qkv, inv_freq, positions, seq_of_token, block_tables, k_cache, v_cache,   \
                       heads, kv_heads, head_dim, max_blocks);                                    \
  }                                                                                               \
  extern "C" __global__ void attention_##SUFFIX(                                                  \
      const float *qkv, const T *k_cache, const T *v_cache, const int *positions,                \
      const int *seq_of_token, const int *block_tables, T *out, int heads, int kv_heads,         \
      int head_dim, int max_blocks, float scale) {                                               \
    attention_body<T>(qkv, k_cache, v_cache, positions, seq_of_token, block_tables, out, heads,  \
                      kv_heads, head_dim, max_blocks, scale);                                     \
  }                                                                                               \
  extern "C" __global__ void attention_grouped_##SUFFIX(                                          \
      const float *qkv, const T *k_cache, const T *v_cache, const int *positions,                \
      const int *seq_of_token, const int *block_tables, T *out, int heads, int kv_heads,         \
      int head_dim, int max_blocks, float scale) {                                               \
    attention_grouped_body<T>(qkv, k_cache, v_cache, positions, seq_of_token, block_tables, out, \
                              heads, kv_heads, head_dim, max_blocks, scale);                      \
  }                                                                                               \
  extern "C" __global__ void silu_mul_##SUFFIX(const float *gu, T *h, int tokens, int inter) {   \
    silu_mul_body<T>(gu, h, tokens, inter);                                                       \
  }

INSTANTIATE(f32, float)
INSTANTIATE(f16, __half)
INSTANTIATE(bf16, __nv_bfloat16)

// ---- sample: per sequence (a block each) the next token from its logits row (fp32, vocab wide)
// and its parameters params[5 s ..]: temperature (float bits), top_p (float bits), seed (low, high
// int), counter. Temperature <= 0: the argmax (lowest index on ties). Otherwise w_i = exp((l_i -
// max) / temperature); the nucleus is {i : w_i >= tau} for the largest tau whose nucleus holds at
// least top_p of the total (every token where top_p >= 1), found by bisection on tau's bits; u =
// uniform(seed, counter) picks, in index order, the first nucleus token whose running sum passes u
// times the nucleus's mass (the last nucleus token if rounding leaves none).
__device__ __forceinline__ unsigned long long mix64(unsigned long long z) {
  z += 0x9E3779B97F4A7C15ull;
  z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
  z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
  return z ^ (z >> 31);
}

// A float's order as an unsigned int; the key puts the value above the complemented index, so
// the largest key is the largest value with the lowest index.
__device__ __forceinline__ unsigned long long argmax_key(float v, int index) {
  unsigned int b = __float_as_uint(v);
  b = (b & 0x80000000u) ? ~b : (b | 0x80000000u);
  return ((unsigned long long)b << 32) | (unsigned int)(~index);
}

#define SAMPLE_THREADS 256

__device__ __forceinline__ unsigned long long warp_max_key(unsigned long long k) {
  for (int o = WARP / 2; o > 0; o /= 2) {
    unsigned long long other = __shfl_xor_sync(0xffffffffu, k, o);
    k = other > k ? other : k;
  }
  return k;
}

extern "C" __global__ void sample(const float *logits, const int *params, int *out, int vocab) {
  __shared__ unsigned long long best[SAMPLE_THREADS / WARP];
  __shared__ float prefix[SAMPLE_THREADS];
  __shared__ int chosen;
  __shared__ float nucleus_mass;
  int s = blockIdx.x, tid = threadIdx.x, lane = tid % WARP, warps = blockDim.x / WARP;
  const float *row = logits + (size_t)s * vocab;
  const int *p = params + 5 * s;
  float temperature = __int_as_float(p[0]), top_p = __int_as_float(p[1]);
  // The argmax: four values a load where the rows are 16-byte aligned, eight loads in flight a
  // thread (a vocabulary of 128,256 is about 16 waits for memory, not 500), then the keys' maximum
  // by shuffles. Any order gives the same key (the index is in it).
  unsigned long long key = 0;
  int start = 0;
  if (vocab % 4 == 0) {
    const float4 *row4 = reinterpret_cast<const float4 *>(row);
    int n4 = vocab / 4;
#pragma unroll 8
    for (int i = tid; i < n4; i += blockDim.x) {
      float4 v = row4[i];
      unsigned long long k0 = argmax_key(v.x, 4 * i), k1 = argmax_key(v.y, 4 * i + 1);
      unsigned long long k2 = argmax_key(v.z, 4 * i + 2), k3 = argmax_key(v.w, 4 * i + 3);
      k0 = k1 > k0 ? k1 : k0;
      k2 = k3 > k2 ? k3 : k2;
      k0 = k2 > k0 ? k2 : k0;
      key = k0 > key ? k0 : key;
    }
    start = vocab;
  }
  for (int i = start + tid; i < vocab; i += blockDim.x) {
    unsigned long long k = argmax_key(row[i], i);
    key = k > key ? k : key;
  }
  key = warp_max_key(key);
  if (lane == 0) best[tid / WARP] = key;
  __syncthreads();
  if (tid < WARP) {
    key = warp_max_key(tid < warps ? best[tid] : 0ull);
    if (tid == 0) best[0] = key;
  }
  __syncthreads();
  int argmax = (int)~(unsigned int)(best[0] & 0xffffffffull);
  if (!(temperature > 0.f)) {
    if (tid == 0) out[s] = argmax;
    return;
  }
  float max = row[argmax], inv_t = 1.f / temperature;
  // Thread tid's chunk of the vocabulary, in index order.
  int chunk = (vocab + blockDim.x - 1) / blockDim.x;
  int from = min(vocab, tid * chunk), to = min(vocab, from + chunk);
  float tau = 0.f;
  if (top_p < 1.f) {
    float total = 0.f;
    for (int i = from; i < to; i++) total += expf((row[i] - max) * inv_t);
    float need = top_p * block_sum(total);
    // The largest tau in [0, 1] (the weights' range) whose nucleus mass is at least need.
    unsigned lo = 0, hi = __float_as_uint(1.f) + 1; // mass(lo) >= need; mass(hi) < need
    while (hi - lo > 1) {
      unsigned mid = lo + (hi - lo) / 2;
      float t = __uint_as_float(mid), mass = 0.f;
      for (int i = from; i < to; i++) {
        float w = expf((row[i] - max) * inv_t);
        if (w >= t) mass += w;
      }
      if (block_sum(mass) >= need) lo = mid;
      else hi = mid;
    }
    tau = __uint_as_float(lo);
  }
  float mine = 0.f;
  int last = -1;
  for (int i = from; i < to; i++) {
    float w = expf((row[i] - max) * inv_t);
    if (w >= tau) {
      mine += w;
      last = i;
    }
  }
  prefix[tid] = mine;
  if (tid == 0) chosen = -1;
  __syncthreads();
  if (tid == 0) { // exclusive prefix sums of the chunks, serially: the order the reference sums in
    float run = 0.f;
    for (int i = 0; i < blockDim.x; i++) {
      float v = prefix[i];
      prefix[i] = run;
      run += v;
    }
    nucleus_mass = run;
  }
  __syncthreads();
  float mass = nucleus_mass;
  unsigned long long seed = ((unsigned long long)(unsigned)p[3] << 32) | (unsigned)p[2];
  unsigned long long r = mix64(seed ^ mix64((unsigned long long)(unsigned)p[4]));
  float target = (float)(r >> 40) * (1.f / 16777216.f) * mass;
  float run = prefix[tid];
  if (target >= run && target < run + mine) {
    for (int i = from; i < to; i++) {
      float w = expf((row[i] - max) * inv_t);
      if (w >= tau) {
        run += w;
        if (run > target) {
          chosen = i;
          break;
        }
      }
    }
    if (chosen < 0) chosen = last; // the chunk's own rounding
  }
  __syncthreads();
  if (tid == 0 && chosen < 0) { // rounding left the target past every chunk: the last member
    for (int i = vocab - 1; i >= 0; i--)
      if (expf((row[i] - max) * inv_t) >= tau) {
        chosen = i;
        break;
      }
  }
  __syncthreads();
  if (tid == 0) out[s] = chosen;
}
