// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 the cuda-graph authors
// Anchor: what it costs to give an instantiated graph new kernel arguments. A graph of n tiny
// dependent kernels (a chain of inc(p, by) on one int), its arguments changed three ways:
//   (a) re-capture a graph of the same topology with the new `by`, then cudaGraphExecUpdate the
//       exec from it (timed with the re-capture, and alone);
//   (b) re-capture, then destroy the exec and cudaGraphInstantiate + cudaGraphUpload a new one from
//       the re-captured graph (the upload's device work waited for; timed with and without the
//       re-capture);
//   (c) cudaGraphExecKernelNodeSetParams on every node of the exec, no capture at all.
// Host-side API time only; after each change one launch checks that the chain adds n * by.
// Each sample is the best of 5 repetitions; 5 runs give min/median/max of those bests.
// CSV rows: n,measure,min,median,max (microseconds, or a plain number for the ratios).
#include <cuda_runtime.h>
#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <vector>
#define CK(x) do { cudaError_t e_ = (x); if (e_ != cudaSuccess) { std::printf("%s failed: %s (%d)\n", #x, cudaGetErrorName(e_), (int)e_); std::exit(1); } } while (0)

__global__ void inc(int* p, int by) { *p += by; }

static double now_us() { return std::chrono::duration<double, std::micro>(std::chrono::steady_clock::now().time_since_epoch()).count(); }

constexpr int RUNS = 5, REPS = 5;

static int* counter;
static cudaStream_t s;
static long long checked = 0;

static cudaGraph_t capture_chain(int n, int by) {
  cudaGraph_t g;
  CK(cudaStreamBeginCapture(s, cudaStreamCaptureModeRelaxed));
  for (int i = 0; i < n; i++) inc<<<1, 1, 0, s>>>(counter, by);
  CK(cudaStreamEndCapture(s, &g));
  return g;
}

// One launch from 0: the chain of n kernels must add n * by, or the change did not take.
static void check(cudaGraphExec_t exec, int n, int by, const char* how) {
  CK(cudaMemsetAsync(counter, 0, 4, s));
  CK(cudaGraphLaunch(exec, s));
  int host = -1; CK(cudaMemcpyAsync(&host, counter, 4, cudaMemcpyDeviceToHost, s)); CK(cudaStreamSynchronize(s));
  if (host != n * by) { std::printf("MISMATCH after %s: n=%d by=%d counter=%d\n", how, n, by, host); std::exit(1); }
  checked++;
}

struct Stats { double min, median, max; };
static Stats stats(std::vector<double> v) {
  std::sort(v.begin(), v.end());
  return {v.front(), v[v.size() / 2], v.back()};
}
static void row(int n, const char* measure, const std::vector<double>& samples) {
  Stats st = stats(samples);
  std::printf("%d,%s,%.3f,%.3f,%.3f\n", n, measure, st.min, st.median, st.max);
}

