// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 the cuda-graph authors
// Harness: attention_grouped (llm_kernels.cu) against the cp.async kernel, same inputs; outputs
// compared, then each timed over alternating rounds. Usage: att_bench [reps]
// Built beside old_llm_kernels.cuh (main's llm_kernels.cu at 0bb6c8e) and
// attention_async.cuh: nvcc -O3 -arch=sm_90 -std=c++17 -o att_old att_bench.cu (with
// -DNEW_KERNELS it includes the repository's current llm_kernels.cu instead).
#ifdef NEW_KERNELS
#include "../../../llm/src/main/cuda/llm_kernels.cu"
#else
#include "old_llm_kernels.cuh"
#endif
#include "attention_async.cuh"
#include <cstdio>
#include <cstdlib>
#include <vector>
#include <algorithm>
#include <random>

template <int STAGES>
__global__ void att_async_bf16(int *counters, const float *qkv, const __nv_bfloat16 *k, const __nv_bfloat16 *v,
                               const int *positions, const int *seq, const int *tables,
                               __nv_bfloat16 *out, int heads, int kv_heads, int max_blocks,
                               float scale, float *partials) {
  attention_async_body<__nv_bfloat16, 64, 4, STAGES, true>(qkv, k, v, positions, seq, tables, out, heads,
                                                      kv_heads, max_blocks, scale, partials, counters);
}

#define CK(x) do { cudaError_t e = (x); if (e != cudaSuccess) { printf("%s:%d %s\n", __FILE__, __LINE__, cudaGetErrorString(e)); exit(1);} } while (0)

struct Case { int tokens, ctx_lo, ctx_hi, splits; };

