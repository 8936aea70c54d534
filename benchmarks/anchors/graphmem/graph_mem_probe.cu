// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 the cuda-graph authors
// Issue 25, item 2: when does the driver let graphs share the physical memory of their allocation
// nodes? Measured with the driver's own accounting (cuDeviceGetGraphMemAttribute: used and
// reserved, current and high-water), in scenarios a shape-keyed graph cache meets:
//   A. one graph with an allocation node of S bytes (allocated and freed inside the graph),
//      instantiated, launched;
//   B. N such graphs (the buckets of a cache), each launched once on the same stream, in turn;
//   C. the same N graphs launched on N different streams without synchronizing in between;
//   D. N graphs of sizes S/N .. S (a bucket ladder), launched in turn on one stream;
//   E. after cuDeviceGraphMemTrim with every graph idle, then after one more launch;
//   F. the graphs destroyed, then trimmed.
//   G. the granularity: one graph with one allocation node of 64 KiB, 1 MiB, 3 MiB, uploaded;
//   H. what an instantiated and uploaded graph costs besides its allocation nodes: the device's
//      free memory (cuMemGetInfo) before and after 64 graphs of 1, 10 and 100 empty kernel nodes.
// Each line prints the four attributes in MiB after the scenario's launches were synchronized.
//
// Build: nvcc -O2 -arch=sm_90 graph_mem_probe.cu -lcuda -o graph_mem_probe
// Run:   ./graph_mem_probe [MiB per graph, default 256] [graphs, default 8]
#include <cuda.h>

#include <cstdio>
#include <cstdlib>
#include <vector>

