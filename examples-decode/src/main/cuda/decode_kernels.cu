// The decode engine's kernels: one llama decode step is embed, then per layer norm_matvec (Q, K
// and V in one launch), rope_cache, attention, matvec_add (output projection), norm_gate_up and
// matvec_add (FFN down), then norm_matvec_argmax (logits) and finish: 6 * layers + 3 launches.
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

// Loads x into shared memory, scaled by rmsnorm and the norm weight when norm is not null.
__device__ void load_input(const float *x, const __half *norm, float *xs, int cols, float eps,
                           float *scratch) {
  float ss = 0.f;
  for (int i = threadIdx.x; i < cols; i += BLOCK) {
    float v = x[i];
    xs[i] = v;
    ss += v * v;
  }
  if (norm != nullptr) {
    float scale = rsqrtf(block_sum(ss, scratch) / cols + eps);
    for (int i = threadIdx.x; i < cols; i += BLOCK) xs[i] = xs[i] * scale * __half2float(norm[i]);
  }
  __syncthreads();
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

// One row's dot product with the shared input, by one warp: each lane reads 16 bytes (8 weights)
// at a time, eight loads in flight (a whole 2048-wide row in one round trip), so the weights
// stream at close to memory bandwidth.
__device__ __forceinline__ float row_dot(const __half *w, const float *xs, int cols) {
  int lane = threadIdx.x % WARP;
  float acc = 0.f;
  const uint4 *row = reinterpret_cast<const uint4 *>(w);
  int chunks = cols / 8;
  int c = lane;
  for (; c + 7 * WARP < chunks; c += 8 * WARP) {
    uint4 v[8];
#pragma unroll
    for (int u = 0; u < 8; u++) v[u] = __ldg(row + c + u * WARP);
#pragma unroll
    for (int u = 0; u < 8; u++) acc = dot8(v[u], xs + (c + u * WARP) * 8, acc);
  }
#pragma unroll 4
  for (; c < chunks; c += WARP) acc = dot8(__ldg(row + c), xs + c * 8, acc);
  return warp_sum(acc);
}

// token -> x: x = tok_embeddings[state[TOKEN]].
extern "C" __global__ void embed(const int *state, const __half *emb, float *x, int dim) {
  STEP_START;
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < dim) x[i] = __half2float(emb[(size_t)state[TOKEN] * dim + i]);
}

// out[r] = W[r] . (rmsnorm(x) * norm), r < rows. Dynamic shared memory: cols floats.
extern "C" __global__ void norm_matvec(const float *x, const __half *norm, const __half *w,
                                       float *out, int rows, int cols, float eps) {
  STEP_START;
  extern __shared__ float xs[];
  __shared__ float scratch[WARPS];
  load_input(x, norm, xs, cols, eps, scratch);
  int warp = threadIdx.x / WARP;
  for (int r = blockIdx.x * WARPS + warp; r < rows; r += gridDim.x * WARPS) {
    float d = row_dot(w + (size_t)r * cols, xs, cols);
    if (threadIdx.x % WARP == 0) out[r] = d;
  }
}

// x[r] += W[r] . in, r < rows (a projection added to the residual stream).
extern "C" __global__ void matvec_add(const float *in, const __half *w, float *x, int rows,
                                      int cols) {
  STEP_START;
  extern __shared__ float xs[];
  __shared__ float scratch[WARPS];
  load_input(in, nullptr, xs, cols, 0.f, scratch);
  int warp = threadIdx.x / WARP;
  for (int r = blockIdx.x * WARPS + warp; r < rows; r += gridDim.x * WARPS) {
    float d = row_dot(w + (size_t)r * cols, xs, cols);
    if (threadIdx.x % WARP == 0) x[r] += d;
  }
}

// h[r] = silu(W1[r] . xn) * (W3[r] . xn), xn = rmsnorm(x) * norm.
extern "C" __global__ void norm_gate_up(const float *x, const __half *norm, const __half *w1,
                                        const __half *w3, float *h, int rows, int cols,
                                        float eps) {
  STEP_START;
  extern __shared__ float xs[];
  __shared__ float scratch[WARPS];
  load_input(x, norm, xs, cols, eps, scratch);
  int warp = threadIdx.x / WARP;
  for (int r = blockIdx.x * WARPS + warp; r < rows; r += gridDim.x * WARPS) {
    float g = row_dot(w1 + (size_t)r * cols, xs, cols);
    float u = row_dot(w3 + (size_t)r * cols, xs, cols);
    if (threadIdx.x % WARP == 0) h[r] = g / (1.f + expf(-g)) * u;
  }
}

// A float's order as an unsigned int; the key puts the value above the complemented index, so
// the largest key is the largest logit with the lowest index.
__device__ __forceinline__ unsigned long long argmax_key(float v, int index) {
  unsigned int b = __float_as_uint(v);
  b = (b & 0x80000000u) ? ~b : (b | 0x80000000u);
  return ((unsigned long long)b << 32) | (unsigned int)(~index);
}

