// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 the cuda-graph authors
// The LLM engine's kernels: one batched step of a Llama model over a paged KV cache. A step of T
// tokens (decode tokens and prefill chunks of several sequences together) is embed, then per layer
// rms_norm, the QKV product, rope_cache, attention, the output product (added to the residual
// stream), rms_norm, the gate/up product, silu_mul, the down product (added); then gather_rms_norm
// of each sequence's last token, the lm_head product, argmax_parts and sample. The products are
// cuBLASLt's, or for steps of at most 8 tokens gemv_stream (gemv_stream1 for one, gemv for rows
// longer than its tile). A step of one token normalises inside its products: gemv_norm1 is
// rms_norm and the QKV (or lm_head) product, gemv_norm_silu1 rms_norm, the gate/up product and
// silu_mul, each bit for bit what the kernels apart compute.
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
// The measurement tools' kernel timeline (in testkit's resources): nothing without -DKERNEL_TRACE.
#include "kernel_trace.cuh"

// Every kernel starts with STEP_START: it lets the next kernel of the step launch, then waits for
// the kernel before it to finish. The step launches its kernels after the first programmatically
// (programmatic dependent launch), so a kernel's launch and prologue overlap the kernel before it,
// and gemv_stream requests its first tiles of weights (which no kernel writes) before it waits.
// Launched normally, both calls return at once.
#define STEP_START                           \
  cudaTriggerProgrammaticLaunchCompletion(); \
  cudaGridDependencySynchronize();           \
  KERNEL_TRACE_WAITED()

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
// src[r] of x (r itself where src is the identity). Grid: a block per row. Where the row is whole
// 16-byte pieces that fit the block's registers (NORM_VECTORS a thread), every load of a thread is
// issued at once and the row is read once: a decode step's row is one wait for memory, not one a
// loop turn.
#define NORM_VECTORS 8

template <class T> struct alignas(4 * sizeof(T)) Four { T v[4]; };

__device__ __forceinline__ bool aligned(const void *p, size_t bytes) {
  return reinterpret_cast<size_t>(p) % bytes == 0;
}

template <class T>
__device__ void rms_norm_row(const float *in, const T *weight, T *out, int hidden, float eps) {
  int n4 = hidden / 4;
  if (hidden % 4 == 0 && n4 <= NORM_VECTORS * (int)blockDim.x && aligned(in, 16) &&
      aligned(weight, 4 * sizeof(T)) && aligned(out, 4 * sizeof(T))) {
    const float4 *in4 = reinterpret_cast<const float4 *>(in);
    float4 v[NORM_VECTORS];
    float ss = 0.f;
#pragma unroll
    for (int k = 0; k < NORM_VECTORS; k++) {
      int i = threadIdx.x + k * blockDim.x;
      v[k] = i < n4 ? in4[i] : make_float4(0.f, 0.f, 0.f, 0.f);
    }
#pragma unroll
    for (int k = 0; k < NORM_VECTORS; k++)
      ss += v[k].x * v[k].x + v[k].y * v[k].y + v[k].z * v[k].z + v[k].w * v[k].w;
    float scale = rsqrtf(block_sum(ss) / hidden + eps);
#pragma unroll
    for (int k = 0; k < NORM_VECTORS; k++) {
      int i = threadIdx.x + k * blockDim.x;
      if (i < n4) {
        Four<T> w = reinterpret_cast<const Four<T> *>(weight)[i], r;
        r.v[0] = from_float<T>(v[k].x * scale * to_float(w.v[0]));
        r.v[1] = from_float<T>(v[k].y * scale * to_float(w.v[1]));
        r.v[2] = from_float<T>(v[k].z * scale * to_float(w.v[2]));
        r.v[3] = from_float<T>(v[k].w * scale * to_float(w.v[3]));
        reinterpret_cast<Four<T> *>(out)[i] = r;
      }
    }
    return;
  }
  float ss = 0.f;
  for (int i = threadIdx.x; i < hidden; i += blockDim.x) ss += in[i] * in[i];
  float scale = rsqrtf(block_sum(ss) / hidden + eps);
  for (int i = threadIdx.x; i < hidden; i += blockDim.x)
    out[i] = from_float<T>(in[i] * scale * to_float(weight[i]));
}

// RoPE's rotation of the pair (x1, x2) by the angle whose cosine and sine are c and s, with its
// multiply-adds written out: rope_cache and gemv_norm_rope1 round alike whatever the compiler
// would contract.
__device__ __forceinline__ void rotate_pair(float &x1, float &x2, float c, float s) {
  float r1 = __fmaf_rn(x1, c, -__fmul_rn(x2, s)), r2 = __fmaf_rn(x2, c, __fmul_rn(x1, s));
  x1 = r1;
  x2 = r2;
}

