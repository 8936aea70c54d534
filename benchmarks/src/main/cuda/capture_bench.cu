// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 the cuda-graph authors
// Companion to the anchors (benchmarks/anchors): times what CudaGraph.capture does, in C++ on the
// driver API, so the library's capture can be compared like for like: begin capture, record n
// launches of the anchors' kernel, end capture, instantiate, upload, synchronize, per n.
// Build and run on the GPU host: nvcc -O2 -o capture_bench capture_bench.cu -lcuda && ./capture_bench inc.ptx
#include <cuda.h>
#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <sstream>
#include <string>
#include <vector>
#define CK(x) do { CUresult r_ = (x); if (r_ != CUDA_SUCCESS) { const char* s_; cuGetErrorName(r_, &s_); std::fprintf(stderr, "%s failed: %s\n", #x, s_); std::exit(1); } } while (0)
static double now_us() { return std::chrono::duration<double, std::micro>(std::chrono::steady_clock::now().time_since_epoch()).count(); }
int main(int argc, char** argv) {
  std::ifstream in(argc > 1 ? argv[1] : "inc.ptx"); std::stringstream ss; ss << in.rdbuf(); std::string ptx = ss.str();
  CK(cuInit(0)); CUdevice dev; CK(cuDeviceGet(&dev, 0)); CUcontext ctx; CK(cuDevicePrimaryCtxRetain(&ctx, dev)); CK(cuCtxSetCurrent(ctx));
  CUstream s; CK(cuStreamCreate(&s, CU_STREAM_NON_BLOCKING));
  CUmodule m; CK(cuModuleLoadData(&m, ptx.c_str())); CUfunction f; CK(cuModuleGetFunction(&f, m, "inc"));
  CUdeviceptr d; CK(cuMemAlloc(&d, 4)); CK(cuMemsetD32(d, 0, 1));
  void* params[] = {&d};
  // Replay of a freshly captured n-kernel chain, 200 reps: printed before and after the capture
  // churn below, to see whether instantiating and destroying graphs slows later replays.
  auto replay = [&](int n, const char* label) {
    CK(cuStreamBeginCapture(s, CU_STREAM_CAPTURE_MODE_RELAXED));
    for (int i = 0; i < n; i++) CK(cuLaunchKernel(f, 1,1,1, 1,1,1, 0, s, params, nullptr));
    CUgraph g; CK(cuStreamEndCapture(s, &g)); CUgraphExec ge;
    CK(cuGraphInstantiateWithFlags(&ge, g, 0)); CK(cuGraphUpload(ge, s)); CK(cuStreamSynchronize(s));
    for (int w = 0; w < 3; w++) CK(cuGraphLaunch(ge, s));
    CK(cuStreamSynchronize(s));
    int reps = 200; double t0 = now_us();
    for (int r = 0; r < reps; r++) { CK(cuGraphLaunch(ge, s)); CK(cuStreamSynchronize(s)); }
    std::printf("%s,%d,graph,nan,%.3f,%d\n", label, n, (now_us() - t0) / reps / n, reps);
    CK(cuGraphExecDestroy(ge)); CK(cuGraphDestroy(g));
  };
  std::printf("impl,n,mode,us_per_kernel_submit,us_per_kernel_wall,reps\n");
  for (int n : {100, 1000}) replay(n, "cpp-before-churn");
  auto capture = [&](int n) {
    double t0 = now_us();
    CK(cuStreamBeginCapture(s, CU_STREAM_CAPTURE_MODE_RELAXED));
    for (int i = 0; i < n; i++) CK(cuLaunchKernel(f, 1,1,1, 1,1,1, 0, s, params, nullptr));
    CUgraph g; CK(cuStreamEndCapture(s, &g)); CUgraphExec ge;
    CK(cuGraphInstantiateWithFlags(&ge, g, 0)); CK(cuGraphUpload(ge, s)); CK(cuStreamSynchronize(s));
    double t = now_us() - t0;
    CK(cuGraphExecDestroy(ge)); CK(cuGraphDestroy(g));
    return t;
  };
  // Two protocols. "cold": 7 timed captures after one, in a process that made two graphs before,
  // as this anchor did until 2026-12-03. "cpp-capture": LaunchOverhead's protocol, so that both
  // sides meet the driver in the same state: as many untimed captures first as the Java side runs
  // to have its capture path compiled (LaunchOverhead.warmCaptures: 50000 for n <= 10, 500 for 100,
  // 50 for 1000), then the median of 31.
  for (int n : {1, 10, 100, 1000}) {
    std::vector<double> times;
    for (int rep = 0; rep < 8; rep++) {
      double t = capture(n);
      if (rep > 0) times.push_back(t);  // the first one warms the driver up
    }
    std::sort(times.begin(), times.end());
    std::printf("cpp-capture-cold,%d,capture,nan,nan,%zu  (capture+instantiate+upload %.1f us)\n", n, times.size(), times[times.size() / 2]);
  }
  for (int n : {1, 10, 100, 1000}) {
    int warm = n <= 10 ? 50000 : n == 100 ? 500 : 50;
    for (int i = 0; i < warm; i++) capture(n);
    std::vector<double> times;
    for (int rep = 0; rep < 31; rep++) times.push_back(capture(n));
    std::sort(times.begin(), times.end());
    std::printf("cpp-capture,%d,capture,nan,nan,%zu  (capture+instantiate+upload %.1f us) min %.1f max %.1f\n", n, times.size(), times[times.size() / 2], times.front(), times.back());
  }
  for (int n : {100, 1000}) replay(n, "cpp-after-churn");
}