// logits[r] = output[r] . (rmsnorm(x) * norm), and the step's argmax folded into state[BEST].
extern "C" __global__ void norm_matvec_argmax(const float *x, const __half *norm,
                                              const __half *w, float *logits, int *state,
                                              int rows, int cols, float eps) {
  STEP_START;
  extern __shared__ float xs[];
  __shared__ float scratch[WARPS];
  __shared__ unsigned long long best[WARPS];
  load_input(x, norm, xs, cols, eps, scratch);
  int warp = threadIdx.x / WARP, lane = threadIdx.x % WARP;
  unsigned long long mine = 0;
  for (int r = blockIdx.x * WARPS + warp; r < rows; r += gridDim.x * WARPS) {
    float d = row_dot(w + (size_t)r * cols, xs, cols);
    if (lane == 0) {
      logits[r] = d;
      unsigned long long k = argmax_key(d, r);
      mine = k > mine ? k : mine;
    }
  }
  if (lane == 0) best[warp] = mine;
  __syncthreads();
  if (threadIdx.x == 0) {
    unsigned long long b = 0;
    for (int i = 0; i < WARPS; i++) b = best[i] > b ? best[i] : b;
    if (b != 0) atomicMax(reinterpret_cast<unsigned long long *>(state + BEST), b);
  }
}

// Rotates q and k of the fused qkv vector for position state[POS] (pairs (2i, 2i+1) of each head)
// and writes k and v into the layer's caches ([max_seq, kv_heads * head_dim]) at that position.
extern "C" __global__ void rope_cache(float *qkv, const int *state, float *k_cache,
                                      float *v_cache, int heads, int kv_heads, int head_dim,
                                      float theta) {
  STEP_START;
  int pos = state[POS];
  int q_pairs = heads * head_dim / 2, kv_dim = kv_heads * head_dim;
  int pair = blockIdx.x * blockDim.x + threadIdx.x;
  if (pair < q_pairs + kv_dim / 2) {
    int base = 2 * pair; // q pairs first, then k pairs, at their offsets in qkv
    int i = (base % head_dim) / 2;
    float angle = pos * powf(theta, -2.f * i / head_dim);
    float c, s;
    sincosf(angle, &s, &c);
    float x0 = qkv[base], x1 = qkv[base + 1];
    float r0 = x0 * c - x1 * s, r1 = x0 * s + x1 * c;
    qkv[base] = r0;
    qkv[base + 1] = r1;
    if (pair >= q_pairs) {
      int k = base - 2 * q_pairs;
      k_cache[(size_t)pos * kv_dim + k] = r0;
      k_cache[(size_t)pos * kv_dim + k + 1] = r1;
    }
  }
  int v = pair;
  if (v < kv_dim) {
    v_cache[(size_t)pos * kv_dim + v] = qkv[heads * head_dim + kv_dim + v];
  }
}

// One block per head: softmax(q . k_j / sqrt(head_dim)) over j <= state[POS], then the weighted
// sum of v_j. Scores: one thread per position, reading its key row as float4 (loads independent
// of each other, so they overlap). Sum: each warp takes every WARPS-th position, its lanes the
// dimensions, then the warps' partial sums are added. head_dim <= 128 and a multiple of 4.
// Dynamic shared memory: max_seq + head_dim floats.
#define MAX_HEAD_DIM 128
extern "C" __global__ void attention(const float *qkv, const int *state, const float *k_cache,
                                     const float *v_cache, float *out, int heads, int kv_heads,
                                     int head_dim, int max_seq) {
  STEP_START;
  extern __shared__ float shared[];
  float *scores = shared;
  float *q = shared + max_seq;
  __shared__ float scratch[WARPS];
  __shared__ float partial[WARPS][MAX_HEAD_DIM];
  int h = blockIdx.x, g = h / (heads / kv_heads);
  int kv_dim = kv_heads * head_dim;
  int len = state[POS] + 1;
  float scale = rsqrtf((float)head_dim);
  for (int d = threadIdx.x; d < head_dim; d += BLOCK) q[d] = qkv[h * head_dim + d] * scale;
  __syncthreads();
  float m = -INFINITY;
  for (int j = threadIdx.x; j < len; j += BLOCK) {
    const float4 *k = reinterpret_cast<const float4 *>(k_cache + (size_t)j * kv_dim + g * head_dim);
    const float4 *qv = reinterpret_cast<const float4 *>(q);
    float dot = 0.f;
#pragma unroll 8
    for (int d = 0; d < head_dim / 4; d++) {
      float4 a = __ldg(k + d), b = qv[d];
      dot = fmaf(a.x, b.x, dot);
      dot = fmaf(a.y, b.y, dot);
      dot = fmaf(a.z, b.z, dot);
      dot = fmaf(a.w, b.w, dot);
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
  const float *v = v_cache + g * head_dim;
#pragma unroll 4
  for (int j = warp; j < len; j += WARPS) {
    float p = scores[j];
    const float *row = v + (size_t)j * kv_dim;
#pragma unroll
    for (int i = 0; i < MAX_HEAD_DIM / WARP; i++) {
      int d = lane + i * WARP;
      if (d < head_dim) acc[i] = fmaf(p, __ldg(row + d), acc[i]);
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