// ---- rope_cache: per token, q and k of qkv (fp32, [tokens, (heads + 2 kv_heads) head_dim]) are
// rotated in place for the token's position (HF's rotate_half: dimension i pairs with i + half),
// with angle position * inv_freq[i] in fp32; the rotated k and the v are written into the layer's
// cache at the token's slot, block_tables[seq][pos / BLOCK_SIZE] * BLOCK_SIZE + pos % BLOCK_SIZE.
// Grid: a block per token, ROPE_BLOCK threads (a decode step's token in about three turns).
template <class T>
__device__ void rope_cache_body(float *__restrict__ qkv, const float *inv_freq, const int *positions,
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
    float r1 = x[i], r2 = x[i + half];
    rotate_pair(r1, r2, c, s);
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
// MAX_GROUP query heads a kv head, each kv head's keys and values read once for its whole group.
// Grid: (tokens, kv_heads, splits), GROUPED_WARPS warps a block. Split s of a token takes its
// positions [s * chunk, (s + 1) * chunk) below pos + 1, chunk = ceil((pos + 1) / splits) rounded up
// to a tile of 32, so a decode step of few tokens still spreads over the GPU. With one split the
// block writes the group's context rows; with more it writes a partial record a (split, head):
// acc[head_dim], m, l (the unnormalised sum, the running maximum, the softmax's total; an empty
// split writes m = -inf, l = 0), and attention_combine, a block per (token, head), folds the
// records in split order. So the result never depends on timing. (Folding them in the split that
// finishes last instead lost at batches 1 and 8: see docs/PERFORMANCE.md.)
// Inside a block, warp w takes tiles w, w + GROUPED_WARPS, ... of 32 positions, each brought into
// the warp's own stages of shared memory by cp.async (16 bytes a lane, whole rows at a time, so the
// reads are coalesced and in flight while the warp computes the tile before): with two stages one
// tile is in flight while the warp scores the other. A lane scores its own position for every head
// of the group (its key row from shared memory, swizzled so eight lanes' rows fall in eight bank
// groups; the queries broadcast) and the tile's softmax is folded into the warp's running maximum
// and sums; then LPR lanes share a value row, RPS rows at once, with the rows' weights from shared
// memory. The warps' results are combined in warp order.
// The kernel runs after the kernel that writes the token's own key and value (rope_cache): a
// chunk's first token requests the tiles wholly below its position before that wait, since the
// step writes only its chunks' own positions (BatchStep.Chunk) and a chunk's tokens are adjacent.
#define MAX_GROUP 8
#define GROUPED_WARPS 4
#define MAX_SPLITS 32
#define GROUPED_TABLE 128 // a split's block numbers kept in shared memory; more are read from global

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

__device__ __forceinline__ void cp_async16(void *dst, const void *src, bool full) {
  asm volatile("cp.async.cg.shared.global [%0], [%1], 16, %2;" ::"r"(
                   (unsigned)__cvta_generic_to_shared(dst)),
               "l"(src), "r"(full ? 16 : 0)
               : "memory");
}
__device__ __forceinline__ void cp_async_commit() {
  asm volatile("cp.async.commit_group;" ::: "memory");
}
template <int N> __device__ __forceinline__ void cp_async_wait() {
  asm volatile("cp.async.wait_group %0;" ::"n"(N) : "memory");
}
__device__ __forceinline__ unsigned dynamic_smem_bytes() {
  unsigned v;
  asm("mov.u32 %0, %%dynamic_smem_size;" : "=r"(v));
  return v;
}

// Where chunk c of row r of a key tile lies: XOR-swizzled so that eight consecutive rows' chunk c
// fall in eight different 16-byte bank groups (each lane reads its own row).
template <int CHUNKS> __device__ __forceinline__ int key_chunk(int r, int c) {
  return CHUNKS >= 8 ? c ^ (r & 7) : c ^ ((r / (8 / CHUNKS)) & (CHUNKS - 1));
}

// The block's dynamic shared memory (LlmKernels.groupedAttentionBytes computes the same): each
// warp's STAGES stages of a key tile then a value tile (32 rows each), the group's queries, each
// warp's tile weights, the warps' m and l, the split's block numbers. A warp's result (acc) takes
// its first stage once its tiles are done; the records' fold takes the first warp's.
template <class T, int HEAD_DIM, int G, int STAGES> struct GroupedLayout {
  static constexpr int ROW = HEAD_DIM * (int)sizeof(T), CHUNKS = ROW / 16, TILE = WARP * ROW;
  static constexpr int WARP_BYTES = STAGES * 2 * TILE;
  static constexpr int Q = GROUPED_WARPS * WARP_BYTES;
  static constexpr int P = Q + G * HEAD_DIM * 4;
  static constexpr int ML = P + GROUPED_WARPS * WARP * G * 4;
  static constexpr int TABLE = ML + 2 * GROUPED_WARPS * G * 4;
  static constexpr int BYTES = TABLE + GROUPED_TABLE * 4;
};

template <class T, int HEAD_DIM, int G, int STAGES>
__device__ void grouped_attention(unsigned char *smem, const float *q_row, const T *k_cache,
                                  const T *v_cache, const int *table, int begin, int end, int kvh,
                                  int kv_dim, float scale, int width, int early_below) {
  using L = GroupedLayout<T, HEAD_DIM, G, STAGES>;
  constexpr int N = 16 / sizeof(T), CHUNKS = L::CHUNKS, RPS = WARP / CHUNKS;
  int warp = threadIdx.x / WARP, lane = threadIdx.x % WARP;
  unsigned char *mine = smem + warp * L::WARP_BYTES;
  const float *q = reinterpret_cast<const float *>(smem + L::Q);
  float(*p)[G] = reinterpret_cast<float(*)[G]>(smem + L::P + warp * WARP * G * 4);
  const int *blocks = reinterpret_cast<const int *>(smem + L::TABLE);
  int first_block = begin / BLOCK_SIZE;
  int tiles = 0; // the warp's: begin + (warp + GROUPED_WARPS * i) * WARP
  for (int at = begin + warp * WARP; at < end; at += GROUPED_WARPS * WARP) tiles++;
  auto request = [&](int i) { // tile i into stage i % STAGES, one commit group a call
    if (i < tiles) {
      int tile = begin + (warp + GROUPED_WARPS * i) * WARP;
      unsigned char *stage = mine + (i % STAGES) * 2 * L::TILE;
#pragma unroll 8
      for (int it = 0; it < CHUNKS; it++) {
        int flat = it * WARP + lane, r = flat / CHUNKS, c = flat % CHUNKS, j = tile + r;
        bool valid = j < end;
        int b = j / BLOCK_SIZE - first_block;
        int block = valid ? (b < GROUPED_TABLE ? blocks[b] : table[j / BLOCK_SIZE]) : 0;
        size_t at = ((size_t)block * BLOCK_SIZE + j % BLOCK_SIZE) * kv_dim + kvh * HEAD_DIM + c * N;
        cp_async16(stage + r * L::ROW + key_chunk<CHUNKS>(r, c) * 16, valid ? k_cache + at : k_cache,
                   valid);
        cp_async16(stage + L::TILE + r * L::ROW + c * 16, valid ? v_cache + at : v_cache, valid);
      }
    }
    cp_async_commit(); // empty past the last tile, so the waits count alike
  };
  int early = 0;
  while (early < STAGES - 1 && begin + (warp + GROUPED_WARPS * early + 1) * WARP <= early_below)
    request(early++);
  STEP_START;
  for (int s = early; s < STAGES - 1; s++) request(s);
  float *qs = reinterpret_cast<float *>(smem + L::Q);
  for (int i = threadIdx.x; i < G * HEAD_DIM; i += blockDim.x) qs[i] = i < width ? q_row[i] : 0.f;
  __syncthreads();
  float m[G], l[G], acc[G][N];
#pragma unroll
  for (int g = 0; g < G; g++) {
    m[g] = -INFINITY;
    l[g] = 0.f;
#pragma unroll
    for (int e = 0; e < N; e++) acc[g][e] = 0.f;
  }
  int sub = lane / CHUNKS, col = lane % CHUNKS;
  for (int i = 0; i < tiles; i++) {
    request(i + STAGES - 1);
    cp_async_wait<STAGES - 1>();
    __syncwarp(); // every lane's copies of tile i have landed
    const unsigned char *stage = mine + (i % STAGES) * 2 * L::TILE;
    int count = min(WARP, end - (begin + (warp + GROUPED_WARPS * i) * WARP));
    bool valid = lane < count;
    float s[G];
#pragma unroll
    for (int g = 0; g < G; g++) s[g] = 0.f;
#pragma unroll 8
    for (int c = 0; c < CHUNKS; c++) {
      float kf[N];
      widen16(reinterpret_cast<const T *>(stage + lane * L::ROW + key_chunk<CHUNKS>(lane, c) * 16), kf);
#pragma unroll
      for (int g = 0; g < G; g++)
#pragma unroll
        for (int e = 0; e < N; e++) s[g] += q[g * HEAD_DIM + c * N + e] * kf[e];
    }
#pragma unroll
    for (int g = 0; g < G; g++) {
      float sg = valid ? s[g] * scale : -INFINITY;
      float m_new = fmaxf(m[g], warp_max(sg)); // lane 0's position is valid: finite
      float correction = expf(m[g] - m_new);
      float pg = valid ? expf(sg - m_new) : 0.f;
      l[g] = l[g] * correction + pg; // this lane's share; summed over the warp at the end
#pragma unroll
      for (int e = 0; e < N; e++) acc[g][e] *= correction;
      m[g] = m_new;
      p[lane][g] = pg;
    }
    __syncwarp();
#pragma unroll 8
    for (int r0 = 0; r0 < WARP; r0 += RPS) {
      int r = r0 + sub;
      if (r < count) {
        float vf[N];
        widen16(reinterpret_cast<const T *>(stage + L::TILE + r * L::ROW + col * 16), vf);
#pragma unroll
        for (int g = 0; g < G; g++) {
          float pj = p[r][g];
#pragma unroll
          for (int e = 0; e < N; e++) acc[g][e] += pj * vf[e];
        }
      }
    }
    __syncwarp(); // the next request overwrites this stage, the next tile p
  }
  cp_async_wait<0>();
  __syncwarp();
  // The warp's rows were RPS interleaved sums: fold them, then publish the warp's result.
  float *ml = reinterpret_cast<float *>(smem + L::ML);
  float *accs = reinterpret_cast<float *>(mine);
#pragma unroll
  for (int g = 0; g < G; g++) {
#pragma unroll
    for (int e = 0; e < N; e++)
      for (int o = CHUNKS; o < WARP; o *= 2) acc[g][e] += __shfl_xor_sync(0xffffffffu, acc[g][e], o);
    float lg = warp_sum(l[g]);
    if (lane == 0) {
      ml[warp * G + g] = m[g];
      ml[(GROUPED_WARPS + warp) * G + g] = lg;
    }
    if (lane < CHUNKS) {
#pragma unroll
      for (int e = 0; e < N; e++) accs[g * HEAD_DIM + col * N + e] = acc[g][e];
    }
  }
}

// The warps' results combined in warp order into the group's context rows (one split) or the
// split's records (warps that had no tile hold m = -inf and add nothing).
template <class T, int HEAD_DIM, int G, int STAGES>
__device__ void grouped_combine_warps(const unsigned char *smem, T *o, float *rec, int width,
                                      int splits) {
  using L = GroupedLayout<T, HEAD_DIM, G, STAGES>;
  const float *ml = reinterpret_cast<const float *>(smem + L::ML);
  for (int i = threadIdx.x; i < width; i += blockDim.x) {
    int g = i / HEAD_DIM, d = i % HEAD_DIM;
    float mm = -INFINITY, total = 0.f, sum = 0.f;
    for (int w = 0; w < GROUPED_WARPS; w++) mm = fmaxf(mm, ml[w * G + g]);
    for (int w = 0; w < GROUPED_WARPS; w++) {
      if (ml[w * G + g] == -INFINITY) continue;
      float f = expf(ml[w * G + g] - mm);
      total += ml[(GROUPED_WARPS + w) * G + g] * f;
      sum += reinterpret_cast<const float *>(smem + w * L::WARP_BYTES)[g * HEAD_DIM + d] * f;
    }
    if (splits == 1) {
      o[i] = from_float<T>(sum / total);
    } else {
      float *r = rec + (size_t)g * (HEAD_DIM + 2);
      r[d] = sum;
      if (d == 0) {
        r[HEAD_DIM] = mm;
        r[HEAD_DIM + 1] = total;
      }
    }
  }
}

template <class T, int HEAD_DIM, int G, int STAGES>
__device__ __noinline__ void grouped_attention_block(unsigned char *smem, const float *qkv, const T *k_cache,
                                        const T *v_cache, const int *positions,
                                        const int *seq_of_token, const int *block_tables, T *out,
                                        int heads, int kv_heads, int max_blocks, float scale,
                                        float *partials) {
  using L = GroupedLayout<T, HEAD_DIM, G, STAGES>;
  int t = blockIdx.x, kvh = blockIdx.y, split = blockIdx.z, splits = gridDim.z;
  int pos = positions[t], group = heads / kv_heads, width = group * HEAD_DIM;
  T *o = out + ((size_t)t * heads + (size_t)kvh * group) * HEAD_DIM; // the group's heads, adjacent
  float *recs = partials + ((size_t)t * kv_heads + kvh) * splits * group * (HEAD_DIM + 2);
  int chunk = ((pos + splits) / splits + WARP - 1) / WARP * WARP;
  int begin = split * chunk, end = min(pos + 1, begin + chunk);
  const int *table = block_tables + seq_of_token[t] * max_blocks;
  int *blocks = reinterpret_cast<int *>(smem + L::TABLE);
  int count = end > begin ? (end - 1) / BLOCK_SIZE - begin / BLOCK_SIZE + 1 : 0;
  for (int b = threadIdx.x; b < min(count, GROUPED_TABLE); b += blockDim.x)
    blocks[b] = table[begin / BLOCK_SIZE + b];
  __syncthreads();
  bool first = t == 0 || seq_of_token[t - 1] != seq_of_token[t];
  const float *q = qkv + (size_t)t * (heads + 2 * kv_heads) * HEAD_DIM + (size_t)kvh * width;
  grouped_attention<T, HEAD_DIM, G, STAGES>(smem, q, k_cache, v_cache, table, begin, end, kvh,
                                            kv_heads * HEAD_DIM, scale, width, first ? pos : 0);
  __syncthreads();
  grouped_combine_warps<T, HEAD_DIM, G, STAGES>(smem, o, recs + (size_t)split * group * (HEAD_DIM + 2),
                                                width, splits);
}

template <class T, bool WIDE>
__device__ void attention_grouped_body(const float *qkv, const T *k_cache, const T *v_cache,
                                       const int *positions, const int *seq_of_token,
                                       const int *block_tables, T *out, int heads, int kv_heads,
                                       int head_dim, int max_blocks, float scale,
                                       float *partials) {
  extern __shared__ __align__(128) unsigned char dynamic_smem[];
  int t = blockIdx.x, kvh = blockIdx.y, split = blockIdx.z, splits = gridDim.z;
  int group = heads / kv_heads, width = group * head_dim;
  T *o = out + ((size_t)t * heads + (size_t)kvh * group) * head_dim;
  float *rec = partials + (((size_t)t * kv_heads + kvh) * splits + split) * group * (head_dim + 2);
  int gp = group <= 2 ? 2 : group <= 4 ? 4 : 8;
  unsigned smem = dynamic_smem_bytes();
  if (positions[t] < 0) { // padding: zeros, written by attention_combine where there are splits
    STEP_START; // the kernels before may still read the context rows
    if (splits == 1)
      for (int d = threadIdx.x; d < width; d += blockDim.x) o[d] = from_float<T>(0.f);
    return;
  }
// Two stages a warp but for fp32 heads of 128, whose two would take 256 KiB: one.
#define GROUPED_CASE(HD, G)                                                                       \
  if (head_dim == HD && gp == G) {                                                                \
    constexpr int STAGES = sizeof(T) == 4 && HD == 128 ? 1 : 2;                                   \
    if (smem >= GroupedLayout<T, HD, G, STAGES>::BYTES) {                                         \
      grouped_attention_block<T, HD, G, STAGES>(dynamic_smem, qkv, k_cache, v_cache, positions,   \
                                                seq_of_token, block_tables, out, heads,           \
                                                kv_heads, max_blocks, scale, partials);           \
      return;                                                                                     \
    }                                                                                             \
  }
  if (blockDim.x == GROUPED_WARPS * WARP && (WIDE ? group > 4 && group <= MAX_GROUP : group <= 4)) {
    if (WIDE) { // a kernel of its own: the eight heads' sums take twice the registers
      GROUPED_CASE(32, 8) GROUPED_CASE(64, 8) GROUPED_CASE(128, 8)
    } else {
      GROUPED_CASE(32, 2) GROUPED_CASE(32, 4)
      GROUPED_CASE(64, 2) GROUPED_CASE(64, 4)
      GROUPED_CASE(128, 2) GROUPED_CASE(128, 4)
    }
  }
#undef GROUPED_CASE
  // A shape or a launch it does not take (too little shared memory among them): NaN rows.
  STEP_START;
  for (int d = threadIdx.x; d < width; d += blockDim.x) o[d] = from_float<T>(__int_as_float(0x7fc00000));
  if (splits > 1)
    for (int i = threadIdx.x; i < group * (head_dim + 2); i += blockDim.x) rec[i] = __int_as_float(0x7fc00000);
}

// ---- attention_combine: the splits' records of attention_grouped folded in split order into the
// context row of a (token, head): out = sum_s acc_s e^(m_s - M) / sum_s l_s e^(m_s - M), M the
// largest m_s; splits with m_s = -inf hold no position. The first warp reads every split's m and l
// at once (a lane a split: at most MAX_SPLITS) and leaves the splits' weights in shared memory;
// then each thread's dimension reads its splits' sums with every load in flight. A padding token's
// row is zeros. Grid: (tokens, heads), any block width.
template <class T>
__device__ void attention_combine_body(const float *partials, const int *positions, T *out,
                                       int heads, int kv_heads, int head_dim, int splits) {
  __shared__ float weight[MAX_SPLITS], total_s;
  int t = blockIdx.x, h = blockIdx.y, group = heads / kv_heads;
  int kvh = h / group, g = h % group;
  T *o = out + ((size_t)t * heads + h) * head_dim;
  if (positions[t] < 0) {
    for (int d = threadIdx.x; d < head_dim; d += blockDim.x) o[d] = from_float<T>(0.f);
    return;
  }
  size_t stride = (size_t)group * (head_dim + 2);
  const float *rec = partials + ((size_t)t * kv_heads + kvh) * splits * stride + (size_t)g * (head_dim + 2);
  if (threadIdx.x < WARP) {
    int s = threadIdx.x;
    bool here = s < splits && s < MAX_SPLITS;
    float ms = here ? rec[s * stride + head_dim] : -INFINITY;
    float ls = here ? rec[s * stride + head_dim + 1] : 0.f;
    float mm = warp_max(ms); // NaN records (heads the kernel does not take) give NaN weights
    float f = ms == -INFINITY ? 0.f : expf(ms - mm);
    float total = warp_sum(ls * f);
    if (here) weight[s] = f;
    if (s == 0) total_s = total;
  }
  __syncthreads();
  float total = total_s;
  int n = min(splits, MAX_SPLITS);
  for (int d = threadIdx.x; d < head_dim; d += blockDim.x) {
    float sum = 0.f;
#pragma unroll 8
    for (int s = 0; s < n; s++) sum += rec[s * stride + d] * weight[s];
    o[d] = from_float<T>(sum / total);
  }
}

// ---- gemv: y[m][n] = sum_k x[m][k] * w[n][k] (or y[m][n] += that, where accumulate is set) for
// the M <= 8 token rows of a decode step: x [M, k] and w [rows, k] of T, y [M, rows] fp32. At so
// few rows a matrix product is a stream of the weights, and cuBLASLt's kernels read the smaller
// matrices at 30-70% of the bandwidth: here a warp takes a row (rows blockIdx.x * warps + warp,
// then a grid's worth on), its lanes 16 bytes of it at a time, GEMV_UNROLL pieces in flight a lane
// (4: at 8, measured on an H100, every product but the output projection got slower);
// x is read through L1 (every warp reads it). The lanes' sums meet by shuffles; lane 0 writes.
// The host takes this kernel only where k * sizeof(T) is a multiple of 16 and the rows are aligned.
constexpr int GEMV_UNROLL = 4;
#define GEMV_MAX_TOKENS 8

template <class T, int M>
__device__ void gemv_rows(const T *__restrict__ x, const T *__restrict__ w, float *y, int tokens,
                          int rows, int k, int accumulate) {
  constexpr int N = 16 / sizeof(T);
  int warps = blockDim.x / WARP, warp = threadIdx.x / WARP, lane = threadIdx.x % WARP;
  int pieces = k / N;
  for (int n = blockIdx.x * warps + warp; n < rows; n += gridDim.x * warps) {
    const T *row = w + (size_t)n * k;
    float acc[M];
#pragma unroll
    for (int m = 0; m < M; m++) acc[m] = 0.f;
#pragma unroll GEMV_UNROLL
    for (int c = lane; c < pieces; c += WARP) {
      float wf[N];
      widen16(row + (size_t)c * N, wf);
#pragma unroll
      for (int m = 0; m < M; m++) {
        float xf[N]; // rows past tokens (M rounds them up) read the last one, written nowhere
        widen16(x + (size_t)min(m, tokens - 1) * k + (size_t)c * N, xf);
#pragma unroll
        for (int e = 0; e < N; e++) acc[m] += wf[e] * xf[e];
      }
    }
#pragma unroll
    for (int m = 0; m < M; m++) {
      float sum = warp_sum(acc[m]);
      if (lane == 0 && m < tokens) {
        float *out = y + (size_t)m * rows + n;
        *out = accumulate ? *out + sum : sum;
      }
    }
  }
}

template <class T>
__device__ void gemv_body(const T *x, const T *w, float *y, int tokens, int rows, int k,
                          int accumulate) {
  if (tokens <= 1) gemv_rows<T, 1>(x, w, y, tokens, rows, k, accumulate);
  else if (tokens <= 2) gemv_rows<T, 2>(x, w, y, tokens, rows, k, accumulate);
  else if (tokens <= 4) gemv_rows<T, 4>(x, w, y, tokens, rows, k, accumulate);
  else gemv_rows<T, 8>(x, w, y, tokens, rows, k, accumulate);
}

// ---- gemv_stream: gemv's product, the weights streamed through shared memory. A grid sized to
// the GPU (a few blocks an SM, chosen by the host) gives each block an even share of w's rows; the
// block copies them in tiles of at most GEMV_TILE_BYTES with the Hopper bulk copy
// (cp.async.bulk, completing on an mbarrier), as many tiles in flight as its dynamic shared memory
// holds (at most GEMV_MAX_STAGES), so the bytes in flight cost no registers. The first tiles are
// requested before the dependency wait: launched programmatically, the kernel streams its weights
// while the kernel before it finishes. Each tile's rows are shared among the warps (a warp a row,
// or WARPS / rows warps a row where a tile holds fewer rows than warps), x is read through L1, the
// warps' sums meet in shared memory and one thread a (token, row) writes y. The host takes it only
// where a row is whole 16-byte pieces, fits a tile, and splits evenly between its warps
// (LlmKernels.gemvStreamTakes); the tiling below is GemvTiling's. gemv_stream1 is the same for
// one token row only (tokens is ignored): 38-44 registers against the general kernel's 88-100, so
// more blocks fit an SM at batch 1.
#define GEMV_TILE_BYTES 16384
#define GEMV_MAX_STAGES 8
#define GEMV_MAX_TILE_ROWS 128
#define GEMV_WARPS 8

__device__ __forceinline__ unsigned smem_addr(const void *p) {
  return (unsigned)__cvta_generic_to_shared(p);
}

__device__ __forceinline__ void mbar_init(unsigned long long *bar, unsigned count) {
  asm volatile("mbarrier.init.shared::cta.b64 [%0], %1;" ::"r"(smem_addr(bar)), "r"(count)
               : "memory");
  asm volatile("fence.mbarrier_init.release.cluster;" ::: "memory");
}

// Arrives on the barrier, telling it how many bytes the copies that complete its phase bring.
__device__ __forceinline__ void mbar_expect_bytes(unsigned long long *bar, unsigned bytes) {
  asm volatile(
      "{\n\t.reg .b64 st;\n\tmbarrier.arrive.expect_tx.shared::cta.b64 st, [%0], %1;\n\t}" ::"r"(
          smem_addr(bar)),
      "r"(bytes)
      : "memory");
}

// Waits until the barrier's phase of the given parity has completed.
__device__ __forceinline__ void mbar_wait(unsigned long long *bar, unsigned parity) {
  asm volatile(
      "{\n\t.reg .pred done;\n"
      "WAIT_%=:\n\t"
      "mbarrier.try_wait.parity.shared::cta.b64 done, [%0], %1;\n\t"
      "@!done bra WAIT_%=;\n\t}" ::"r"(smem_addr(bar)),
      "r"(parity)
      : "memory");
}

// Copies bytes (a multiple of 16, both addresses 16-byte aligned) from global to shared memory;
// the barrier counts them as they land.
__device__ __forceinline__ void bulk_load(void *dst, const void *src, unsigned bytes,
                                          unsigned long long *bar) {
  asm volatile(
      "cp.async.bulk.shared::cluster.global.mbarrier::complete_tx::bytes [%0], [%1], %2, [%3];" ::
          "r"(smem_addr(dst)),
      "l"(src), "r"(bytes), "r"(smem_addr(bar))
      : "memory");
}

// Rows a tile and warps a row: short rows, GEMV_TILE_BYTES of them (at most GEMV_MAX_TILE_ROWS), a
// warp each; long rows, fewer rows than warps, each split between GEMV_WARPS / rows warps.
struct GemvTiling {
  int rows, warps_per_row;
};

__device__ __forceinline__ GemvTiling gemv_tiling(int row_bytes) {
  GemvTiling t;
  if (GEMV_WARPS * row_bytes <= GEMV_TILE_BYTES) {
    t.rows = min(GEMV_MAX_TILE_ROWS, GEMV_TILE_BYTES / row_bytes);
    t.warps_per_row = 1;
  } else {
    t.rows = GEMV_WARPS;
    while (t.rows > 1 && t.rows * row_bytes > GEMV_TILE_BYTES) t.rows /= 2;
    t.warps_per_row = GEMV_WARPS / t.rows;
  }
  return t;
}

// What gemv_stream multiplies the weights by: N = 16 / sizeof(T) values of token m's row of x
// [M, k] of T from column col, as floats, read where they are (through L1). prepare() runs after
// the dependency wait, by every thread of the block, before the block's first product.
template <class T> struct TypedRows {
  const T *__restrict__ x;
  int k;
  __device__ __forceinline__ void prepare() const {}
  __device__ __forceinline__ void load(int m, int col, float *xf) const {
    widen16(x + (size_t)m * k + col, xf);
  }
};

// One token's row normalised into shared memory first (gemv_norm1, gemv_norm_silu1): rms_norm's
// own arithmetic on a block of NORM_BLOCK threads, so the row is bit for bit the one rms_norm
// writes, and every block reads it from shared memory instead of global.
template <class T> struct NormedRow {
  const float *x;
  const T *norm;
  T *xs; // k values of shared memory, 16-byte aligned
  int k;
  float eps;
  __device__ __forceinline__ void prepare() const { rms_norm_row<T>(x, norm, xs, k, eps); }
  __device__ __forceinline__ void load(int, int col, float *xf) const { widen16(xs + col, xf); }
};

// Where a tile's sums go: y[m][row] (or y += them), one thread a (token, row).
struct StoreSums {
  float *y;
  int rows, accumulate;
  __device__ __forceinline__ void operator()(const float *out, int tokens, int row0, int n,
                                             int wpr) const {
    for (int e = threadIdx.x; e < tokens * n; e += blockDim.x) {
      int m = e / n, i = e % n;
      float d = 0.f;
      for (int part = 0; part < wpr; part++) d += out[m * GEMV_MAX_TILE_ROWS + i * wpr + part];
      float *o = y + (size_t)m * rows + row0 + i;
      *o = accumulate ? *o + d : d;
    }
  }
};

// A tile of pairs (gemv_norm_silu1): its first n rows are the gate's, the next n the up's, so
// each pair's two sums become an activation, silu_mul's arithmetic, without leaving the tile.
template <class T> struct SiluPairs {
  T *h;
  __device__ __forceinline__ void operator()(const float *out, int, int row0, int n,
                                             int wpr) const {
    for (int i = threadIdx.x; i < n; i += blockDim.x) {
      float g = 0.f, u = 0.f;
      for (int part = 0; part < wpr; part++) g += out[i * wpr + part];
      for (int part = 0; part < wpr; part++) u += out[(n + i) * wpr + part];
      h[row0 + i] = from_float<T>(g / (1.f + expf(-g)) * u);
    }
  }
};

// Which rows of w a tile holds: P runs of n rows for the n units from unit0, tile row j at byte
// j * row_bytes. A map asks for them, one thread, on the stage's barrier.
struct RowsOfUnits { // a unit a row
  static constexpr int P = 1;
  template <class T>
  __device__ __forceinline__ void request(unsigned char *dst, const T *w, int unit0, int n, int,
                                          int k, unsigned row_bytes,
                                          unsigned long long *bar) const {
    mbar_expect_bytes(bar, n * row_bytes);
    bulk_load(dst, w + (size_t)unit0 * k, n * row_bytes, bar);
  }
};

struct StackedPairs { // unit u: rows u and units + u (a stacked gate/up weight)
  static constexpr int P = 2;
  template <class T>
  __device__ __forceinline__ void request(unsigned char *dst, const T *w, int unit0, int n,
                                          int units, int k, unsigned row_bytes,
                                          unsigned long long *bar) const {
    mbar_expect_bytes(bar, 2 * n * row_bytes);
    bulk_load(dst, w + (size_t)unit0 * k, n * row_bytes, bar);
    bulk_load(dst + n * row_bytes, w + ((size_t)units + unit0) * k, n * row_bytes, bar);
  }
};

struct RotatedPairs { // unit u: rows i and i + half of head u / half, i = u % half (RoPE's pairs)
  static constexpr int P = 2;
  int half;
  __device__ __forceinline__ int row(int u) const { return u / half * 2 * half + u % half; }
  template <class T>
  __device__ __forceinline__ void request(unsigned char *dst, const T *w, int unit0, int n, int,
                                          int k, unsigned row_bytes,
                                          unsigned long long *bar) const {
    mbar_expect_bytes(bar, 2 * n * row_bytes);
    for (int j = 0; j < n; j++) { // a tile's units may cross a head: a row a copy
      int r = row(unit0 + j);
      bulk_load(dst + j * row_bytes, w + (size_t)r * k, row_bytes, bar);
      bulk_load(dst + (n + j) * row_bytes, w + (size_t)(r + half) * k, row_bytes, bar);
    }
  }
};

// A kernel's dynamic shared memory: gemv_stream's tiles, after what `reserved` keeps before them.
extern __shared__ __align__(128) unsigned char dynamic_smem[];

// A tile of RoPE's pairs (gemv_norm_rope1, token 0 of a step of one): each pair's two sums are
// rope_cache's x1 and x2, rotated for q's and k's heads, k and v written into the cache at the
// token's slot; qkv gets the rotated q and k and the v as rope_cache leaves them. A padding token
// (a negative position) gets the product's rows only.
template <class T> struct RopePairs {
  float *qkv;
  const float *inv_freq;
  const int *positions, *seq_of_token, *block_tables;
  T *k_cache, *v_cache;
  int heads, kv_heads, head_dim, max_blocks;
  __device__ __forceinline__ void operator()(const float *out, int, int unit0, int n,
                                             int wpr) const {
    int half = head_dim / 2, kv_dim = kv_heads * head_dim, pos = positions[0];
    for (int e = threadIdx.x; e < n; e += blockDim.x) {
      int u = unit0 + e, head = u / half, i = u % half, r = head * head_dim + i;
      float x1 = 0.f, x2 = 0.f;
      for (int part = 0; part < wpr; part++) x1 += out[e * wpr + part];
      for (int part = 0; part < wpr; part++) x2 += out[(n + e) * wpr + part];
      if (pos >= 0 && head < heads + kv_heads) {
        float angle = (float)pos * inv_freq[i];
        float s, c;
        sincosf(angle, &s, &c);
        rotate_pair(x1, x2, c, s);
      }
      qkv[r] = x1;
      qkv[r + half] = x2;
      if (pos >= 0 && head >= heads) {
        long long slot = (long long)block_tables[seq_of_token[0] * max_blocks + pos / BLOCK_SIZE] *
                             BLOCK_SIZE + pos % BLOCK_SIZE;
        T *cache = head < heads + kv_heads ? k_cache : v_cache;
        int kv_head = head < heads + kv_heads ? head - heads : head - heads - kv_heads;
        T *to = cache + slot * kv_dim + kv_head * head_dim;
        to[i] = from_float<T>(x1);
        to[i + half] = from_float<T>(x2);
      }
    }
  }
};

// The tokens' rows (at most M) times the block's units of w. A unit is a row of w, or with P = 2
// a pair of rows: row u of the first `units` rows and row units + u (the gate's and the up's of a
// stacked gate/up weight), a tile holding cut.rows / P units as P runs of rows. sums: 2 * M *
// GEMV_MAX_TILE_ROWS floats of shared memory (or more), the tiles' partial sums
// [tile parity][token][row * warps_per_row + part] (two parities: a tile's sums are written while
// the tile before is being added up). reserved: bytes at the start of the dynamic shared memory
// that are not tiles (NormedRow's row).
template <class T, int M, class Map, class Rows, class Out>
__device__ void gemv_stream_rows(Rows in, const T *__restrict__ w, Map map, Out put, int tokens,
                                 int units, int k, float *sums, unsigned reserved) {
  constexpr int N = 16 / sizeof(T), P = Map::P;
  unsigned char *tiles = dynamic_smem + reserved;
  __shared__ __align__(8) unsigned long long bars[GEMV_MAX_STAGES];
  unsigned dynamic;
  asm("mov.u32 %0, %%dynamic_smem_size;" : "=r"(dynamic));
  int stages = min(GEMV_MAX_STAGES, (int)((dynamic - reserved) / GEMV_TILE_BYTES));
  int row_bytes = k * (int)sizeof(T);
  GemvTiling cut = gemv_tiling(row_bytes);
  int per_tile = cut.rows / P;
  int first = (int)((long long)blockIdx.x * units / gridDim.x);
  int end = (int)((long long)(blockIdx.x + 1) * units / gridDim.x);
  int count = end > first ? (end - first + per_tile - 1) / per_tile : 0;
  int tid = threadIdx.x, warp = tid / WARP, lane = tid % WARP;
  auto request = [&](int t) { // one thread
    int s = t % stages, unit = first + t * per_tile, n = min(per_tile, end - unit);
    map.request(tiles + s * GEMV_TILE_BYTES, w, unit, n, units, k, (unsigned)row_bytes, &bars[s]);
  };
  if (tid == 0) {
    for (int s = 0; s < stages; s++) mbar_init(&bars[s], 1);
    for (int t = 0; t < stages && t < count; t++) request(t);
  }
  cudaGridDependencySynchronize(); // x and y are the kernels' before: read them after this
  KERNEL_TRACE_WAITED();
  in.prepare();
  __syncthreads(); // the barriers' initialization (and what prepare wrote), seen by every thread
  int wpr = cut.warps_per_row, part_cols = k / wpr, chunks = part_cols / N;
  for (int t = 0; t < count; t++) {
    int s = t % stages, unit0 = first + t * per_tile, n = min(per_tile, end - unit0);
    float *out = sums + (t & 1) * M * GEMV_MAX_TILE_ROWS;
    mbar_wait(&bars[s], (unsigned)(t / stages) & 1u);
    const T *tile = reinterpret_cast<const T *>(tiles + s * GEMV_TILE_BYTES);
    for (int slot = warp; slot < P * n * wpr; slot += GEMV_WARPS) {
      int i = slot / wpr, part = slot % wpr;
      const T *src = tile + (size_t)i * k + part * part_cols;
      float acc[M];
#pragma unroll
      for (int m = 0; m < M; m++) acc[m] = 0.f;
#pragma unroll 4
      for (int c = lane; c < chunks; c += WARP) {
        float wf[N];
        widen16(src + c * N, wf);
#pragma unroll
        for (int m = 0; m < M; m++) {
          float xf[N]; // rows past tokens (M rounds them up) read the last one, written nowhere
          in.load(min(m, tokens - 1), part * part_cols + c * N, xf);
#pragma unroll
          for (int e = 0; e < N; e++) acc[m] += wf[e] * xf[e];
        }
      }
#pragma unroll
      for (int m = 0; m < M; m++) {
        float sum = warp_sum(acc[m]);
        if (lane == 0) out[m * GEMV_MAX_TILE_ROWS + slot] = sum;
      }
    }
    __syncthreads(); // the tile is read (its buffer free again) and its sums are visible
    if (tid == 0 && t + stages < count) request(t + stages);
    put(out, tokens, unit0, n, wpr);
  }
}

template <class T, class Rows>
__device__ void gemv_stream_body(Rows in, const T *w, float *y, int tokens, int rows, int k,
                                 int accumulate, float *sums) {
  cudaTriggerProgrammaticLaunchCompletion();
  StoreSums put{y, rows, accumulate};
  RowsOfUnits map;
  if (tokens <= 1) gemv_stream_rows<T, 1>(in, w, map, put, tokens, rows, k, sums, 0);
  else if (tokens <= 2) gemv_stream_rows<T, 2>(in, w, map, put, tokens, rows, k, sums, 0);
  else if (tokens <= 4) gemv_stream_rows<T, 4>(in, w, map, put, tokens, rows, k, sums, 0);
  else gemv_stream_rows<T, 8>(in, w, map, put, tokens, rows, k, sums, 0);
}

// The bytes NormedRow's row takes at the start of the dynamic shared memory (the host adds the
// same: LlmKernels.normedRowBytes).
__device__ __forceinline__ unsigned normed_row_bytes(int k, int size) {
  return ((unsigned)(k * size) + 127u) / 128u * 128u;
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
    KERNEL_TRACE_SCOPE(0);                                                                        \
    STEP_START;                                                                                   \
    embed_body<T>(ids, table, x, hidden, vocab);                                                  \
  }                                                                                               \
  extern "C" __global__ void rms_norm_##SUFFIX(const float *x, const T *weight, T *out,          \
                                               int hidden, float eps) {                          \
    KERNEL_TRACE_SCOPE(1);                                                                        \
    STEP_START;                                                                                   \
    rms_norm_row<T>(x + (size_t)blockIdx.x * hidden, weight, out + (size_t)blockIdx.x * hidden,  \
                    hidden, eps);                                                                 \
  }                                                                                               \
  extern "C" __global__ void gather_rms_norm_##SUFFIX(const float *x, const int *rows,           \
                                                      const T *weight, T *out, int hidden,       \
                                                      float eps) {                               \
    KERNEL_TRACE_SCOPE(2);                                                                        \
    STEP_START;                                                                                   \
    rms_norm_row<T>(x + (size_t)rows[blockIdx.x] * hidden, weight,                               \
                    out + (size_t)blockIdx.x * hidden, hidden, eps);                              \
  }                                                                                               \
  extern "C" __global__ void rope_cache_##SUFFIX(                                                 \
      float *qkv, const float *inv_freq, const int *positions, const int *seq_of_token,          \
      const int *block_tables, T *k_cache, T *v_cache, int heads, int kv_heads, int head_dim,    \
      int max_blocks) {                                                                           \
    KERNEL_TRACE_SCOPE(3);                                                                        \
    STEP_START;                                                                                   \
    rope_cache_body<T>(qkv, inv_freq, positions, seq_of_token, block_tables, k_cache, v_cache,   \
                       heads, kv_heads, head_dim, max_blocks);                                    \
  }                                                                                               \
  extern "C" __global__ void attention_##SUFFIX(                                                  \
      const float *qkv, const T *k_cache, const T *v_cache, const int *positions,                \
      const int *seq_of_token, const int *block_tables, T *out, int heads, int kv_heads,         \
      int head_dim, int max_blocks, float scale) {                                               \
    KERNEL_TRACE_SCOPE(4);                                                                        \
    STEP_START;                                                                                   \
    attention_body<T>(qkv, k_cache, v_cache, positions, seq_of_token, block_tables, out, heads,  \
                      kv_heads, head_dim, max_blocks, scale);                                     \
  }                                                                                               \
  extern "C" __global__ void attention_grouped_##SUFFIX(                                          \
      const float *qkv, const T *k_cache, const T *v_cache, const int *positions,                \
      const int *seq_of_token, const int *block_tables, T *out, int heads, int kv_heads,         \
      int head_dim, int max_blocks, float scale, float *partials) {                              \
    KERNEL_TRACE_SCOPE(5);                                                                        \
    attention_grouped_body<T, false>(qkv, k_cache, v_cache, positions, seq_of_token,             \
                                     block_tables, out, heads, kv_heads, head_dim, max_blocks,   \
                                     scale, partials);                                            \
  }                                                                                               \
  extern "C" __global__ void attention_grouped8_##SUFFIX(                                         \
      const float *qkv, const T *k_cache, const T *v_cache, const int *positions,                \
      const int *seq_of_token, const int *block_tables, T *out, int heads, int kv_heads,         \
      int head_dim, int max_blocks, float scale, float *partials) {                              \
    KERNEL_TRACE_SCOPE(6);                                                                        \
    attention_grouped_body<T, true>(qkv, k_cache, v_cache, positions, seq_of_token,              \
                                    block_tables, out, heads, kv_heads, head_dim, max_blocks,    \
                                    scale, partials);                                             \
  }                                                                                               \
  extern "C" __global__ void attention_combine_##SUFFIX(const float *partials,                   \
                                                        const int *positions, T *out, int heads, \
                                                        int kv_heads, int head_dim, int splits) { \
    KERNEL_TRACE_SCOPE(7);                                                                        \
    STEP_START;                                                                                   \
    attention_combine_body<T>(partials, positions, out, heads, kv_heads, head_dim, splits);      \
  }                                                                                               \
  extern "C" __global__ void gemv_##SUFFIX(const T *x, const T *w, float *y, int tokens, int rows, \
                                           int k, int accumulate) {                              \
    KERNEL_TRACE_SCOPE(8);                                                                        \
    STEP_START;                                                                                   \
    gemv_body<T>(x, w, y, tokens, rows, k, accumulate);                                           \
  }                                                                                               \
  extern "C" __global__ void gemv_stream_##SUFFIX(const T *x, const T *w, float *y, int tokens,   \
                                                  int rows, int k, int accumulate) {             \
    KERNEL_TRACE_SCOPE(9);                                                                        \
    __shared__ float sums[2 * GEMV_MAX_TOKENS * GEMV_MAX_TILE_ROWS];                               \
    gemv_stream_body<T>(TypedRows<T>{x, k}, w, y, tokens, rows, k, accumulate, sums);             \
  }                                                                                               \
  extern "C" __global__ void gemv_stream1_##SUFFIX(const T *x, const T *w, float *y, int tokens,  \
                                                   int rows, int k, int accumulate) {            \
    KERNEL_TRACE_SCOPE(10);                                                                       \
    __shared__ float sums[2 * GEMV_MAX_TILE_ROWS];                                                 \
    cudaTriggerProgrammaticLaunchCompletion();                                                    \
    gemv_stream_rows<T, 1>(TypedRows<T>{x, k}, w, RowsOfUnits{}, StoreSums{y, rows, accumulate},  \
                           1, rows, k, sums, 0);                                                  \
  }                                                                                               \
  extern "C" __global__ void gemv_norm1_##SUFFIX(const float *x, const T *norm, const T *w,       \
                                                 float *y, int rows, int k, float eps) {         \
    KERNEL_TRACE_SCOPE(11);                                                                       \
    __shared__ float sums[2 * GEMV_MAX_TILE_ROWS];                                                 \
    cudaTriggerProgrammaticLaunchCompletion();                                                    \
    NormedRow<T> in{x, norm, reinterpret_cast<T *>(dynamic_smem), k, eps};                        \
    gemv_stream_rows<T, 1>(in, w, RowsOfUnits{}, StoreSums{y, rows, 0}, 1, rows, k, sums,         \
                           normed_row_bytes(k, sizeof(T)));                                       \
  }                                                                                               \
  extern "C" __global__ void gemv_norm_silu1_##SUFFIX(const float *x, const T *norm, const T *w,  \
                                                      T *h, int inter, int k, float eps) {       \
    KERNEL_TRACE_SCOPE(12);                                                                       \
    __shared__ float sums[2 * GEMV_MAX_TILE_ROWS];                                                 \
    cudaTriggerProgrammaticLaunchCompletion();                                                    \
    NormedRow<T> in{x, norm, reinterpret_cast<T *>(dynamic_smem), k, eps};                        \
    gemv_stream_rows<T, 1>(in, w, StackedPairs{}, SiluPairs<T>{h}, 1, inter, k, sums,             \
                           normed_row_bytes(k, sizeof(T)));                                       \
  }                                                                                               \
  extern "C" __global__ void gemv_norm_rope1_##SUFFIX(                                            \
      const float *x, const T *norm, const T *w, float *qkv, const float *inv_freq,              \
      const int *positions, const int *seq_of_token, const int *block_tables, T *k_cache,        \
      T *v_cache, int heads, int kv_heads, int head_dim, int max_blocks, int k, float eps) {     \
    KERNEL_TRACE_SCOPE(13);                                                                       \
    __shared__ float sums[2 * GEMV_MAX_TILE_ROWS];                                                 \
    cudaTriggerProgrammaticLaunchCompletion();                                                    \
    NormedRow<T> in{x, norm, reinterpret_cast<T *>(dynamic_smem), k, eps};                        \
    RopePairs<T> put{qkv, inv_freq, positions, seq_of_token, block_tables, k_cache, v_cache,     \
                     heads, kv_heads, head_dim, max_blocks};                                      \
    gemv_stream_rows<T, 1>(in, w, RotatedPairs{head_dim / 2}, put, 1,                             \
                           (heads + 2 * kv_heads) * (head_dim / 2), k, sums,                      \
                           normed_row_bytes(k, sizeof(T)));                                       \
  }                                                                                               \
  extern "C" __global__ void silu_mul_##SUFFIX(const float *gu, T *h, int tokens, int inter) {   \
    KERNEL_TRACE_SCOPE(14);                                                                       \
    STEP_START;                                                                                   \
    silu_mul_body<T>(gu, h, tokens, inter);                                                       \
  }

