// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 the cuda-graph authors
// The decode engine's kernels: one llama decode step is embed, then per layer norm_qkv_rope (Q, K
// and V in one launch, rotated and appended to the caches), attention, matvec_add (output
// projection), norm_gate_up and matvec_add (FFN down), then norm_matvec_argmax (logits) and
// finish: 5 * layers + 3 launches.
// Activations are fp32, weights fp16, products accumulated in fp32. The step reads its position
// and token from a state block in device memory and advances it itself (finish), so a graph of
// one step replays token after token without a host copy. Java references, doing the same
// arithmetic, are in cuda.graph.examples.decode.DecodeKernels; MODEL.md is the specification.
// Regenerate the PTX with regenerate.sh.
#include <cuda_fp16.h>
#include <cuda_runtime.h>

// The state block (int words): [0] position of the token being decoded, [1] that token,
// [2] steps left (for the device loop), [3] unused, [4..5] the running argmax of the step as a
// 64-bit key (0: none yet), [6 + p] the token fed at position p.
#define POS 0
#define TOKEN 1
#define LEFT 2
#define BEST 4
#define HISTORY 6

// Every kernel starts by letting the next kernel of the step launch (it then waits at its own
// synchronize) and by waiting for the kernel before it to finish: under programmatic dependent
// launch the next kernel's launch overlaps this one, and nothing is read before the kernel that
// wrote it has finished. Launched normally, both calls return at once.
#define STEP_START                           \
  do {                                       \
    cudaTriggerProgrammaticLaunchCompletion(); \
    cudaGridDependencySynchronize();         \
  } while (0)

#define WARP 32
#define BLOCK 256
#define WARPS (BLOCK / WARP)

__device__ __forceinline__ float warp_sum(float v) {
  for (int o = WARP / 2; o > 0; o /= 2) v += __shfl_xor_sync(0xffffffffu, v, o);
  return v;
}

__device__ __forceinline__ float warp_max(float v) {
  for (int o = WARP / 2; o > 0; o /= 2) v = fmaxf(v, __shfl_xor_sync(0xffffffffu, v, o));
  return v;
}

// Sum over the block; every thread gets the result. scratch: WARPS floats of shared memory.
__device__ float block_sum(float v, float *scratch) {
  v = warp_sum(v);
  int warp = threadIdx.x / WARP, lane = threadIdx.x % WARP;
  __syncthreads();
  if (lane == 0) scratch[warp] = v;
  __syncthreads();
  float total = 0.f;
  for (int w = 0; w < WARPS; w++) total += scratch[w];
  return total;
}

// Eight weights (16 bytes) times eight shared inputs, read as two float4 (one 8-way bank
// conflict per float becomes a 2-way one per float4).
// CG: xv is global memory written earlier in the same kernel by other blocks (the persistent
// step), read from L2 (ld.global.cg): the SM's L1 is not coherent with other SMs' writes.
template <bool CG = false>
__device__ __forceinline__ float dot8(uint4 v, const float *xv, float acc) {
  const __half2 *h = reinterpret_cast<const __half2 *>(&v);
  const float4 *x4 = reinterpret_cast<const float4 *>(xv);
  float4 a = CG ? __ldcg(x4) : x4[0];
  float4 b = CG ? __ldcg(x4 + 1) : x4[1];
  float2 f0 = __half22float2(h[0]), f1 = __half22float2(h[1]);
  float2 f2 = __half22float2(h[2]), f3 = __half22float2(h[3]);
  acc = fmaf(f0.x, a.x, acc);
  acc = fmaf(f0.y, a.y, acc);
  acc = fmaf(f1.x, a.z, acc);
  acc = fmaf(f1.y, a.w, acc);
  acc = fmaf(f2.x, b.x, acc);
  acc = fmaf(f2.y, b.y, acc);
  acc = fmaf(f3.x, b.z, acc);
  return fmaf(f3.y, b.w, acc);
}

// ---- Matrix-vector products streamed through shared memory
//
// Every product kernel runs on a grid sized to the GPU (a few blocks an SM, fixed by the host) and
// gives each block an even share of the rows, in pairs. A block streams its rows in tiles of about
// TILE_BYTES: one bulk copy (the Hopper copy engine, cp.async.bulk, completing on an mbarrier) per
// tile and matrix, several tiles in flight, so the bytes in flight cost no registers. The first
// tiles are requested before the dependency wait: under programmatic dependent launch a kernel
// streams its weights while the kernel before it finishes (weights never depend on it), and waits
// only before it reads the activations. It lets the next kernel launch at once (on the H200,
// triggering once the block's last tile had landed lost 7% at the 1B shape: 1,011 -> 944 tok/s). Each tile's rows are shared among the warps (a warp a row,
// or several warps a row when rows are long), their sums combined in shared memory, and the tile's
// epilogue (a residual add, SiLU, rotary embedding, argmax) runs on one thread a row.
#define TILE_BYTES 16384
#define MAX_STAGES 8

// The dynamic shared memory of the product kernels and the persistent step.
extern __shared__ __align__(128) unsigned char dynamic[];
#define MAX_TILE_ROWS 128

// The tiles in flight: as many as the launch's dynamic shared memory holds beside the input
// (DecodeEngine chooses; above 48 KiB the library opts the kernel in), at most MAX_STAGES.
__device__ __forceinline__ int stages_in(unsigned input_bytes) {
  unsigned dynamic;
  asm("mov.u32 %0, %%dynamic_smem_size;" : "=r"(dynamic));
  return min(MAX_STAGES, (int)((dynamic - input_bytes) / TILE_BYTES));
}

