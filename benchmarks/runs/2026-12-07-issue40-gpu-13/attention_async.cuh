// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 the cuda-graph authors
// New grouped attention: K/V tiles staged into shared memory by cp.async, a pipeline per warp.
#pragma once
#define AA_WARPS 4
#define AA_TABLE 128 // block numbers of a split kept in shared memory; more are read from global

__device__ __forceinline__ void aa_cp_async16(void *dst, const void *src, bool full) {
  asm volatile("cp.async.cg.shared.global [%0], [%1], 16, %2;" ::"r"(smem_addr(dst)), "l"(src),
               "r"(full ? 16 : 0)
               : "memory");
}
__device__ __forceinline__ void aa_cp_async_commit() { asm volatile("cp.async.commit_group;" ::: "memory"); }
template <int N> __device__ __forceinline__ void aa_cp_async_wait() {
  asm volatile("cp.async.wait_group %0;" ::"n"(N) : "memory");
}

// Where chunk c of row r of a K tile lies: XOR-swizzled so that eight consecutive rows' chunk c
// fall in eight different 16-byte bank groups (a lane reads its own row).
template <int CHUNKS> __device__ __forceinline__ int k_chunk(int r, int c) {
  return CHUNKS >= 8 ? c ^ (r & 7) : c ^ ((r / (8 / CHUNKS)) & (CHUNKS - 1));
}

template <class T, int HEAD_DIM, int G, int STAGES> struct AsyncLayout {
  static constexpr int ROW = HEAD_DIM * (int)sizeof(T), CHUNKS = ROW / 16, TILE = WARP * ROW;
  static constexpr int STAGE = 2 * TILE; // K then V
  static constexpr int WARP_BYTES = STAGES * STAGE;
  static constexpr int Q = AA_WARPS * WARP_BYTES;              // floats G * HEAD_DIM
  static constexpr int P = Q + G * HEAD_DIM * 4;               // floats [warps][32][G]
  static constexpr int ML = P + AA_WARPS * WARP * G * 4;       // floats [warps][G] m, then l
  static constexpr int TBL = ML + 2 * AA_WARPS * G * 4;        // ints [AA_TABLE]
  static constexpr int BYTES = TBL + AA_TABLE * 4;
};

