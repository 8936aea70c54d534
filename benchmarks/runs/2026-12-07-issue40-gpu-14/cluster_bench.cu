// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 the cuda-graph authors
// Harness: grouped attention at Llama-3.2-1B's heads (32 over 8, 64 wide, bf16), its splits folded
// by attention_combine (the engine before) against the same splits folded inside a thread block
// cluster (attention_grouped_cC), same inputs; every variant's rows checked against one split's,
// then each timed over alternating rounds (launches back to back, no graph).
// nvcc -O3 -arch=sm_90 -std=c++17 -o cluster_bench cluster_bench.cu; ./cluster_bench [reps]
#include "cluster_llm_kernels.cuh" // llm_kernels.cu with the cluster kernels, as this run measured them
#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <random>
#include <string>
#include <vector>

#define CK(x)                                                                                     \
  do {                                                                                            \
    cudaError_t e = (x);                                                                          \
    if (e != cudaSuccess) {                                                                       \
      printf("%s:%d %s\n", __FILE__, __LINE__, cudaGetErrorString(e));                            \
      exit(1);                                                                                    \
    }                                                                                             \
  } while (0)

typedef void (*Grouped)(const float *, const __nv_bfloat16 *, const __nv_bfloat16 *, const int *,
                        const int *, const int *, __nv_bfloat16 *, int, int, int, int, float, float *);

struct Variant {
  std::string name;
  Grouped kernel;
  int splits;
  bool combine;
};