__device__ __forceinline__ unsigned smem_addr(const void *p) {
  return (unsigned)__cvta_generic_to_shared(p);
}

__device__ __forceinline__ void mbar_init(unsigned long long *bar, unsigned count) {
  asm volatile("mbarrier.init.shared::cta.b64 [%0], %1;" ::"r"(smem_addr(bar)), "r"(count)
               : "memory");
  asm volatile("fence.mbarrier_init.release.cluster;" ::: "memory");
}

// Arrives on the barrier and tells it how many bytes the copies that complete its phase bring.
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
// the barrier counts them when they have landed.
__device__ __forceinline__ void bulk_load(void *dst, const void *src, unsigned bytes,
                                          unsigned long long *bar) {
  asm volatile(
      "cp.async.bulk.shared::cluster.global.mbarrier::complete_tx::bytes [%0], [%1], %2, [%3];" ::
          "r"(smem_addr(dst)),
      "l"(src), "r"(bytes), "r"(smem_addr(bar))
      : "memory");
}

// How a block cuts its rows: rows per tile (even, so rotary pairs stay in one tile) and warps per
// row. Short rows: TILE_BYTES of rows, a warp a row. Long rows: fewer rows, each split between
// WARPS / rows warps. The host checks that a row of every matrix fits a tile and that the columns
// split evenly (DecodeEngine.checkTiling).
struct Tiling {
  int rows, warps_per_row;
};

__device__ __forceinline__ Tiling tiling(int cols, int mats) {
  int row_bytes = cols * 2 * mats;
  Tiling t;
  if (WARPS * row_bytes <= TILE_BYTES) {
    t.rows = min(MAX_TILE_ROWS, TILE_BYTES / row_bytes) & ~1;
    t.warps_per_row = 1;
  } else {
    t.rows = WARPS;
    while (t.rows > 1 && t.rows * row_bytes > TILE_BYTES) t.rows /= 2;
    t.warps_per_row = WARPS / t.rows;
  }
  return t;
}

// Out[tile parity][matrix][row * warps_per_row + part]: the tile's partial sums.
#define TILE_OUT(out, parity, m, slot) out[((parity) * MATS + (m)) * MAX_TILE_ROWS + (slot)]

// One block's share of a product: its rows [first, end) of MATS matrices of cols columns, cut
// into tiles.
template <int MATS>
struct Share {
  const __half *w[MATS];
  int cols, first, end, tiles;
  Tiling cut;

  __device__ Share(const __half *const (&ws)[MATS], int rows, int cols_) : cols(cols_) {
#pragma unroll
    for (int m = 0; m < MATS; m++) w[m] = ws[m];
    cut = tiling(cols, MATS);
    int pairs = (rows + 1) / 2;
    first = 2 * (int)((long long)blockIdx.x * pairs / gridDim.x);
    end = min(rows, 2 * (int)((long long)(blockIdx.x + 1) * pairs / gridDim.x));
    tiles = end > first ? (end - first + cut.rows - 1) / cut.rows : 0;
  }
};

// A block's tile buffers and their barriers. Tiles are numbered in the order the block asks for
// them across every product it streams (seq counts those consumed), so tile k lands in stage
// k % stages and completes that barrier's phase of parity (k / stages) & 1: the persistent step
// streams product after product through the same barriers without initializing them again.
struct Pipe {
  unsigned char *buffers;   // stages * TILE_BYTES of dynamic shared memory
  unsigned long long *bars; // stages barriers
  int stages;
  unsigned seq;

  __device__ void init() { // one thread
    for (int s = 0; s < stages; s++) mbar_init(&bars[s], 1);
  }

  template <int MATS>
  __device__ void request(const Share<MATS> &sh, int t) { // one thread
    int s = (seq + t) % stages, row = sh.first + t * sh.cut.rows, n = min(sh.cut.rows, sh.end - row);
    unsigned bytes = (unsigned)n * sh.cols * 2;
    mbar_expect_bytes(&bars[s], bytes * MATS);
    unsigned char *dst = buffers + s * TILE_BYTES;
#pragma unroll
    for (int m = 0; m < MATS; m++)
      bulk_load(dst + m * sh.cut.rows * sh.cols * 2, sh.w[m] + (size_t)row * sh.cols, bytes,
                &bars[s]);
  }

  // Asks for the share's first tiles (one thread); every stage must be free.
  template <int MATS>
  __device__ void start(const Share<MATS> &sh) {
    for (int t = 0; t < stages && t < sh.tiles; t++) request(sh, t);
  }