template <class T, int HEAD_DIM, int G, int STAGES>
__device__ void grouped_attention_async(unsigned char *smem, const float *qkv, const T *k_cache, const T *v_cache,
                                        const int *table, int begin, int end, int kvh,
                                        int kv_dim, float scale, int pos, bool prefetch, int t,
                                        int heads, int kv_heads, int width) {
  using L = AsyncLayout<T, HEAD_DIM, G, STAGES>;
  constexpr int N = 16 / sizeof(T), CHUNKS = L::CHUNKS, RPS = WARP / CHUNKS;
  int warp = threadIdx.x / WARP, lane = threadIdx.x % WARP;
  unsigned char *mine = smem + warp * L::WARP_BYTES;
  const float *q = reinterpret_cast<const float *>(smem + L::Q);
  float(*p)[G] = reinterpret_cast<float(*)[G]>(smem + L::P + warp * WARP * G * 4);
  const int *tbl = reinterpret_cast<const int *>(smem + L::TBL);
  int first_block = begin / BLOCK_SIZE;
  // The warp's tiles: begin + (warp + AA_WARPS * i) * WARP.
  int ntiles = 0;
  for (int t0 = begin + warp * WARP; t0 < end; t0 += AA_WARPS * WARP) ntiles++;
  auto issue = [&](int i) {
    if (i < ntiles) {
      int tile = begin + (warp + AA_WARPS * i) * WARP;
      unsigned char *st = mine + (i % STAGES) * L::STAGE;
#pragma unroll
      for (int it = 0; it < CHUNKS; it++) {
        int flat = it * WARP + lane, r = flat / CHUNKS, c = flat % CHUNKS;
        int j = tile + r;
        bool valid = j < end;
        int b = j / BLOCK_SIZE - first_block;
        int blk = valid ? (b < AA_TABLE ? tbl[b] : table[j / BLOCK_SIZE]) : 0;
        size_t off = ((size_t)blk * BLOCK_SIZE + j % BLOCK_SIZE) * kv_dim + kvh * HEAD_DIM + c * N;
        aa_cp_async16(st + r * L::ROW + k_chunk<CHUNKS>(r, c) * 16, valid ? k_cache + off : k_cache, valid);
        aa_cp_async16(st + L::TILE + r * L::ROW + c * 16, valid ? v_cache + off : v_cache, valid);
      }
    }
    aa_cp_async_commit(); // an empty group past the last tile keeps the counting uniform
  };
  float m[G], l[G], acc[G][N];
#pragma unroll
  for (int g = 0; g < G; g++) {
    m[g] = -INFINITY;
    l[g] = 0.f;
#pragma unroll
    for (int e = 0; e < N; e++) acc[g][e] = 0.f;
  }
  // Tiles wholly before the token's own position hold keys and values of earlier steps: they may
  // be requested before the wait for the kernel before (which writes the position's own row).
  int early = 0;
  if (prefetch)
    while (early < STAGES - 1 && begin + (warp + AA_WARPS * early) * WARP + WARP <= pos) issue(early++);
  STEP_START;
  for (int s = early; s < STAGES - 1; s++) issue(s);
  {
    float *qs = reinterpret_cast<float *>(smem + L::Q);
    const float *qg = qkv + (size_t)t * (heads + 2 * kv_heads) * HEAD_DIM + (size_t)kvh * width;
    for (int i = threadIdx.x; i < G * HEAD_DIM; i += blockDim.x) qs[i] = i < width ? qg[i] : 0.f;
  }
  __syncthreads(); // the queries
  int sub = lane / CHUNKS, col = lane % CHUNKS;
  for (int i = 0; i < ntiles; i++) {
    issue(i + STAGES - 1);
    aa_cp_async_wait<STAGES - 1>();
    __syncwarp();
    const unsigned char *st = mine + (i % STAGES) * L::STAGE;
    int tile = begin + (warp + AA_WARPS * i) * WARP;
    int count = min(WARP, end - tile);
    bool valid = lane < count;
    float s[G];
#pragma unroll
    for (int g = 0; g < G; g++) s[g] = 0.f;
#pragma unroll
    for (int c = 0; c < CHUNKS; c++) {
      float kf[N];
      widen16(reinterpret_cast<const T *>(st + lane * L::ROW + k_chunk<CHUNKS>(lane, c) * 16), kf);
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
      l[g] = l[g] * correction + pg;
#pragma unroll
      for (int e = 0; e < N; e++) acc[g][e] *= correction;
      m[g] = m_new;
      p[lane][g] = pg;
    }
    __syncwarp();
#pragma unroll
    for (int r0 = 0; r0 < WARP; r0 += RPS) {
      int r = r0 + sub;
      if (r < count) {
        float vf[N];
        widen16(reinterpret_cast<const T *>(st + L::TILE + r * L::ROW + col * 16), vf);
#pragma unroll
        for (int g = 0; g < G; g++) {
          float pj = p[r][g];
#pragma unroll
          for (int e = 0; e < N; e++) acc[g][e] += pj * vf[e];
        }
      }
    }
    __syncwarp(); // the next issue overwrites this stage, the next tile p
  }
  aa_cp_async_wait<0>();
  __syncwarp();
  // Fold the RPS interleaved sums, publish the warp's m, l and acc (acc over the warp's stages).
  float *ms = reinterpret_cast<float *>(smem + L::ML);
  float *accs = reinterpret_cast<float *>(mine);
#pragma unroll
  for (int g = 0; g < G; g++) {
#pragma unroll
    for (int e = 0; e < N; e++)
      for (int o = CHUNKS; o < WARP; o *= 2) acc[g][e] += __shfl_xor_sync(0xffffffffu, acc[g][e], o);
    float lg = warp_sum(l[g]);
    if (lane == 0) {
      ms[warp * G + g] = m[g];
      ms[AA_WARPS * G + warp * G + g] = lg;
    }
    if (lane < CHUNKS) {
#pragma unroll
      for (int e = 0; e < N; e++) accs[g * HEAD_DIM + col * N + e] = acc[g][e];
    }
  }
}

template <class T, int HEAD_DIM, int G, int STAGES>
__device__ void attention_async_tail(unsigned char *smem, T *o, float *rec, int width,
                                     int head_dim, int splits) {
  using L = AsyncLayout<T, HEAD_DIM, G, STAGES>;
  const float *ms = reinterpret_cast<const float *>(smem + L::ML);
  for (int i = threadIdx.x; i < width; i += blockDim.x) {
    int g = i / HEAD_DIM;
    float mm = -INFINITY, total = 0.f, sum = 0.f;
    for (int w = 0; w < AA_WARPS; w++) mm = fmaxf(mm, ms[w * G + g]);
    for (int w = 0; w < AA_WARPS; w++) {
      if (ms[w * G + g] == -INFINITY) continue;
      float f = expf(ms[w * G + g] - mm);
      total += ms[AA_WARPS * G + w * G + g] * f;
      sum += reinterpret_cast<const float *>(smem + w * L::WARP_BYTES)[g * HEAD_DIM + i % HEAD_DIM] * f;
    }
    if (splits == 1) {
      o[i] = from_float<T>(sum / total);
    } else {
      float *r = rec + (size_t)g * (HEAD_DIM + 2);
      r[i % HEAD_DIM] = sum;
      if (i % HEAD_DIM == 0) {
        r[HEAD_DIM] = mm;
        r[HEAD_DIM + 1] = total;
      }
    }
  }
}

