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
  long long trace_start = trace_now();       \
  cudaTriggerProgrammaticLaunchCompletion(); \
  cudaGridDependencySynchronize();           \
  long long trace_waited = trace_now()

#define WARP 32
#define BLOCK 256
#define WARPS (BLOCK / WARP)

// Nanoseconds of the GPU's global timer.
__device__ __forceinline__ long long global_ns() {
  long long t;
  asm volatile("mov.u64 %0, %%globaltimer;" : "=l"(t));
  return t;
}

// ---- Tracing, for Decode --trace: compiled in only with -DDECODE_TRACE (regenerate.sh --trace
// writes that PTX elsewhere); otherwise the calls below compile to nothing. Where trace_to has
// named a buffer, every block of a traced kernel appends a record of when it started, when its
// dependency wait returned and when it ended (the global timer, ns), with its launch (%gridid), its
// kernel (the TRACE_ numbers) and its SM. The buffer (unsigned long long words): [0] records
// appended (atomic; those past the capacity are dropped), [1] the capacity in records, then
// TRACE_WORDS words a record.
#define TRACE_WORDS 6
#define TRACE_EMBED 0
#define TRACE_QKV 1
#define TRACE_ATTENTION 2
#define TRACE_MATVEC_ADD 3
#define TRACE_GATE_UP 4
#define TRACE_LOGITS 5
#define TRACE_FINISH 6

__device__ unsigned long long *trace_out = nullptr;

// Names the trace buffer (on != 0) or stops tracing (on == 0). One thread.
extern "C" __global__ void trace_to(unsigned long long *out, int on) {
  trace_out = on ? out : nullptr;
}

__device__ __forceinline__ long long trace_now() {
#ifdef DECODE_TRACE
  return global_ns();
#else
  return 0;
#endif
}