  // Streams the share (its first tiles asked for by start) against the input vector x and calls
  // epi(row0, n, sums, parity) after each tile (sums: the TILE_OUT array `out`, on every thread,
  // after a barrier; threads below n or n / 2 do the work). CG: x is global memory written by
  // other blocks of the same kernel.
  template <int MATS, bool CG, class Epi>
  __device__ void stream(const Share<MATS> &sh, const float *x, Epi &epi, float *out) {
    int tid = threadIdx.x, warp = tid / WARP, lane = tid % WARP;
    int wpr = sh.cut.warps_per_row, part_cols = sh.cols / wpr, chunks = part_cols / 8;
    for (int t = 0; t < sh.tiles; t++) {
      int s = (seq + t) % stages, row0 = sh.first + t * sh.cut.rows;
      int n = min(sh.cut.rows, sh.end - row0);
      mbar_wait(&bars[s], ((seq + t) / stages) & 1u);
      const __half *tile = reinterpret_cast<const __half *>(buffers + s * TILE_BYTES);
      for (int slot = warp; slot < n * wpr; slot += WARPS) {
        int i = slot / wpr, part = slot % wpr;
        const float *xp = x + part * part_cols;
#pragma unroll
        for (int m = 0; m < MATS; m++) {
          const uint4 *src =
              reinterpret_cast<const uint4 *>(tile + (size_t)(m * sh.cut.rows + i) * sh.cols) +
              part * (part_cols / 8);
          float acc = 0.f;
#pragma unroll 4
          for (int c = lane; c < chunks; c += WARP) acc = dot8<CG>(src[c], xp + c * 8, acc);
          acc = warp_sum(acc);
          if (lane == 0) TILE_OUT(out, t & 1, m, slot) = acc;
        }
      }
      __syncthreads(); // the tile is read (its buffer free again) and its sums are visible
      if (tid == 0 && t + stages < sh.tiles) request(sh, t + stages);
      epi(row0, n, wpr, out, t & 1);
    }
    seq += sh.tiles;
  }
};

// Streams this block's rows of W (MATS matrices) against the input vector (Pipe::stream). Before
// the dependency wait it only sets up and requests tiles (and load.prefetch its constants); the
// input comes from load(input), called after the wait, which returns a pointer to it (shared
// memory, or global memory when Load::global).
template <int MATS, class Load, class Epi>
__device__ __forceinline__ void stream_rows(const __half *const (&w)[MATS], int rows, int cols,
                                            const Load &load, Epi &epi) {
  __shared__ __align__(8) unsigned long long bars[MAX_STAGES];
  __shared__ float out[2 * MATS * MAX_TILE_ROWS];
  Share<MATS> sh(w, rows, cols);
  Pipe pipe{dynamic, bars, stages_in(load.input_bytes()), 0};
  unsigned char *input = dynamic + pipe.stages * TILE_BYTES;
  cudaTriggerProgrammaticLaunchCompletion();
  load.prefetch(input); // first: the copies land in the order they were asked for
  if (threadIdx.x == 0) {
    pipe.init();
    pipe.start(sh);
  }
  cudaGridDependencySynchronize();
  const float *x = load(input);
  __syncthreads(); // the barriers' initialization, and a shared input, seen by every thread
  pipe.stream<MATS, false>(sh, x, epi, out);
}

// The sum of row i's parts in a tile.
template <int MATS>
__device__ __forceinline__ float tile_sum(const float *out, int parity, int m, int i, int wpr) {
  float d = 0.f;
  for (int k = 0; k < wpr; k++) d += TILE_OUT(out, parity, m, i * wpr + k);
  return d;
}

// Loads: the input normalized into shared memory, or read where it is.
struct NormLoad {
  const float *x;
  const __half *norm;
  int cols;
  float eps;
  unsigned long long *bar; // a shared barrier for the norm's weights

  // The input, then the norm's weights.
  __device__ unsigned input_bytes() const { return cols * (sizeof(float) + sizeof(__half)); }

  // The norm's weights are constants: copied before the dependency wait.
  __device__ void prefetch(unsigned char *input) const {
    if (threadIdx.x == 0) {
      mbar_init(bar, 1);
      mbar_expect_bytes(bar, cols * sizeof(__half));
      bulk_load(input + cols * sizeof(float), norm, cols * sizeof(__half), bar);
    }
  }

  // x into shared memory, scaled by rmsnorm and the norm's weights.
  __device__ const float *operator()(unsigned char *input) const {
    __shared__ float scratch[WARPS];
    float *xs = reinterpret_cast<float *>(input);
    const __half *ns = reinterpret_cast<const __half *>(input + cols * sizeof(float));
    float ss = 0.f;
    for (int i = threadIdx.x; i < cols; i += BLOCK) {
      float v = x[i];
      xs[i] = v;
      ss += v * v;
    }
    // block_sum's barriers also publish the norm barrier's initialization
    float scale = rsqrtf(block_sum(ss, scratch) / cols + eps);
    mbar_wait(bar, 0);
    for (int i = threadIdx.x; i < cols; i += BLOCK) xs[i] = xs[i] * scale * __half2float(ns[i]);
    __syncthreads();
    return xs;
  }
};

__device__ __forceinline__ unsigned long long *norm_barrier() {
  __shared__ __align__(8) unsigned long long bar;
  return &bar;
}

struct DirectLoad {
  const float *x;
  __device__ unsigned input_bytes() const { return 0; }
  __device__ void prefetch(unsigned char *) const {}
  __device__ const float *operator()(unsigned char *) const { return x; }
};

// CG: x was written by other blocks of the same kernel (the persistent step): read through L2.
template <bool CG = false>
struct AddEpi {
  float *x;
  __device__ void operator()(int row0, int n, int wpr, const float *sums, int parity) {
    int i = threadIdx.x;
    if (i < n) {
      float *r = x + row0 + i;
      *r = (CG ? __ldcg(r) : *r) + tile_sum<1>(sums, parity, 0, i, wpr);
    }
  }
};