int main(int argc, char **argv) {
  int reps = argc > 1 ? atoi(argv[1]) : 100;
  const int heads = 32, kvh = 8, hd = 64, kv_dim = kvh * hd;
  std::vector<Case> cases = {{128, 512, 576, 1}, {128, 512, 576, 2}, {64, 512, 576, 1}, {32, 512, 576, 2},
                             {8, 512, 576, 8}, {1, 512, 576, 32}, {1, 256, 256, 32}, {128, 1536, 1600, 1}};
  std::mt19937 rng(7);
  for (auto cs : cases) {
    int T = cs.tokens;
    std::vector<int> pos(T), seq(T);
    int max_blocks = (cs.ctx_hi + BLOCK_SIZE) / BLOCK_SIZE + 1;
    int nblocks = T * max_blocks;
    std::vector<int> perm(nblocks);
    for (int i = 0; i < nblocks; i++) perm[i] = i;
    std::shuffle(perm.begin(), perm.end(), rng);
    std::vector<int> tables(T * max_blocks);
    for (int i = 0; i < T * max_blocks; i++) tables[i] = perm[i];
    long long kvbytes = 0;
    for (int t = 0; t < T; t++) {
      pos[t] = cs.ctx_lo + (int)(rng() % (cs.ctx_hi - cs.ctx_lo + 1)); seq[t] = t;
      kvbytes += 2LL * (pos[t] + 1) * hd * 2 * kvh;
    }
    size_t slots = (size_t)nblocks * BLOCK_SIZE;
    std::vector<__nv_bfloat16> kh(slots * kv_dim), vh(slots * kv_dim);
    std::uniform_real_distribution<float> u(-1.f, 1.f);
    for (size_t i = 0; i < kh.size(); i++) { kh[i] = __float2bfloat16(u(rng)); vh[i] = __float2bfloat16(u(rng)); }
    int qkv_w = (heads + 2 * kvh) * hd;
    std::vector<float> qh((size_t)T * qkv_w);
    for (auto &x : qh) x = u(rng);
    float *qkv, *part; __nv_bfloat16 *k, *v, *o1, *o2; int *dp, *ds, *dt;
    CK(cudaMalloc(&qkv, qh.size() * 4)); CK(cudaMalloc(&k, kh.size() * 2)); CK(cudaMalloc(&v, vh.size() * 2));
    CK(cudaMalloc(&o1, (size_t)T * heads * hd * 2)); CK(cudaMalloc(&o2, (size_t)T * heads * hd * 2));
    size_t pf = (size_t)T * heads * cs.splits * (hd + 2);
    CK(cudaMalloc(&part, std::max<size_t>(pf, 1) * 4));
    CK(cudaMalloc(&dp, T * 4)); CK(cudaMalloc(&ds, T * 4)); CK(cudaMalloc(&dt, tables.size() * 4));
    CK(cudaMemcpy(qkv, qh.data(), qh.size() * 4, cudaMemcpyHostToDevice));
    CK(cudaMemcpy(k, kh.data(), kh.size() * 2, cudaMemcpyHostToDevice));
    CK(cudaMemcpy(v, vh.data(), vh.size() * 2, cudaMemcpyHostToDevice));
    CK(cudaMemcpy(dp, pos.data(), T * 4, cudaMemcpyHostToDevice));
    CK(cudaMemcpy(ds, seq.data(), T * 4, cudaMemcpyHostToDevice));
    CK(cudaMemcpy(dt, tables.data(), tables.size() * 4, cudaMemcpyHostToDevice));
    float scale = 0.125f;
    dim3 grid(T, kvh, cs.splits);
    int smem2 = AsyncLayout<__nv_bfloat16, 64, 4, 2>::BYTES, smem3 = AsyncLayout<__nv_bfloat16, 64, 4, 3>::BYTES;
    CK(cudaFuncSetAttribute(att_async_bf16<2>, cudaFuncAttributeMaxDynamicSharedMemorySize, smem2));
    CK(cudaFuncSetAttribute(att_async_bf16<3>, cudaFuncAttributeMaxDynamicSharedMemorySize, smem3));
#ifdef NEW_KERNELS
    CK(cudaFuncSetAttribute(attention_grouped_bf16, cudaFuncAttributeMaxDynamicSharedMemorySize, GroupedLayout<__nv_bfloat16, 64, 4, 2>::BYTES));
#endif
    int *cnt; CK(cudaMalloc(&cnt, T * kvh * 4)); CK(cudaMemset(cnt, 0, T * kvh * 4));
    auto run = [&](int which, __nv_bfloat16 *o) {
      if (which == 0) {
#ifdef NEW_KERNELS
        attention_grouped_bf16<<<grid, 128, GroupedLayout<__nv_bfloat16, 64, 4, 2>::BYTES>>>(qkv, k, v, dp, ds, dt, o, heads, kvh, hd, max_blocks, scale, part);
#else
        attention_grouped_bf16<<<grid, 128>>>(qkv, k, v, dp, ds, dt, o, heads, kvh, hd, max_blocks, scale, part);
#endif
      }
      else if (which == 1)
        att_async_bf16<2><<<grid, 128, smem2>>>(nullptr, qkv, k, v, dp, ds, dt, o, heads, kvh, max_blocks, scale, part);
      else if (which == 2)
        att_async_bf16<3><<<grid, 128, smem3>>>(nullptr, qkv, k, v, dp, ds, dt, o, heads, kvh, max_blocks, scale, part);
      else
        att_async_bf16<2><<<grid, 128, smem2>>>(cnt, qkv, k, v, dp, ds, dt, o, heads, kvh, max_blocks, scale, part);
      if (which == 3) return;
      if (cs.splits > 1)
        attention_combine_bf16<<<dim3(T, heads), hd>>>(part, dp, o, heads, kvh, hd, cs.splits);
    };
    #ifdef NEW_KERNELS
    const char *names[] = {"engine", "async2", "async3", "fused2"};
#else
    const char *names[] = {"old", "async2", "async3", "fused2"};
#endif
    std::vector<__nv_bfloat16> r0((size_t)T * heads * hd), r1(r0.size());
    run(0, o1); CK(cudaDeviceSynchronize());
    CK(cudaMemcpy(r0.data(), o1, r0.size() * 2, cudaMemcpyDeviceToHost));
    for (int w = 1; w < 4; w++) {
      CK(cudaMemset(o2, 0xff, r1.size() * 2));
      run(w, o2); CK(cudaDeviceSynchronize());
      CK(cudaMemcpy(r1.data(), o2, r1.size() * 2, cudaMemcpyDeviceToHost));
      double maxd = 0, maxv = 0; int bad = 0;
      for (size_t i = 0; i < r0.size(); i++) {
        float a = __bfloat162float(r0[i]), b = __bfloat162float(r1[i]);
        if (!(fabsf(a - b) <= 0.02f + 0.02f * fabsf(a))) bad++;
        maxd = std::max(maxd, (double)fabsf(a - b)); maxv = std::max(maxv, (double)fabsf(a));
      }
      printf("check T=%d ctx=%d-%d splits=%d %s: max|diff| %.5f (max|out| %.4f), %d outside 0.02\n", T, cs.ctx_lo, cs.ctx_hi, cs.splits, names[w], maxd, maxv, bad);
    }
    cudaEvent_t e0, e1; cudaEventCreate(&e0); cudaEventCreate(&e1);
    std::vector<float> us[4];
    for (int round = 0; round < 5; round++)
      for (int w = 0; w < 4; w++) {
        run(w, o2);
        cudaEventRecord(e0);
        for (int i = 0; i < reps; i++) run(w, o2);
        cudaEventRecord(e1); cudaEventSynchronize(e1);
        float ms; cudaEventElapsedTime(&ms, e0, e1); us[w].push_back(ms * 1000 / reps);
      }
    CK(cudaGetLastError());
    for (int w = 0; w < 4; w++) {
      std::sort(us[w].begin(), us[w].end());
      printf("time T=%d ctx=%d-%d splits=%d %-6s median %.2f us [%.2f-%.2f], %.0f GB/s of KV\n", T, cs.ctx_lo, cs.ctx_hi, cs.splits, names[w], us[w][2], us[w][0], us[w][4], kvbytes / us[w][2] / 1e3);
    }
    cudaFree(qkv); cudaFree(k); cudaFree(v); cudaFree(o1); cudaFree(o2); cudaFree(part); cudaFree(dp); cudaFree(ds); cudaFree(dt); cudaFree(cnt);
  }
  return 0;
}