INSTANTIATE(f32, float)
INSTANTIATE(f16, __half)
INSTANTIATE(bf16, __nv_bfloat16)

// ---- sampling: argmax_parts, then sample (below). splitmix64's finaliser draws the numbers.
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

// ---- argmax_parts: per sequence (blockIdx.x) and part (blockIdx.y of parts) the largest key of
// its part of the logits row (chunks of a multiple of 4 values, the last one shorter; a part past
// the row writes 0, no key), into keys[2 (s parts + p) ..] as two ints (low word first). Spread
// over parts, a sequence's scan of a 128,256-wide vocabulary is not one SM's work.
extern "C" __global__ void argmax_parts(const float *logits, int *keys, int vocab) {
  KERNEL_TRACE_SCOPE(15);
  STEP_START;
  __shared__ unsigned long long best[SAMPLE_THREADS / WARP];
  int s = blockIdx.x, part = blockIdx.y, parts = gridDim.y;
  int tid = threadIdx.x, lane = tid % WARP, warps = blockDim.x / WARP;
  const float *row = logits + (size_t)s * vocab;
  int chunk = ((vocab + parts - 1) / parts + 3) / 4 * 4;
  int from = min(vocab, part * chunk), to = min(vocab, from + chunk);
  // Four values a load where the rows are 16-byte aligned (from is a multiple of 4), several loads
  // in flight a thread, then the keys' maximum by shuffles. Any order gives the same key (the
  // index is in it).
  unsigned long long key = 0;
  int start = from;
  if (vocab % 4 == 0) {
    const float4 *row4 = reinterpret_cast<const float4 *>(row);
    int n4 = (to - from) / 4, base = from / 4;
#pragma unroll 4
    for (int j = tid; j < n4; j += blockDim.x) {
      int i = base + j;
      float4 v = row4[i];
      unsigned long long k0 = argmax_key(v.x, 4 * i), k1 = argmax_key(v.y, 4 * i + 1);
      unsigned long long k2 = argmax_key(v.z, 4 * i + 2), k3 = argmax_key(v.w, 4 * i + 3);
      k0 = k1 > k0 ? k1 : k0;
      k2 = k3 > k2 ? k3 : k2;
      k0 = k2 > k0 ? k2 : k0;
      key = k0 > key ? k0 : key;
    }
    start = to;
  }
  for (int i = start + tid; i < to; i += blockDim.x) {
    unsigned long long k = argmax_key(row[i], i);
    key = k > key ? k : key;
  }
  key = warp_max_key(key);
  if (lane == 0) best[tid / WARP] = key;
  __syncthreads();
  if (tid < WARP) {
    key = warp_max_key(tid < warps ? best[tid] : 0ull);
    if (tid == 0) {
      int *k = keys + 2 * ((size_t)s * parts + part);
      k[0] = (int)(unsigned)(key & 0xffffffffull);
      k[1] = (int)(unsigned)(key >> 32);
    }
  }
}