struct SiluEpi {
  float *h;
  __device__ void operator()(int row0, int n, int wpr, const float *sums, int parity) {
    int i = threadIdx.x;
    if (i < n) {
      float g = tile_sum<2>(sums, parity, 0, i, wpr), u = tile_sum<2>(sums, parity, 1, i, wpr);
      h[row0 + i] = g / (1.f + expf(-g)) * u;
    }
  }
};

// A float's order as an unsigned int; the key puts the value above the complemented index, so
// the largest key is the largest logit with the lowest index.
__device__ __forceinline__ unsigned long long argmax_key(float v, int index) {
  unsigned int b = __float_as_uint(v);
  b = (b & 0x80000000u) ? ~b : (b | 0x80000000u);
  return ((unsigned long long)b << 32) | (unsigned int)(~index);
}

// Folds the block's best keys (one a thread) into the step's argmax, state[BEST].
__device__ void fold_argmax(unsigned long long mine, int *state) {
  __shared__ unsigned long long best[WARPS];
  for (int o = WARP / 2; o > 0; o /= 2) {
    unsigned long long other = __shfl_xor_sync(0xffffffffu, mine, o);
    mine = other > mine ? other : mine;
  }
  if (threadIdx.x % WARP == 0) best[threadIdx.x / WARP] = mine;
  __syncthreads();
  if (threadIdx.x == 0) {
    unsigned long long b = 0;
    for (int i = 0; i < WARPS; i++) b = best[i] > b ? best[i] : b;
    if (b != 0) atomicMax(reinterpret_cast<unsigned long long *>(state + BEST), b);
  }
}

struct ArgmaxEpi {
  float *logits;
  unsigned long long best = 0;
  __device__ void operator()(int row0, int n, int wpr, const float *sums, int parity) {
    int i = threadIdx.x;
    if (i < n) {
      float d = tile_sum<1>(sums, parity, 0, i, wpr);
      logits[row0 + i] = d;
      unsigned long long k = argmax_key(d, row0 + i);
      best = k > best ? k : best;
    }
  }
};

// token -> x: x = tok_embeddings[state[TOKEN]].
extern "C" __global__ void embed(const int *state, const __half *emb, float *x, int dim) {
  STEP_START;
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < dim) x[i] = __half2float(emb[(size_t)state[TOKEN] * dim + i]);
}

// x[r] += W[r] . in, r < rows (a projection added to the residual stream). Dynamic shared memory:
// the tiles.
extern "C" __global__ void matvec_add(const float *in, const __half *w, float *x, int rows,
                                      int cols) {
  const __half *ws[1] = {w};
  AddEpi<> epi{x};
  stream_rows<1>(ws, rows, cols, DirectLoad{in}, epi);
}

// h[r] = silu(W1[r] . xn) * (W3[r] . xn), xn = rmsnorm(x) * norm. Dynamic shared memory: the
// tiles, then cols floats and cols halves.
extern "C" __global__ void norm_gate_up(const float *x, const __half *norm, const __half *w1,
                                        const __half *w3, float *h, int rows, int cols,
                                        float eps) {
  const __half *ws[2] = {w1, w3};
  SiluEpi epi{h};
  stream_rows<2>(ws, rows, cols, NormLoad{x, norm, cols, eps, norm_barrier()}, epi);
}

// logits[r] = output[r] . (rmsnorm(x) * norm), and the step's argmax folded into state[BEST].
extern "C" __global__ void norm_matvec_argmax(const float *x, const __half *norm,
                                              const __half *w, float *logits, int *state,
                                              int rows, int cols, float eps) {
  const __half *ws[1] = {w};
  ArgmaxEpi epi{logits};
  stream_rows<1>(ws, rows, cols, NormLoad{x, norm, cols, eps, norm_barrier()}, epi);
  fold_argmax(epi.best, state);
}

// The rotation of pair i of a head at position pos.
__device__ __forceinline__ void rotate(float &x0, float &x1, int pos, int i, int head_dim,
                                       float theta) {
  float angle = pos * powf(theta, -2.f * i / head_dim);
  float c, s;
  sincosf(angle, &s, &c);
  float r0 = x0 * c - x1 * s, r1 = x0 * s + x1 * c;
  x0 = r0;
  x1 = r1;
}

// norm_matvec of the fused QKV weights, then rope_cache's work on the tile's rows: q and k rotated
// for position state[POS], k and v written into the layer's caches at that position.
struct QkvRopeEpi {
  float *qkv;
  const int *state;
  float *k_cache, *v_cache;
  int q_dim, kv_dim, head_dim;
  float theta;
  __device__ void operator()(int row0, int n, int wpr, const float *sums, int parity) {
    int p = threadIdx.x;
    if (2 * p < n) {
      int r = row0 + 2 * p; // even: tiles and block shares start at even rows
      float x0 = tile_sum<1>(sums, parity, 0, 2 * p, wpr);
      float x1 = tile_sum<1>(sums, parity, 0, 2 * p + 1, wpr);
      int pos = state[POS];
      if (r < q_dim + kv_dim) rotate(x0, x1, pos, (r % head_dim) / 2, head_dim, theta);
      qkv[r] = x0;
      qkv[r + 1] = x1;
      if (r >= q_dim + kv_dim) {
        float *v = v_cache + (size_t)pos * kv_dim + (r - q_dim - kv_dim);
        v[0] = x0;
        v[1] = x1;
      } else if (r >= q_dim) {
        float *k = k_cache + (size_t)pos * kv_dim + (r - q_dim);
        k[0] = x0;
        k[1] = x1;
      }
    }
  }
};