#define CK(x)                                                                       \
  do {                                                                              \
    CUresult r_ = (x);                                                              \
    if (r_ != CUDA_SUCCESS) {                                                       \
      const char* n_ = nullptr;                                                     \
      cuGetErrorName(r_, &n_);                                                      \
      std::fprintf(stderr, "%s failed: %s (%d)\n", #x, n_ ? n_ : "?", (int)r_);     \
      std::exit(1);                                                                 \
    }                                                                               \
  } while (0)

static CUdevice dev;

static void report(const char* what) {
  cuuint64_t v[4];
  const CUgraphMem_attribute attrs[4] = {
      CU_GRAPH_MEM_ATTR_USED_MEM_CURRENT, CU_GRAPH_MEM_ATTR_USED_MEM_HIGH,
      CU_GRAPH_MEM_ATTR_RESERVED_MEM_CURRENT, CU_GRAPH_MEM_ATTR_RESERVED_MEM_HIGH};
  for (int i = 0; i < 4; i++) CK(cuDeviceGetGraphMemAttribute(dev, attrs[i], &v[i]));
  std::printf("%s,used_current_mib=%.1f,used_high_mib=%.1f,reserved_current_mib=%.1f,"
              "reserved_high_mib=%.1f\n",
              what, v[0] / 1048576.0, v[1] / 1048576.0, v[2] / 1048576.0, v[3] / 1048576.0);
}

static void resetHigh() {
  cuuint64_t zero = 0;
  CK(cuDeviceSetGraphMemAttribute(dev, CU_GRAPH_MEM_ATTR_USED_MEM_HIGH, &zero));
  CK(cuDeviceSetGraphMemAttribute(dev, CU_GRAPH_MEM_ATTR_RESERVED_MEM_HIGH, &zero));
}

// A graph that allocates `bytes`, writes them (a memset node), and frees them again.
static CUgraphExec makeGraph(size_t bytes, CUstream stream) {
  CUgraph g;
  CK(cuGraphCreate(&g, 0));
  CUDA_MEM_ALLOC_NODE_PARAMS alloc = {};
  alloc.poolProps.allocType = CU_MEM_ALLOCATION_TYPE_PINNED;
  alloc.poolProps.location.type = CU_MEM_LOCATION_TYPE_DEVICE;
  alloc.poolProps.location.id = dev;
  alloc.bytesize = bytes;
  CUgraphNode allocNode, setNode, freeNode;
  CK(cuGraphAddMemAllocNode(&allocNode, g, nullptr, 0, &alloc));
  CUDA_MEMSET_NODE_PARAMS set = {};
  set.dst = alloc.dptr;
  set.elementSize = 4;
  set.width = bytes / 4;
  set.height = 1;
  set.pitch = 0;
  set.value = 7;
  CUcontext ctx;
  CK(cuCtxGetCurrent(&ctx));
  CK(cuGraphAddMemsetNode(&setNode, g, &allocNode, 1, &set, ctx));
  CK(cuGraphAddMemFreeNode(&freeNode, g, &setNode, 1, alloc.dptr));
  CUgraphExec exec;
  CK(cuGraphInstantiate(&exec, g, 0));
  CK(cuGraphUpload(exec, stream));
  CK(cuStreamSynchronize(stream));
  CK(cuGraphDestroy(g));
  return exec;
}

// G: the accounting of one small allocation node, uploaded, then destroyed and trimmed.
static void granularity(size_t bytes, CUstream stream) {
  CUgraphExec e = makeGraph(bytes, stream);
  char what[64];
  std::snprintf(what, sizeof what, "G_one_node_of_%zu_KiB", bytes >> 10);
  report(what);
  CK(cuGraphExecDestroy(e));
  CK(cuDeviceGraphMemTrim(dev));
  resetHigh();
}

static const char* kNoopPtx =
    ".version 8.0\n.target sm_90\n.address_size 64\n.visible .entry noop() { ret; }\n";

// H: free device memory consumed by `graphs` execs of `nodes` kernel nodes each, in KiB per exec.
static void execCost(CUfunction noop, int graphs, int nodes, CUstream stream) {
  size_t free0, free1, total;
  CK(cuCtxSynchronize());
  CK(cuMemGetInfo(&free0, &total));
  std::vector<CUgraphExec> execs(graphs);
  for (int g = 0; g < graphs; g++) {
    CUgraph graph;
    CK(cuGraphCreate(&graph, 0));
    CUgraphNode prev = nullptr;
    for (int i = 0; i < nodes; i++) {
      CUDA_KERNEL_NODE_PARAMS k = {};
      k.func = noop;
      k.gridDimX = k.gridDimY = k.gridDimZ = 1;
      k.blockDimX = k.blockDimY = k.blockDimZ = 1;
      CUgraphNode node;
      CK(cuGraphAddKernelNode(&node, graph, prev ? &prev : nullptr, prev ? 1 : 0, &k));
      prev = node;
    }
    CK(cuGraphInstantiate(&execs[g], graph, 0));
    CK(cuGraphUpload(execs[g], stream));
    CK(cuGraphDestroy(graph));
  }
  CK(cuStreamSynchronize(stream));
  CK(cuMemGetInfo(&free1, &total));
  std::printf("H_execs_%d_of_%d_kernel_nodes,device_kib_per_exec=%.1f\n", graphs, nodes,
              ((double)free0 - (double)free1) / 1024.0 / graphs);
  for (auto& e : execs) CK(cuGraphExecDestroy(e));
}

int main(int argc, char** argv) {
  size_t mib = argc > 1 ? std::strtoul(argv[1], nullptr, 10) : 256;
  int n = argc > 2 ? std::atoi(argv[2]) : 8;
  size_t bytes = mib << 20;
  CK(cuInit(0));
  CK(cuDeviceGet(&dev, 0));
  CUcontext ctx;
  CK(cuDevicePrimaryCtxRetain(&ctx, dev));
  CK(cuCtxSetCurrent(ctx));
  std::vector<CUstream> streams(n);
  for (auto& s : streams) CK(cuStreamCreate(&s, CU_STREAM_NON_BLOCKING));
  std::printf("# graph memory probe: %zu MiB per graph, %d graphs\n", mib, n);
  report("start");

  CUgraphExec one = makeGraph(bytes, streams[0]);
  report("A_instantiated_uploaded_1");
  CK(cuGraphLaunch(one, streams[0]));
  CK(cuStreamSynchronize(streams[0]));
  report("A_launched_1");
  CK(cuGraphExecDestroy(one));
  CK(cuDeviceGraphMemTrim(dev));
  resetHigh();
  report("A_destroyed_trimmed");

  std::vector<CUgraphExec> same(n);
  for (int i = 0; i < n; i++) same[i] = makeGraph(bytes, streams[0]);
  report("B_instantiated_uploaded_n_same_stream");
  for (int i = 0; i < n; i++) CK(cuGraphLaunch(same[i], streams[0]));
  CK(cuStreamSynchronize(streams[0]));
  report("B_launched_in_turn_one_stream");

  resetHigh();
  for (int i = 0; i < n; i++) CK(cuGraphLaunch(same[i], streams[i]));
  for (auto& s : streams) CK(cuStreamSynchronize(s));
  report("C_launched_on_n_streams");

  CK(cuDeviceGraphMemTrim(dev));
  report("E_trimmed_idle");
  CK(cuGraphLaunch(same[0], streams[0]));
  CK(cuStreamSynchronize(streams[0]));
  report("E_one_launch_after_trim");
  for (auto& e : same) CK(cuGraphExecDestroy(e));
  CK(cuDeviceGraphMemTrim(dev));
  resetHigh();
  report("B_C_destroyed_trimmed");

  std::vector<CUgraphExec> ladder(n);
  for (int i = 0; i < n; i++) ladder[i] = makeGraph(bytes * (i + 1) / n, streams[0]);
  report("D_ladder_instantiated_uploaded");
  for (int i = 0; i < n; i++) CK(cuGraphLaunch(ladder[i], streams[0]));
  CK(cuStreamSynchronize(streams[0]));
  report("D_ladder_launched_in_turn_one_stream");
  for (auto& e : ladder) CK(cuGraphExecDestroy(e));
  CK(cuDeviceGraphMemTrim(dev));
  report("F_destroyed_trimmed");

  granularity(64u << 10, streams[0]);
  granularity(1u << 20, streams[0]);
  granularity(3u << 20, streams[0]);

  CUmodule module;
  CUfunction noop;
  CK(cuModuleLoadData(&module, kNoopPtx));
  CK(cuModuleGetFunction(&noop, module, "noop"));
  execCost(noop, 64, 1, streams[0]);
  execCost(noop, 64, 10, streams[0]);
  execCost(noop, 64, 100, streams[0]);
  CK(cuModuleUnload(module));

  for (auto& s : streams) CK(cuStreamDestroy(s));
  CK(cuDevicePrimaryCtxRelease(dev));
  return 0;
}