// ---- sample: per sequence (a block each) the next token from its logits row, argmax_parts' keys
// of the row (parts of them) and its parameters params[5 s ..]: temperature (float bits), top_p
// (float bits), seed (low, high int), counter. Temperature <= 0: the argmax (lowest index on
// ties). Otherwise w_i = exp((l_i - max) / temperature); the nucleus is {i : w_i >= tau} for the
// largest tau whose nucleus holds at least top_p of the total (every token where top_p >= 1),
// found by bisection on tau's bits; u = uniform(seed, counter) picks, in index order, the first
// nucleus token whose running sum passes u times the nucleus's mass (the last nucleus token if
// rounding leaves none).
extern "C" __global__ void sample(const float *logits, const int *params, int *out, int vocab,
                                  const int *keys, int parts) {
  KERNEL_TRACE_SCOPE(16);
  STEP_START;
  __shared__ unsigned long long best[SAMPLE_THREADS / WARP];
  __shared__ float prefix[SAMPLE_THREADS];
  __shared__ int chosen;
  __shared__ float nucleus_mass;
  int s = blockIdx.x, tid = threadIdx.x;
  const float *row = logits + (size_t)s * vocab;
  const int *p = params + 5 * s;
  float temperature = __int_as_float(p[0]), top_p = __int_as_float(p[1]);
  if (tid < WARP) {
    unsigned long long key = 0;
    for (int i = tid; i < parts; i += WARP) {
      const int *k = keys + 2 * ((size_t)s * parts + i);
      unsigned long long v = ((unsigned long long)(unsigned)k[1] << 32) | (unsigned)k[0];
      key = v > key ? v : key;
    }
    key = warp_max_key(key);
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