// qkv = W . (rmsnorm(x) * norm), rotated and appended to the caches (norm_matvec + rope_cache).
extern "C" __global__ void norm_qkv_rope(const float *x, const __half *norm, const __half *w,
                                         float *qkv, const int *state, float *k_cache,
                                         float *v_cache, int heads, int kv_heads, int head_dim,
                                         int cols, float eps, float theta) {
  const __half *ws[1] = {w};
  int q_dim = heads * head_dim, kv_dim = kv_heads * head_dim;
  QkvRopeEpi epi{qkv, state, k_cache, v_cache, q_dim, kv_dim, head_dim, theta};
  stream_rows<1>(ws, q_dim + 2 * kv_dim, cols, NormLoad{x, norm, cols, eps, norm_barrier()}, epi);
}

#define MAX_HEAD_DIM 128

// The attention of head h (of key/value group g) at position pos, by one block: positions below
// staged from shared memory (ks, vs: a row of head_dim floats a position, complete once `staged`
// has completed its phase 0; nullptr when nothing is staged), the rest from global memory through
// L2 (the current position's row was written by another kernel, or by another block of the same
// kernel). scores: pos + 1 floats and q: head_dim floats of shared memory.
__device__ void attend(int h, int g, int pos, const float *qkv, const float *ks, const float *vs,
                       unsigned long long *staged_bar, int staged, const float *k_cache,
                       const float *v_cache, float *out, float *scores, float *q, int head_dim,
                       int kv_dim) {
  __shared__ float scratch[WARPS];
  __shared__ float partial[WARPS][MAX_HEAD_DIM];
  int len = pos + 1, n4 = head_dim / 4;
  float scale = rsqrtf((float)head_dim);
  for (int d = threadIdx.x; d < head_dim; d += BLOCK) q[d] = __ldcg(qkv + h * head_dim + d) * scale;
  if (staged_bar != nullptr) mbar_wait(staged_bar, 0);
  __syncthreads();
  float m = -INFINITY;
  const float4 *qv = reinterpret_cast<const float4 *>(q);
  for (int j = threadIdx.x; j < len; j += BLOCK) {
    float dot = 0.f;
    if (j < staged) {
      const float4 *k = reinterpret_cast<const float4 *>(ks + j * head_dim);
      int d = j % n4;
#pragma unroll 8
      for (int i = 0; i < n4; i++) {
        float4 a = k[d], b = qv[d];
        dot = fmaf(a.x, b.x, dot);
        dot = fmaf(a.y, b.y, dot);
        dot = fmaf(a.z, b.z, dot);
        dot = fmaf(a.w, b.w, dot);
        d = d + 1 == n4 ? 0 : d + 1;
      }
    } else {
      const float4 *k =
          reinterpret_cast<const float4 *>(k_cache + (size_t)j * kv_dim + g * head_dim);
#pragma unroll 8
      for (int d = 0; d < n4; d++) {
        float4 a = __ldcg(k + d), b = qv[d];
        dot = fmaf(a.x, b.x, dot);
        dot = fmaf(a.y, b.y, dot);
        dot = fmaf(a.z, b.z, dot);
        dot = fmaf(a.w, b.w, dot);
      }
    }
    scores[j] = dot;
    m = fmaxf(m, dot);
  }
  int warp = threadIdx.x / WARP, lane = threadIdx.x % WARP;
  m = warp_max(m);
  if (lane == 0) scratch[warp] = m;
  __syncthreads();
  m = scratch[0];
  for (int w = 1; w < WARPS; w++) m = fmaxf(m, scratch[w]);
  float sum = 0.f;
  for (int j = threadIdx.x; j < len; j += BLOCK) {
    float e = __expf(scores[j] - m);
    scores[j] = e;
    sum += e;
  }
  sum = block_sum(sum, scratch); // its barriers also publish the exponentials
  float acc[MAX_HEAD_DIM / WARP] = {0.f, 0.f, 0.f, 0.f};
#pragma unroll 4
  for (int j = warp; j < len; j += WARPS) {
    float p = scores[j];
    bool shared_row = j < staged;
    const float *row = shared_row ? vs + j * head_dim : v_cache + (size_t)j * kv_dim + g * head_dim;
#pragma unroll
    for (int i = 0; i < MAX_HEAD_DIM / WARP; i++) {
      int d = lane + i * WARP;
      if (d < head_dim) acc[i] = fmaf(p, shared_row ? row[d] : __ldcg(row + d), acc[i]);
    }
  }
#pragma unroll
  for (int i = 0; i < MAX_HEAD_DIM / WARP; i++) {
    int d = lane + i * WARP;
    if (d < head_dim) partial[warp][d] = acc[i];
  }
  __syncthreads();
  float inv = 1.f / sum;
  for (int d = threadIdx.x; d < head_dim; d += BLOCK) {
    float total = 0.f;
    for (int w = 0; w < WARPS; w++) total += partial[w][d];
    out[h * head_dim + d] = total * inv;
  }
  __syncthreads(); // scores, q and partial free for the next head
}