int main(int argc, char **argv) {
  int reps = argc > 1 ? atoi(argv[1]) : 100;
  const int heads = 32, kvh = 8, hd = 64, kv_dim = kvh * hd, smem = GroupedLayout<__nv_bfloat16, 64, 4, 2>::BYTES;
  Grouped clusters[] = {attention_grouped_c2_bf16, attention_grouped_c4_bf16, attention_grouped_c8_bf16};
  CK(cudaFuncSetAttribute(attention_grouped_bf16, cudaFuncAttributeMaxDynamicSharedMemorySize, smem));
  for (Grouped k : clusters) CK(cudaFuncSetAttribute(k, cudaFuncAttributeMaxDynamicSharedMemorySize, smem));
  struct Case { int tokens, lo, hi; std::vector<Variant> variants; };
  auto cl = [&](int c) { return Variant{"cluster" + std::to_string(c), clusters[c == 2 ? 0 : c == 4 ? 1 : 2], c, false}; };
  auto co = [&](int s) { return Variant{"combine" + std::to_string(s), attention_grouped_bf16, s, s > 1}; };
  std::vector<Case> cases = {
      {1, 512, 576, {co(32), co(8), cl(8), cl(4)}},
      {1, 128, 255, {co(32), cl(8), cl(4)}},
      {1, 1536, 2048, {co(32), cl(8)}},
      {8, 512, 576, {co(8), co(4), cl(8), cl(4), cl(2)}},
      {16, 512, 576, {co(4), cl(4), cl(2), co(1)}},
      {32, 512, 576, {co(2), co(1), cl(2)}},
      {64, 512, 576, {co(1), cl(2)}},
  };
  std::mt19937 rng(7);
  for (auto &cs : cases) {
    int T = cs.tokens;
    std::vector<int> pos(T), seq(T);
    int max_blocks = (cs.hi + BLOCK_SIZE) / BLOCK_SIZE + 1, nblocks = T * max_blocks;
    std::vector<int> tables(nblocks);
    for (int i = 0; i < nblocks; i++) tables[i] = i;
    std::shuffle(tables.begin(), tables.end(), rng);
    long long kvbytes = 0;
    for (int t = 0; t < T; t++) {
      pos[t] = cs.lo + (int)(rng() % (cs.hi - cs.lo + 1));
      seq[t] = t;
      kvbytes += 2LL * (pos[t] + 1) * hd * 2 * kvh;
    }
    size_t slots = (size_t)nblocks * BLOCK_SIZE;
    std::vector<__nv_bfloat16> kh(slots * kv_dim), vh(slots * kv_dim);
    std::uniform_real_distribution<float> u(-1.f, 1.f);
    for (size_t i = 0; i < kh.size(); i++) { kh[i] = __float2bfloat16(u(rng)); vh[i] = __float2bfloat16(u(rng)); }
    std::vector<float> qh((size_t)T * (heads + 2 * kvh) * hd);
    for (auto &x : qh) x = u(rng);
    float *qkv, *part;
    __nv_bfloat16 *k, *v, *o;
    int *dp, *ds, *dt;
    size_t rows = (size_t)T * heads * hd;
    CK(cudaMalloc(&qkv, qh.size() * 4)); CK(cudaMalloc(&k, kh.size() * 2)); CK(cudaMalloc(&v, vh.size() * 2));
    CK(cudaMalloc(&o, rows * 2)); CK(cudaMalloc(&part, (size_t)T * heads * 32 * (hd + 2) * 4));
    CK(cudaMalloc(&dp, T * 4)); CK(cudaMalloc(&ds, T * 4)); CK(cudaMalloc(&dt, tables.size() * 4));
    CK(cudaMemcpy(qkv, qh.data(), qh.size() * 4, cudaMemcpyHostToDevice));
    CK(cudaMemcpy(k, kh.data(), kh.size() * 2, cudaMemcpyHostToDevice));
    CK(cudaMemcpy(v, vh.data(), vh.size() * 2, cudaMemcpyHostToDevice));
    CK(cudaMemcpy(dp, pos.data(), T * 4, cudaMemcpyHostToDevice));
    CK(cudaMemcpy(ds, seq.data(), T * 4, cudaMemcpyHostToDevice));
    CK(cudaMemcpy(dt, tables.data(), tables.size() * 4, cudaMemcpyHostToDevice));
    auto run = [&](const Variant &w) {
      w.kernel<<<dim3(T, kvh, w.splits), GROUPED_WARPS * WARP, smem>>>(qkv, k, v, dp, ds, dt, o, heads, kvh, hd,
                                                                       max_blocks, 0.125f, part);
      if (w.combine) attention_combine_bf16<<<dim3(T, heads), hd>>>(part, dp, o, heads, kvh, hd, w.splits);
    };
    std::vector<__nv_bfloat16> ref(rows), got(rows);
    run(co(1));
    CK(cudaDeviceSynchronize());
    CK(cudaMemcpy(ref.data(), o, rows * 2, cudaMemcpyDeviceToHost));
    for (auto &w : cs.variants) {
      CK(cudaMemset(o, 0xff, rows * 2));
      run(w);
      CK(cudaDeviceSynchronize());
      CK(cudaMemcpy(got.data(), o, rows * 2, cudaMemcpyDeviceToHost));
      double maxd = 0;
      int bad = 0;
      for (size_t i = 0; i < rows; i++) {
        float a = __bfloat162float(ref[i]), b = __bfloat162float(got[i]);
        if (!(fabsf(a - b) <= 0.01f + 0.01f * fabsf(a))) bad++;
        maxd = std::max(maxd, (double)fabsf(a - b));
      }
      printf("check tokens=%d ctx=%d-%d %s: max|diff| %.5f against one split, %d outside 0.01\n", T, cs.lo, cs.hi,
             w.name.c_str(), maxd, bad);
    }
    cudaEvent_t e0, e1;
    cudaEventCreate(&e0); cudaEventCreate(&e1);
    std::vector<std::vector<float>> us(cs.variants.size());
    for (int round = 0; round < 5; round++)
      for (size_t w = 0; w < cs.variants.size(); w++) {
        run(cs.variants[w]);
        cudaEventRecord(e0);
        for (int i = 0; i < reps; i++) run(cs.variants[w]);
        cudaEventRecord(e1);
        cudaEventSynchronize(e1);
        float ms;
        cudaEventElapsedTime(&ms, e0, e1);
        us[w].push_back(ms * 1000 / reps);
      }
    CK(cudaGetLastError());
    for (size_t w = 0; w < cs.variants.size(); w++) {
      std::sort(us[w].begin(), us[w].end());
      printf("time tokens=%d ctx=%d-%d %-9s median %.2f us [%.2f-%.2f], %.0f GB/s of KV\n", T, cs.lo, cs.hi,
             cs.variants[w].name.c_str(), us[w][2], us[w][0], us[w][4], kvbytes / us[w][2] / 1e3);
    }
    cudaFree(qkv); cudaFree(k); cudaFree(v); cudaFree(o); cudaFree(part); cudaFree(dp); cudaFree(ds); cudaFree(dt);
  }
  return 0;
}
