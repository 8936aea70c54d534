// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 the cuda-graph authors
// Anchor: does a graph run independent branches concurrently? Two independent branches, each a chain
// of K dependent one-thread kernels that busy-wait about 20 us (clock64), captured with fork/join
// through events on two streams; against the same 2K kernels captured serially on one stream.
// Both graphs are replayed back to back; the time per replay should be about K * 20 us for the
// fork/join graph and 2K * 20 us for the serial one, so the ratio serial/forkjoin approaches 2.
// Each sample is the best of 5 repetitions of R replays; 5 runs give min/median/max of those bests.
// CSV rows: K,graph,kernels,us_per_replay_min,us_per_replay_median,us_per_replay_max (and a ratio
// row, serial/forkjoin, from each run's bests).
#include <cuda_runtime.h>
#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <vector>
#define CK(x) do { cudaError_t e_ = (x); if (e_ != cudaSuccess) { std::printf("%s failed: %s (%d)\n", #x, cudaGetErrorName(e_), (int)e_); std::exit(1); } } while (0)

constexpr double SPIN_US = 20.0;
constexpr int RUNS = 5, REPS = 5, REPLAYS = 20;

// Busy-waits `cycles` SM clock cycles, then counts itself in *done (its branch's counter).
__global__ void spin(long long cycles, int* done) {
  long long start = clock64();
  while (clock64() - start < cycles) {
  }
  *done += 1;
}

static double now_us() { return std::chrono::duration<double, std::micro>(std::chrono::steady_clock::now().time_since_epoch()).count(); }

struct Stats { double min, median, max; };
static Stats stats(std::vector<double> v) {
  std::sort(v.begin(), v.end());
  return {v.front(), v[v.size() / 2], v.back()};
}

int main() {
  int clockKhz = 0; CK(cudaDeviceGetAttribute(&clockKhz, cudaDevAttrClockRate, 0));
  long long cycles = (long long)(SPIN_US * clockKhz / 1000.0);
  int* done; CK(cudaMalloc(&done, 2 * sizeof(int))); CK(cudaMemset(done, 0, 2 * sizeof(int)));
  cudaStream_t s0, s1;
  CK(cudaStreamCreateWithFlags(&s0, cudaStreamNonBlocking));
  CK(cudaStreamCreateWithFlags(&s1, cudaStreamNonBlocking));
  cudaEvent_t fork, join;
  CK(cudaEventCreateWithFlags(&fork, cudaEventDisableTiming));
  CK(cudaEventCreateWithFlags(&join, cudaEventDisableTiming));
  std::printf("# spin of %.0f us = %lld cycles at the %d MHz the device reports\n", SPIN_US, cycles, clockKhz / 1000);
  std::printf("K,graph,kernels,us_per_replay_min,us_per_replay_median,us_per_replay_max\n");
  for (int K : {2, 8, 32}) {
    // Fork/join: branch 0 on s0, branch 1 on s1, forked from and joined back into s0.
    cudaGraph_t forkJoin, serial;
    CK(cudaStreamBeginCapture(s0, cudaStreamCaptureModeRelaxed));
    CK(cudaEventRecord(fork, s0));
    CK(cudaStreamWaitEvent(s1, fork, 0));
    for (int i = 0; i < K; i++) {
      spin<<<1, 1, 0, s0>>>(cycles, done);
      spin<<<1, 1, 0, s1>>>(cycles, done + 1);
    }
    CK(cudaEventRecord(join, s1));
    CK(cudaStreamWaitEvent(s0, join, 0));
    CK(cudaStreamEndCapture(s0, &forkJoin));
    // Serial: the same 2K kernels, one chain.
    CK(cudaStreamBeginCapture(s0, cudaStreamCaptureModeRelaxed));
    for (int i = 0; i < K; i++) spin<<<1, 1, 0, s0>>>(cycles, done);
    for (int i = 0; i < K; i++) spin<<<1, 1, 0, s0>>>(cycles, done + 1);
    CK(cudaStreamEndCapture(s0, &serial));

    const char* names[] = {"forkjoin", "serial"};
    cudaGraph_t graphs[] = {forkJoin, serial};
    std::vector<double> perReplay[2], ratio;
    cudaGraphExec_t execs[2];
    for (int g = 0; g < 2; g++) {
      CK(cudaGraphInstantiate(&execs[g], graphs[g], 0));
      CK(cudaGraphUpload(execs[g], s0));
      CK(cudaGraphLaunch(execs[g], s0)); // warm-up
    }
    CK(cudaStreamSynchronize(s0));
    long long launches = 2; // the warm-ups
    for (int run = 0; run < RUNS; run++) {
      double best[2] = {1e18, 1e18};
      for (int rep = 0; rep < REPS; rep++) {
        for (int g = 0; g < 2; g++) {
          double t0 = now_us();
          for (int r = 0; r < REPLAYS; r++) CK(cudaGraphLaunch(execs[g], s0));
          CK(cudaStreamSynchronize(s0));
          best[g] = std::min(best[g], (now_us() - t0) / REPLAYS);
          launches += REPLAYS;
        }
      }
      for (int g = 0; g < 2; g++) perReplay[g].push_back(best[g]);
      ratio.push_back(best[1] / best[0]);
    }
    for (int g = 0; g < 2; g++) {
      Stats st = stats(perReplay[g]);
      std::printf("%d,%s,%d,%.1f,%.1f,%.1f\n", K, names[g], 2 * K, st.min, st.median, st.max);
    }
    Stats st = stats(ratio);
    std::printf("%d,ratio serial/forkjoin,%d,%.2f,%.2f,%.2f\n", K, 2 * K, st.min, st.median, st.max);
    // Every launch ran each branch's K kernels once.
    int host[2]; CK(cudaMemcpy(host, done, sizeof host, cudaMemcpyDeviceToHost));
    if (host[0] != launches * K || host[1] != launches * K) {
      std::printf("MISMATCH: branch counters %d %d, expected %lld each\n", host[0], host[1], launches * K);
      return 1;
    }
    CK(cudaMemset(done, 0, 2 * sizeof(int)));
    for (int g = 0; g < 2; g++) { CK(cudaGraphExecDestroy(execs[g])); CK(cudaGraphDestroy(graphs[g])); }
  }
  std::printf("branch counters OK\n");
  return 0;
}
