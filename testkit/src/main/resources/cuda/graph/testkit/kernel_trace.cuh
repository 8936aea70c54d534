// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 the cuda-graph authors
// A timeline of a graph's kernels from their own timestamps, for the measurement tools: unlike
// CUDA events between nodes, it sees kernels overlap as programmatic dependent launches make them.
// cuda.graph.testkit.KernelTimeline reads what it writes (its cudaHeader() is this text). A kernel
// opens KERNEL_TRACE_SCOPE(its number) first and calls KERNEL_TRACE_WAITED() where its dependency
// wait returns. Both compile to nothing unless -DKERNEL_TRACE is given (a module's regenerate.sh
// --trace DIR writes that PTX apart, never committed); without it only the trace_to entry is
// left, which sets a pointer that nothing reads. Traced, a kernel takes a few more registers and
// 128 bytes more of static shared memory a block.
//
// Where trace_to has named a buffer, every block of a traced kernel appends one record, written by
// its first thread as it leaves: the launch (%gridid), the kernel's number in the high and the SM
// in the low 32 bits, when that thread started, when its dependency wait returned (0 where it did
// not wait), when it left (the GPU's global timer, ns), and the block's linear index. The buffer,
// unsigned long long words: [0] the records appended (atomically; those past the capacity are
// dropped and still counted), [1] the capacity in records, then KERNEL_TRACE_WORDS words a record.
#pragma once

#define KERNEL_TRACE_WORDS 6

__device__ unsigned long long *kernel_trace_out = nullptr;

// Names the trace buffer (on != 0) or stops tracing (on == 0). One thread, launched on the stream
// between replays: no kernel of a replay sees the pointer change.
extern "C" __global__ void trace_to(unsigned long long *out, int on) {
  kernel_trace_out = on ? out : nullptr;
}

#ifdef KERNEL_TRACE
__shared__ long long kernel_trace_waited; // the first thread's, set and read by it alone

__device__ __forceinline__ long long kernel_trace_now() {
  long long t;
  asm volatile("mov.u64 %0, %%globaltimer;" : "=l"(t));
  return t;
}

__device__ __forceinline__ bool kernel_trace_first_thread() {
  return (threadIdx.x | threadIdx.y | threadIdx.z) == 0;
}

// Lives for the kernel's body; its destructor writes the record on every way out.
struct KernelTraceScope {
  int kernel;
  long long start;
  __device__ explicit KernelTraceScope(int k) : kernel(k), start(kernel_trace_now()) {
    if (kernel_trace_first_thread()) kernel_trace_waited = 0;
  }
  __device__ ~KernelTraceScope() {
    unsigned long long *out = kernel_trace_out;
    if (!kernel_trace_first_thread() || out == nullptr) return;
    long long end = kernel_trace_now();
    unsigned long long grid;
    unsigned sm;
    asm volatile("mov.u64 %0, %%gridid;" : "=l"(grid));
    asm volatile("mov.u32 %0, %%smid;" : "=r"(sm));
    unsigned long long i = atomicAdd(out, 1ull);
    if (i < out[1]) {
      unsigned long long *r = out + 2 + i * KERNEL_TRACE_WORDS;
      r[0] = grid;
      r[1] = ((unsigned long long)kernel << 32) | sm;
      r[2] = start;
      r[3] = kernel_trace_waited;
      r[4] = end;
      r[5] = blockIdx.x + (unsigned long long)gridDim.x * (blockIdx.y + (unsigned long long)gridDim.y * blockIdx.z);
    }
  }
};

#define KERNEL_TRACE_SCOPE(kernel) KernelTraceScope kernel_trace_scope_(kernel)
#define KERNEL_TRACE_WAITED()                                                                   \
  do {                                                                                          \
    if (kernel_trace_first_thread()) kernel_trace_waited = kernel_trace_now();                  \
  } while (0)
#else
#define KERNEL_TRACE_SCOPE(kernel) ((void)0)
#define KERNEL_TRACE_WAITED() ((void)0)
#endif