// One block per head: softmax(q . k_j / sqrt(head_dim)) over j <= state[POS], then the weighted
// sum of v_j. The keys and values before state[POS] were written by earlier steps, so before the
// dependency wait the block copies as many of its group's rows as its shared memory holds (a bulk
// copy a row), while the QKV kernel before it runs; after the wait it reads the rest, among them
// the current position's, which that kernel writes, from global memory. Scores: one thread per
// position, reading its key as float4, each thread starting at another float4 of the row (rows
// in shared memory are a multiple of 16 bytes apart: the same start would hit the same banks).
// Sum: each warp takes every WARPS-th position, its lanes the dimensions, then the warps' partial
// sums are added. head_dim <= 128 and a multiple of 4. state[POS] is read before the wait: only
// the previous step's finish wrote it, and steps never overlap.
// Dynamic shared memory: max_seq + head_dim floats, then room staged keys and as many values
// (2 * room * head_dim floats, room chosen by the host).
extern "C" __global__ void attention(const float *qkv, const int *state, const float *k_cache,
                                     const float *v_cache, float *out, int heads, int kv_heads,
                                     int head_dim, int max_seq) {
  cudaTriggerProgrammaticLaunchCompletion();
  extern __shared__ __align__(16) float shared[];
  __shared__ __align__(8) unsigned long long staged_bar;
  unsigned dynamic;
  asm("mov.u32 %0, %%dynamic_smem_size;" : "=r"(dynamic));
  int room = (int)((dynamic / sizeof(float) - max_seq - head_dim) / (2 * head_dim));
  float *scores = shared, *q = shared + max_seq, *ks = q + head_dim, *vs = ks + room * head_dim;
  int h = blockIdx.x, g = h / (heads / kv_heads);
  int kv_dim = kv_heads * head_dim;
  int pos = state[POS], staged = min(pos, room);
  unsigned row_bytes = head_dim * sizeof(float);
  if (threadIdx.x == 0) {
    mbar_init(&staged_bar, 1);
    mbar_expect_bytes(&staged_bar, 2 * staged * row_bytes);
  }
  __syncthreads(); // the barrier's initialization, seen by every thread
  for (int j = threadIdx.x; j < staged; j += BLOCK) {
    size_t at = (size_t)j * kv_dim + g * head_dim;
    bulk_load(ks + j * head_dim, k_cache + at, row_bytes, &staged_bar);
    bulk_load(vs + j * head_dim, v_cache + at, row_bytes, &staged_bar);
  }
  cudaGridDependencySynchronize();
  attend(h, g, pos, qkv, ks, vs, &staged_bar, staged, k_cache, v_cache, out, scores, q, head_dim,
         kv_dim);
}

// Ends a step (one thread): the argmax becomes the token at the next position.
__device__ void advance(int *state) {
  unsigned long long *best = reinterpret_cast<unsigned long long *>(state + BEST);
  // from L2: in the persistent step other SMs folded it in, and this SM's L1 may hold the line
  int token = (int)(~(unsigned int)(__ldcg(best) & 0xffffffffu));
  *best = 0;
  int pos = state[POS] + 1;
  state[POS] = pos;
  state[TOKEN] = token;
  state[HISTORY + pos] = token;
  state[LEFT] -= 1;
}

extern "C" __global__ void finish(int *state) { STEP_START; advance(state); }

// The same inside a device-side loop: the loop goes on while steps are left.
extern "C" __global__ void finish_loop(int *state, cudaGraphConditionalHandle more) {
  STEP_START;
  advance(state);
  cudaGraphSetConditional(more, state[LEFT] > 0 ? 1u : 0u);
}

// ---- Streaming tokens to the host while the device loop runs

// Nanoseconds of the GPU's global timer.
__device__ __forceinline__ long long global_ns() {
  long long t;
  asm volatile("mov.u64 %0, %%globaltimer;" : "=l"(t));
  return t;
}

// A load with acquire semantics at system scope: what the host released before the value it
// reads is visible to this thread's later accesses (host memory mapped into the device).
__device__ __forceinline__ long long load_acquire_sys(const long long *p) {
  long long v;
  asm volatile("ld.acquire.sys.b64 %0, [%1];" : "=l"(v) : "l"(p) : "memory");
  return v;
}

// The token ring (long long words, host memory mapped into the device's address space; Java:
// cuda.graph.examples.decode.TokenRing): [0] tokens published, [1] 1 once the device gave up
// waiting for a slot, [8] tokens the host has consumed (written by the host), then per slot s the
// token at [16 + 2s] and the global timer when it was written at [17 + 2s]. Token i of a decode
// (the token at position i + 1) goes to slot i % capacity.
#define RING_PUBLISHED 0
#define RING_TIMED_OUT 1
#define RING_CONSUMED 8
#define RING_HEADER 16

// finish_loop, then the new token published to the host: written with the device's timer into its
// slot, made visible to the host (__threadfence_system), then the count published (a volatile
// store). A slot is overwritten only once the host has consumed its previous token: from the
// second lap of the ring on, the kernel reads the host's count (one read across the bus) and waits
// for it, at most timeout_ns; then it sets RING_TIMED_OUT and ends the loop, publishing nothing
// more. With a ring of at least as many slots as steps it never reads host memory.
extern "C" __global__ void finish_stream(int *state, cudaGraphConditionalHandle more,
                                         long long *ring, int capacity, long long timeout_ns) {
  STEP_START;
  advance(state);
  int i = state[POS] - 1;
  if (i >= capacity) {
    long long need = (long long)i - capacity + 1, deadline = 0;
    while (load_acquire_sys(ring + RING_CONSUMED) < need) {
      long long now = global_ns();
      if (deadline == 0) {
        deadline = now + timeout_ns;
      } else if (now > deadline) {
        *(volatile long long *)(ring + RING_TIMED_OUT) = 1;
        cudaGraphSetConditional(more, 0u);
        return;
      }
    }
  }
  long long *slot = ring + RING_HEADER + 2 * (i % capacity);
  slot[0] = state[TOKEN];
  slot[1] = global_ns();
  __threadfence_system();
  *(volatile long long *)(ring + RING_PUBLISHED) = i + 1;
  cudaGraphSetConditional(more, state[LEFT] > 0 ? 1u : 0u);
}