template <class T, int HEAD_DIM, int G, int STAGES, bool PREFETCH>
__device__ void attention_async_body(const float *qkv, const T *k_cache, const T *v_cache,
                                     const int *positions, const int *seq_of_token,
                                     const int *block_tables, T *out, int heads, int kv_heads,
                                     int max_blocks, float scale, float *partials,
                                     int *counters) {
  using L = AsyncLayout<T, HEAD_DIM, G, STAGES>;
  extern __shared__ __align__(128) unsigned char dynamic_smem[];
  unsigned char *smem = dynamic_smem;
  int t = blockIdx.x, kvh = blockIdx.y, split = blockIdx.z, splits = gridDim.z;
  int pos = positions[t];
  int group = heads / kv_heads, width = group * HEAD_DIM;
  T *o = out + ((size_t)t * heads + (size_t)kvh * group) * HEAD_DIM;
  float *rec = partials + (((size_t)t * kv_heads + kvh) * splits + split) * group * (HEAD_DIM + 2);
  if (pos < 0) {
    STEP_START; // the context row may still be read by the kernels before
    if (splits == 1)
      for (int d = threadIdx.x; d < width; d += blockDim.x) o[d] = from_float<T>(0.f);
    return;
  }
  int chunk = ((pos + splits) / splits + WARP - 1) / WARP * WARP;
  int begin = split * chunk, end = min(pos + 1, begin + chunk);
  const int *table = block_tables + seq_of_token[t] * max_blocks;
  int *tbl = reinterpret_cast<int *>(smem + L::TBL);
  int nb = end > begin ? (end - 1) / BLOCK_SIZE - begin / BLOCK_SIZE + 1 : 0;
  for (int b = threadIdx.x; b < min(nb, AA_TABLE); b += blockDim.x) tbl[b] = table[begin / BLOCK_SIZE + b];
  __syncthreads(); // the block numbers
  // A chunk's first token may read its sequence's earlier positions before the wait: the step
  // writes only its chunks' own positions (BatchStep.Chunk), a chunk's tokens adjacent.
  bool first = t == 0 || seq_of_token[t - 1] != seq_of_token[t];
  grouped_attention_async<T, HEAD_DIM, G, STAGES>(smem, qkv, k_cache, v_cache, table, begin, end,
                                                  kvh, kv_heads * HEAD_DIM, scale, pos,
                                                  PREFETCH && first,
                                                  t, heads, kv_heads, width);
  __syncthreads();
  attention_async_tail<T, HEAD_DIM, G, STAGES>(smem, o, rec, width, HEAD_DIM, splits);
  if (splits == 1 || counters == nullptr) return;
  // The last split of (token, kv head) to finish folds the records in split order (so the result
  // never depends on which one is last) and sets the counter back to zero for the next launch.
  __shared__ int last;
  __threadfence();
  __syncthreads();
  if (threadIdx.x == 0) last = atomicAdd(counters + t * kv_heads + kvh, 1) == splits - 1;
  __syncthreads();
  if (!last) return;
  __threadfence();
  float *w = reinterpret_cast<float *>(smem); // [G][MAX_SPLITS] weights, then [G] totals
  const float *recs = partials + ((size_t)t * kv_heads + kvh) * splits * group * (HEAD_DIM + 2);
  size_t stride = (size_t)group * (HEAD_DIM + 2);
  for (int g = threadIdx.x / WARP; g < group; g += blockDim.x / WARP) {
    int s = threadIdx.x % WARP;
    bool here = s < splits;
    const float *r = recs + s * stride + g * (HEAD_DIM + 2);
    float ms = here ? __ldcg(r + HEAD_DIM) : -INFINITY;
    float ls = here ? __ldcg(r + HEAD_DIM + 1) : 0.f;
    float mm = warp_max(ms);
    float f = ms == -INFINITY ? 0.f : expf(ms - mm);
    float total = warp_sum(ls * f);
    if (here) w[g * MAX_SPLITS + s] = f;
    if (s == 0) w[G * MAX_SPLITS + g] = total;
  }
  __syncthreads();
  for (int i = threadIdx.x; i < width; i += blockDim.x) {
    int g = i / HEAD_DIM, d = i % HEAD_DIM;
    float sum = 0.f;
    for (int s = 0; s < splits; s++) sum += __ldcg(recs + s * stride + g * (HEAD_DIM + 2) + d) * w[g * MAX_SPLITS + s];
    o[i] = from_float<T>(sum / w[G * MAX_SPLITS + g]);
  }
  if (threadIdx.x == 0) counters[t * kv_heads + kvh] = 0;
}