__device__ __forceinline__ void trace_end(int kernel, long long start, long long waited) {
#ifdef DECODE_TRACE
  __syncthreads();
  unsigned long long *out = trace_out;
  if (threadIdx.x == 0 && out != nullptr) {
    long long end = global_ns();
    unsigned long long grid, sm;
    unsigned smid;
    asm volatile("mov.u64 %0, %%gridid;" : "=l"(grid));
    asm volatile("mov.u32 %0, %%smid;" : "=r"(smid));
    sm = smid;
    unsigned long long i = atomicAdd(out, 1ull);
    if (i < out[1]) {
      unsigned long long *r = out + 2 + i * TRACE_WORDS;
      r[0] = grid;
      r[1] = ((unsigned long long)kernel << 32) | sm;
      r[2] = start;
      r[3] = waited;
      r[4] = end;
      r[5] = blockIdx.x;
    }
  }
#endif
}

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
__device__ __forceinline__ float dot8(uint4 v, const float *xv, float acc) {
  const __half2 *h = reinterpret_cast<const __half2 *>(&v);
  float4 a = reinterpret_cast<const float4 *>(xv)[0];
  float4 b = reinterpret_cast<const float4 *>(xv)[1];
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

// The tile pipeline of one block: its rows [first, end) of MATS matrices of cols columns.
template <int MATS>
struct RowStream {
  const __half *w[MATS];
  int cols, first, end, tiles, stages;
  Tiling cut;
  unsigned char *buffers;   // stages * TILE_BYTES of dynamic shared memory
  unsigned long long *bars; // stages barriers

  __device__ void request(int t) { // one thread
    int s = t % stages, row = first + t * cut.rows, n = min(cut.rows, end - row);
    unsigned bytes = (unsigned)n * cols * 2;
    mbar_expect_bytes(&bars[s], bytes * MATS);
    unsigned char *dst = buffers + s * TILE_BYTES;
#pragma unroll
    for (int m = 0; m < MATS; m++)
      bulk_load(dst + m * cut.rows * cols * 2, w[m] + (size_t)row * cols, bytes, &bars[s]);
  }
};

// Out[tile parity][matrix][row * warps_per_row + part]: the tile's partial sums.
#define TILE_OUT(out, parity, m, slot) out[((parity) * MATS + (m)) * MAX_TILE_ROWS + (slot)]

// Streams this block's rows of W (MATS matrices) against the input vector and calls
// epi(row0, n, sums, parity) after each tile (sums: the TILE_OUT array, on every thread, after a
// barrier; threads below n or n / 2 do the work). Before the dependency wait it only sets up and
// requests tiles. The input comes from load(xs), called after the wait, which returns a pointer to
// it (shared memory or global memory). Returns when the wait returned (trace_now).
template <int MATS, class Load, class Epi>
__device__ __forceinline__ long long stream_rows(const __half *const (&w)[MATS], int rows, int cols,
                                            const Load &load, Epi &epi) {
  extern __shared__ __align__(128) unsigned char dynamic[];
  __shared__ __align__(8) unsigned long long bars[MAX_STAGES];
  __shared__ float out[2 * MATS * MAX_TILE_ROWS];
  RowStream<MATS> rs;
#pragma unroll
  for (int m = 0; m < MATS; m++) rs.w[m] = w[m];
  rs.cols = cols;
  rs.cut = tiling(cols, MATS);
  int pairs = (rows + 1) / 2;
  rs.first = 2 * (int)((long long)blockIdx.x * pairs / gridDim.x);
  rs.end = min(rows, 2 * (int)((long long)(blockIdx.x + 1) * pairs / gridDim.x));
  rs.tiles = rs.end > rs.first ? (rs.end - rs.first + rs.cut.rows - 1) / rs.cut.rows : 0;
  rs.stages = stages_in(load.input_bytes());
  rs.buffers = dynamic;
  rs.bars = bars;
  int tid = threadIdx.x;
  unsigned char *input = dynamic + rs.stages * TILE_BYTES;
  cudaTriggerProgrammaticLaunchCompletion();
  load.prefetch(input); // first: the copies land in the order they were asked for
  if (tid == 0) {
    for (int s = 0; s < rs.stages; s++) mbar_init(&bars[s], 1);
    for (int t = 0; t < rs.stages && t < rs.tiles; t++) rs.request(t);
  }
  cudaGridDependencySynchronize();
  long long waited = trace_now();
  const float *x = load(input);
  __syncthreads(); // the barriers' initialization, and a shared input, seen by every thread
  int warp = tid / WARP, lane = tid % WARP;
  int wpr = rs.cut.warps_per_row, part_cols = cols / wpr, chunks = part_cols / 8;
  for (int t = 0; t < rs.tiles; t++) {
    int s = t % rs.stages, row0 = rs.first + t * rs.cut.rows, n = min(rs.cut.rows, rs.end - row0);
    mbar_wait(&bars[s], (unsigned)(t / rs.stages) & 1u);
    const __half *tile = reinterpret_cast<const __half *>(rs.buffers + s * TILE_BYTES);
    for (int slot = warp; slot < n * wpr; slot += WARPS) {
      int i = slot / wpr, part = slot % wpr;
      const float *xp = x + part * part_cols;
#pragma unroll
      for (int m = 0; m < MATS; m++) {
        const uint4 *src =
            reinterpret_cast<const uint4 *>(tile + (size_t)(m * rs.cut.rows + i) * cols) +
            part * (part_cols / 8);
        float acc = 0.f;
#pragma unroll 4
        for (int c = lane; c < chunks; c += WARP) acc = dot8(src[c], xp + c * 8, acc);
        acc = warp_sum(acc);
        if (lane == 0) TILE_OUT(out, t & 1, m, slot) = acc;
      }
    }
    __syncthreads(); // the tile is read (its buffer free again) and its sums are visible
    if (tid == 0 && t + rs.stages < rs.tiles) rs.request(t + rs.stages);
    epi(row0, n, wpr, out, t & 1);
  }
  return waited;
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

struct AddEpi {
  float *x;
  __device__ void operator()(int row0, int n, int wpr, const float *sums, int parity) {
    int i = threadIdx.x;
    if (i < n) x[row0 + i] += tile_sum<1>(sums, parity, 0, i, wpr);
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
  trace_end(TRACE_EMBED, trace_start, trace_waited);
}

// x[r] += W[r] . in, r < rows (a projection added to the residual stream). Dynamic shared memory:
// the tiles.
extern "C" __global__ void matvec_add(const float *in, const __half *w, float *x, int rows,
                                      int cols) {
  long long start = trace_now();
  const __half *ws[1] = {w};
  AddEpi epi{x};
  long long waited = stream_rows<1>(ws, rows, cols, DirectLoad{in}, epi);
  trace_end(TRACE_MATVEC_ADD, start, waited);
}

// h[r] = silu(W1[r] . xn) * (W3[r] . xn), xn = rmsnorm(x) * norm. Dynamic shared memory: the
// tiles, then cols floats and cols halves.
extern "C" __global__ void norm_gate_up(const float *x, const __half *norm, const __half *w1,
                                        const __half *w3, float *h, int rows, int cols,
                                        float eps) {
  long long start = trace_now();
  const __half *ws[2] = {w1, w3};
  SiluEpi epi{h};
  long long waited =
      stream_rows<2>(ws, rows, cols, NormLoad{x, norm, cols, eps, norm_barrier()}, epi);
  trace_end(TRACE_GATE_UP, start, waited);
}

// logits[r] = output[r] . (rmsnorm(x) * norm), and the step's argmax folded into state[BEST].
extern "C" __global__ void norm_matvec_argmax(const float *x, const __half *norm,
                                              const __half *w, float *logits, int *state,
                                              int rows, int cols, float eps) {
  long long start = trace_now();
  const __half *ws[1] = {w};
  ArgmaxEpi epi{logits};
  long long waited =
      stream_rows<1>(ws, rows, cols, NormLoad{x, norm, cols, eps, norm_barrier()}, epi);
  __shared__ unsigned long long best[WARPS];
  unsigned long long mine = epi.best;
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
  trace_end(TRACE_LOGITS, start, waited);
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
  long long start = trace_now();
  const __half *ws[1] = {w};
  int q_dim = heads * head_dim, kv_dim = kv_heads * head_dim;
  QkvRopeEpi epi{qkv, state, k_cache, v_cache, q_dim, kv_dim, head_dim, theta};
  long long waited = stream_rows<1>(ws, q_dim + 2 * kv_dim, cols,
                                    NormLoad{x, norm, cols, eps, norm_barrier()}, epi);
  trace_end(TRACE_QKV, start, waited);
}

// One block per head: softmax(q . k_j / sqrt(head_dim)) over j <= state[POS], then the weighted
// sum of v_j. The keys and values before state[POS] were written by earlier steps, so before the
// dependency wait the block copies as many of its group's rows as its shared memory holds (a bulk
// copy a row), while the QKV kernel before it runs; after the wait it reads the current position's
// key and value, which that kernel writes, with q into shared memory where there is room, and any
// rows beyond the room from global memory. Scores: one thread per
// position, reading its key as float4, each thread starting at another float4 of the row (rows
// in shared memory are a multiple of 16 bytes apart: the same start would hit the same banks).
// Sum: each warp takes every WARPS-th position, its lanes the dimensions, then the warps' partial
// sums are added. head_dim <= 128 and a multiple of 4. state[POS] is read before the wait: only
// the previous step's finish wrote it, and steps never overlap.
// Dynamic shared memory: max_seq + head_dim floats, then room staged keys and as many values
// (2 * room * head_dim floats, room chosen by the host).
#define MAX_HEAD_DIM 128
extern "C" __global__ void attention(const float *qkv, const int *state, const float *k_cache,
                                     const float *v_cache, float *out, int heads, int kv_heads,
                                     int head_dim, int max_seq) {
  long long trace_start = trace_now();
  cudaTriggerProgrammaticLaunchCompletion();
  extern __shared__ __align__(16) float shared[];
  __shared__ __align__(8) unsigned long long staged_bar;
  __shared__ float scratch[WARPS];
  __shared__ float partial[WARPS][MAX_HEAD_DIM];
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
  long long trace_waited = trace_now();
  int len = pos + 1, n4 = head_dim / 4;
  float scale = rsqrtf((float)head_dim);
  // q and, where there is room, the current position's key and value beside the staged rows: all
  // three read at once (one round trip to L2, where reading the key and the value where the
  // scores and the sum need them took two more).
  bool current = staged == pos && pos < room;
  for (int d = threadIdx.x; d < head_dim; d += BLOCK) {
    q[d] = qkv[h * head_dim + d] * scale;
    if (current) {
      size_t at = (size_t)pos * kv_dim + g * head_dim + d;
      ks[pos * head_dim + d] = k_cache[at];
      vs[pos * head_dim + d] = v_cache[at];
    }
  }
  if (current) staged = pos + 1;
  mbar_wait(&staged_bar, 0);
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
        float4 a = __ldg(k + d), b = qv[d];
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
    const float *row = j < staged ? vs + j * head_dim : v_cache + (size_t)j * kv_dim + g * head_dim;
#pragma unroll
    for (int i = 0; i < MAX_HEAD_DIM / WARP; i++) {
      int d = lane + i * WARP;
      if (d < head_dim) acc[i] = fmaf(p, row[d], acc[i]);
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
  trace_end(TRACE_ATTENTION, trace_start, trace_waited);
}

// Ends a step (one thread): the argmax becomes the token at the next position.
__device__ void advance(int *state) {
  unsigned long long *best = reinterpret_cast<unsigned long long *>(state + BEST);
  int token = (int)(~(unsigned int)(*best & 0xffffffffu));
  *best = 0;
  int pos = state[POS] + 1;
  state[POS] = pos;
  state[TOKEN] = token;
  state[HISTORY + pos] = token;
  state[LEFT] -= 1;
}

extern "C" __global__ void finish(int *state) {
  STEP_START;
  advance(state);
  trace_end(TRACE_FINISH, trace_start, trace_waited);
}

// The same inside a device-side loop: the loop goes on while steps are left.
extern "C" __global__ void finish_loop(int *state, cudaGraphConditionalHandle more) {
  STEP_START;
  advance(state);
  cudaGraphSetConditional(more, state[LEFT] > 0 ? 1u : 0u);
  trace_end(TRACE_FINISH, trace_start, trace_waited);
}

// ---- Streaming tokens to the host while the device loop runs

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