// The clock calibration (Java: TokenRing.calibrate), one thread: for rounds r = 1, 2, ... waits
// until the host has stored r in sync[0], reads the global timer into sync[2], fences, and answers
// r in sync[1]. Each wait is bounded by timeout_ns; on timeout it sets sync[3] and returns.
extern "C" __global__ void clock_sync(long long *sync, int rounds, long long timeout_ns) {
  if (blockIdx.x != 0 || threadIdx.x != 0) return;
  for (int r = 1; r <= rounds; r++) {
    long long deadline = global_ns() + timeout_ns;
    while (load_acquire_sys(sync) < r) {
      if (global_ns() > deadline) {
        *(volatile long long *)(sync + 3) = 1;
        return;
      }
    }
    sync[2] = global_ns();
    __threadfence_system();
    *(volatile long long *)(sync + 1) = r;
  }
}

// ---- The whole step in one kernel
//
// decode_step runs the phases of a step (embed; per layer QKV + RoPE, attention, output
// projection, gate/up, down; logits + argmax; the state advanced) in one launch, on blocks that
// all stay resident (the host launches at most as many as fit on the GPU at once), with a
// grid-wide barrier between phases where the kernels above have a kernel boundary. Before each
// barrier a block already asks for its first tiles of the next product, so the memory keeps
// streaming across phases. Everything the step writes is read back through L2 (ld.global.cg,
// __ldcg): an SM's L1 does not see other SMs' writes.

// The weights in one buffer, in this order (DecodeEngine lays them out so): per layer the
// attention norm (dim), QKV (qkv_rows x dim), wo (dim x dim), the FFN norm (dim), w1 and w3 (ffn
// x dim each), w2 (dim x ffn); then the final norm (dim), the output head and the embeddings
// (vocab x dim each). Every size is a multiple of 8 halves (16 bytes).
struct Layout {
  const __half *w;
  int dim, qkv_rows, ffn, vocab, layers;
  __device__ size_t layer_size() const {
    return 2 * (size_t)dim + (size_t)(qkv_rows + dim) * dim + 3 * (size_t)ffn * dim;
  }
  __device__ const __half *attention_norm(int l) const { return w + l * layer_size(); }
  __device__ const __half *qkv(int l) const { return attention_norm(l) + dim; }
  __device__ const __half *wo(int l) const { return qkv(l) + (size_t)qkv_rows * dim; }
  __device__ const __half *ffn_norm(int l) const { return wo(l) + (size_t)dim * dim; }
  __device__ const __half *w1(int l) const { return ffn_norm(l) + dim; }
  __device__ const __half *w3(int l) const { return w1(l) + (size_t)ffn * dim; }
  __device__ const __half *w2(int l) const { return w3(l) + (size_t)ffn * dim; }
  __device__ const __half *norm() const { return w + layers * layer_size(); }
  __device__ const __half *output() const { return norm() + dim; }
  __device__ const __half *embeddings() const { return output() + (size_t)vocab * dim; }
};

// The grid-wide barrier's words (unsigned): [0] blocks arrived at the current barrier, [1]
// barriers passed, [2] 1 once a block gave up waiting: the blocks were not all resident at once
// (another kernel held SMs), so the step cannot complete; every block then returns at its next
// barrier and the host reports it (DecodeEngine.checkResident). Zeroed by the host before use.
#define SYNC_ARRIVED 0
#define SYNC_PASSED 1
#define SYNC_FAILED 2
#define BARRIER_TIMEOUT_NS 1000000000LL

// Waits until every block of the grid has arrived; what each wrote before is visible to all
// after it (fences on both sides of the arrival). false: the wait timed out or failed before.
__device__ bool grid_barrier(unsigned *sync) {
  __shared__ int passed;
  __syncthreads();
  if (threadIdx.x == 0) {
    volatile unsigned *generation = sync + SYNC_PASSED, *failed = sync + SYNC_FAILED;
    unsigned g = *generation;
    int ok = 1;
    __threadfence();
    if (atomicAdd(sync + SYNC_ARRIVED, 1u) == gridDim.x - 1) {
      atomicExch(sync + SYNC_ARRIVED, 0u);
      __threadfence();
      atomicAdd(sync + SYNC_PASSED, 1u);
    } else {
      long long deadline = global_ns() + BARRIER_TIMEOUT_NS;
      while (*generation == g) {
        if (*failed != 0 || global_ns() > deadline) {
          *failed = 1;
          ok = 0;
          break;
        }
      }
    }
    __threadfence();
    passed = ok;
  }
  __syncthreads();
  return passed != 0;
}