int main() {
  CK(cudaMalloc(&counter, 4));
  CK(cudaStreamCreateWithFlags(&s, cudaStreamNonBlocking));
  std::printf("n,measure,min,median,max\n");
  int by = 1;
  for (int n : {10, 100, 1000}) {
    // The execs each way changes, from the same first graph; (c) keeps its graph for the nodes.
    cudaGraph_t first = capture_chain(n, by);
    cudaGraphExec_t updated, reinstantiated, perNode;
    CK(cudaGraphInstantiate(&updated, first, 0));
    CK(cudaGraphInstantiate(&reinstantiated, first, 0));
    CK(cudaGraphInstantiate(&perNode, first, 0));
    size_t count = 0; CK(cudaGraphGetNodes(first, nullptr, &count));
    std::vector<cudaGraphNode_t> nodes(count); CK(cudaGraphGetNodes(first, nodes.data(), &count));
    if ((int)count != n) { std::printf("captured %zu nodes, not %d\n", count, n); return 1; }
    check(updated, n, by, "instantiate");

    std::vector<double> recapture, update, recaptureUpdate, reinstantiate, recaptureReinstantiate,
        setParams, ratioAlone, ratioWithCapture, ratioUpdatePerNode;
    for (int run = 0; run < RUNS; run++) {
      double bestCapture = 1e18, bestUpdate = 1e18, bestCaptureUpdate = 1e18, bestReinst = 1e18,
             bestCaptureReinst = 1e18, bestSetParams = 1e18;
      for (int rep = 0; rep < REPS; rep++) {
        // (a) re-capture + cudaGraphExecUpdate
        by = by % 7 + 2;
        double t0 = now_us();
        cudaGraph_t again = capture_chain(n, by);
        double t1 = now_us();
        cudaGraphExecUpdateResultInfo info;
        CK(cudaGraphExecUpdate(updated, again, &info));
        double t2 = now_us();
        if (info.result != cudaGraphExecUpdateSuccess) { std::printf("update result %d\n", (int)info.result); return 1; }
        CK(cudaGraphDestroy(again));
        check(updated, n, by, "cudaGraphExecUpdate");
        bestCapture = std::min(bestCapture, t1 - t0);
        bestUpdate = std::min(bestUpdate, t2 - t1);
        bestCaptureUpdate = std::min(bestCaptureUpdate, t2 - t0);

        // (b) re-capture + destroy + cudaGraphInstantiate + upload
        by = by % 7 + 2;
        t0 = now_us();
        again = capture_chain(n, by);
        t1 = now_us();
        CK(cudaGraphExecDestroy(reinstantiated));
        CK(cudaGraphInstantiate(&reinstantiated, again, 0));
        CK(cudaGraphUpload(reinstantiated, s));
        CK(cudaStreamSynchronize(s));
        t2 = now_us();
        CK(cudaGraphDestroy(again));
        check(reinstantiated, n, by, "re-instantiate");
        bestReinst = std::min(bestReinst, t2 - t1);
        bestCaptureReinst = std::min(bestCaptureReinst, t2 - t0);

        // (c) cudaGraphExecKernelNodeSetParams on every node
        by = by % 7 + 2;
        void* args[] = {&counter, &by};
        cudaKernelNodeParams params = {};
        params.func = (void*)inc; params.gridDim = dim3(1); params.blockDim = dim3(1);
        params.sharedMemBytes = 0; params.kernelParams = args; params.extra = nullptr;
        t0 = now_us();
        for (cudaGraphNode_t node : nodes) CK(cudaGraphExecKernelNodeSetParams(perNode, node, &params));
        t1 = now_us();
        check(perNode, n, by, "per-node set params");
        bestSetParams = std::min(bestSetParams, t1 - t0);
      }
      recapture.push_back(bestCapture);
      update.push_back(bestUpdate);
      recaptureUpdate.push_back(bestCaptureUpdate);
      reinstantiate.push_back(bestReinst);
      recaptureReinstantiate.push_back(bestCaptureReinst);
      setParams.push_back(bestSetParams);
      ratioAlone.push_back(bestReinst / bestUpdate);
      ratioWithCapture.push_back(bestCaptureReinst / bestCaptureUpdate);
      ratioUpdatePerNode.push_back(bestUpdate / bestSetParams);
    }
    row(n, "recapture_us", recapture);
    row(n, "exec_update_us", update);
    row(n, "recapture+exec_update_us", recaptureUpdate);
    row(n, "reinstantiate+upload_us", reinstantiate);
    row(n, "recapture+reinstantiate+upload_us", recaptureReinstantiate);
    row(n, "per_node_set_params_all_us", setParams);
    row(n, "ratio reinstantiate/update", ratioAlone);
    row(n, "ratio (recapture+reinstantiate)/(recapture+update)", ratioWithCapture);
    row(n, "ratio update/per_node_set_params", ratioUpdatePerNode);
    CK(cudaGraphExecDestroy(updated)); CK(cudaGraphExecDestroy(reinstantiated)); CK(cudaGraphExecDestroy(perNode));
    CK(cudaGraphDestroy(first));
  }
  std::printf("checked %lld launches OK\n", checked);
  return 0;
}