// x (written by other blocks) into shared memory, scaled by rmsnorm and the norm's weights.
__device__ const float *norm_input(const float *x, const __half *norm, float *xs, int cols,
                                   float eps) {
  __shared__ float scratch[WARPS];
  float ss = 0.f;
  for (int i = threadIdx.x; i < cols; i += BLOCK) {
    float v = __ldcg(x + i);
    xs[i] = v;
    ss += v * v;
  }
  float scale = rsqrtf(block_sum(ss, scratch) / cols + eps);
  for (int i = threadIdx.x; i < cols; i += BLOCK) xs[i] = xs[i] * scale * __half2float(norm[i]);
  __syncthreads();
  return xs;
}

// Dynamic shared memory: the tiles, then max(dim, max_seq + head_dim) floats (the normalized
// input, or the attention's scores and query).
extern "C" __global__ void __launch_bounds__(BLOCK, 4)
    decode_step(const __half *weights, int *state, float *k_cache, float *v_cache, float *x,
                float *qkv, float *att, float *h, float *logits, unsigned *sync, int dim,
                int layers, int heads, int kv_heads, int ffn, int vocab, int max_seq, float eps,
                float theta) {
  __shared__ __align__(8) unsigned long long bars[MAX_STAGES];
  __shared__ float out[2 * 2 * MAX_TILE_ROWS];
  int tid = threadIdx.x, head_dim = dim / heads, kv_dim = kv_heads * head_dim;
  int q_dim = heads * head_dim, qkv_rows = q_dim + 2 * kv_dim;
  Layout lay{weights, dim, qkv_rows, ffn, vocab, layers};
  Pipe pipe{dynamic, bars, stages_in(max(dim, max_seq + head_dim) * sizeof(float)), 0};
  float *input = reinterpret_cast<float *>(dynamic + pipe.stages * TILE_BYTES);
  int pos = state[POS], token = state[TOKEN];
  if (tid == 0) pipe.init();
  // Shares are made where tiles are asked for and again where they are streamed: the same rows.
#define NEXT_PRODUCT(MATS, ...)                                                                \
  do {                                                                                         \
    const __half *w_[MATS] = {__VA_ARGS__};                                                    \
    Share<MATS> sh_(w_, rows_, cols_);                                                         \
    if (tid == 0) pipe.start(sh_);                                                             \
  } while (0)
  {
    int rows_ = qkv_rows, cols_ = dim;
    NEXT_PRODUCT(1, lay.qkv(0));
  }
  const __half *emb = lay.embeddings() + (size_t)token * dim;
  for (int i = blockIdx.x * BLOCK + tid; i < dim; i += gridDim.x * BLOCK)
    x[i] = __half2float(emb[i]);
  if (!grid_barrier(sync)) return;
  for (int l = 0; l < layers; l++) {
    float *kc = k_cache + (size_t)l * max_seq * kv_dim, *vc = v_cache + (size_t)l * max_seq * kv_dim;
    {
      const __half *w[1] = {lay.qkv(l)};
      QkvRopeEpi epi{qkv, state, kc, vc, q_dim, kv_dim, head_dim, theta};
      pipe.stream<1, false>(Share<1>(w, qkv_rows, dim),
                            norm_input(x, lay.attention_norm(l), input, dim, eps), epi, out);
      int rows_ = dim, cols_ = dim;
      NEXT_PRODUCT(1, lay.wo(l));
    }
    if (!grid_barrier(sync)) return;
    for (int hd = blockIdx.x; hd < heads; hd += gridDim.x)
      attend(hd, hd / (heads / kv_heads), pos, qkv, nullptr, nullptr, nullptr, 0, kc, vc, att,
             input, input + max_seq, head_dim, kv_dim);
    if (!grid_barrier(sync)) return;
    {
      const __half *w[1] = {lay.wo(l)};
      AddEpi<true> epi{x};
      pipe.stream<1, true>(Share<1>(w, dim, dim), att, epi, out);
      int rows_ = ffn, cols_ = dim;
      NEXT_PRODUCT(2, lay.w1(l), lay.w3(l));
    }
    if (!grid_barrier(sync)) return;
    {
      const __half *w[2] = {lay.w1(l), lay.w3(l)};
      SiluEpi epi{h};
      pipe.stream<2, false>(Share<2>(w, ffn, dim), norm_input(x, lay.ffn_norm(l), input, dim, eps),
                            epi, out);
      int rows_ = dim, cols_ = ffn;
      NEXT_PRODUCT(1, lay.w2(l));
    }
    if (!grid_barrier(sync)) return;
    {
      const __half *w[1] = {lay.w2(l)};
      AddEpi<true> epi{x};
      pipe.stream<1, true>(Share<1>(w, dim, ffn), h, epi, out);
      if (l + 1 < layers) {
        int rows_ = qkv_rows, cols_ = dim;
        NEXT_PRODUCT(1, lay.qkv(l + 1));
      } else {
        int rows_ = vocab, cols_ = dim;
        NEXT_PRODUCT(1, lay.output());
      }
    }
    if (!grid_barrier(sync)) return;
  }
#undef NEXT_PRODUCT
  {
    const __half *w[1] = {lay.output()};
    ArgmaxEpi epi{logits};
    pipe.stream<1, false>(Share<1>(w, vocab, dim), norm_input(x, lay.norm(), input, dim, eps), epi,
                          out);
    fold_argmax(epi.best, state);
  }
  if (!grid_barrier(sync)) return;
  if (blockIdx.x == 0 && tid == 0) advance(state);
}
