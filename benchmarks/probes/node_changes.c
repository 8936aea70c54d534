// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 the cuda-graph authors
// Probe for issue 36 item A: what cuGraphExecKernelNodeSetParams, cuGraphExecMemcpyNodeSetParams,
// cuGraphExecMemsetNodeSetParams and cuGraphNodeSetEnabled change in an exec, alone and together.
// Each test builds a chain graph by hand (memset -> memcpy -> saxpy), instantiates it, changes
// one node, launches, and prints what each buffer holds against what the change asked for.
// Build: gcc -O2 -I/usr/local/cuda/include node_changes.c -lcuda -o node_changes
// Run:   ./node_changes PATH/TO/conformance_kernels.ptx
#include <cuda.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define CK(x)                                                         \
  do {                                                                \
    CUresult r_ = (x);                                                \
    if (r_ != CUDA_SUCCESS) {                                         \
      const char *n_ = 0;                                             \
      cuGetErrorName(r_, &n_);                                        \
      printf("FAILED %s: %s (%d) line %d\n", #x, n_, (int)r_, __LINE__); \
      exit(1);                                                        \
    }                                                                 \
  } while (0)

#define N 256
static unsigned bits(float f) {
  unsigned u;
  memcpy(&u, &f, 4);
  return u;
}
static CUfunction saxpy;
static CUstream stream;
static int failures;

static CUdeviceptr buffer(float value, int pool) {
  CUdeviceptr p;
  if (pool) {
    CK(cuMemAllocAsync(&p, N * 4, stream));
  } else {
    CK(cuMemAlloc(&p, N * 4));
  }
  CK(cuMemsetD32Async(p, bits(value), N, stream));
  CK(cuStreamSynchronize(stream));
  return p;
}

static float first(CUdeviceptr p) {
  float v;
  CK(cuMemcpyDtoH(&v, p, 4));
  return v;
}

static void set(CUdeviceptr p, float value) {
  /* On the stream the graphs run on, then waited for: it does not wait for the legacy stream. */
  CK(cuMemsetD32Async(p, bits(value), N, stream));
  CK(cuStreamSynchronize(stream));
}

static void expect(const char *test, const char *what, CUdeviceptr p, float want) {
  float got = first(p);
  printf("  %-58s %-10s %8.3f (want %8.3f) %s\n", test, what, got, want, got == want ? "ok" : "WRONG");
  if (got != want) failures++;
}

static CUDA_MEMCPY3D copy(CUdeviceptr dst, CUdeviceptr src, size_t bytes) {
  CUDA_MEMCPY3D c;
  memset(&c, 0, sizeof c);
  c.srcMemoryType = CU_MEMORYTYPE_DEVICE;
  c.srcDevice = src;
  c.dstMemoryType = CU_MEMORYTYPE_DEVICE;
  c.dstDevice = dst;
  c.WidthInBytes = bytes;
  c.Height = 1;
  c.Depth = 1;
  return c;
}

static CUDA_MEMSET_NODE_PARAMS fill(CUdeviceptr dst, float value) {
  CUDA_MEMSET_NODE_PARAMS m;
  memset(&m, 0, sizeof m);
  m.dst = dst;
  m.value = bits(value);
  m.elementSize = 4;
  m.width = N;
  m.height = 1;
  m.pitch = 0;
  return m;
}

typedef struct {
  int n;
  float a;
  CUdeviceptr x, y;
  void *args[4];
} Saxpy;

static CUDA_KERNEL_NODE_PARAMS kernel(Saxpy *s, int n, float a, CUdeviceptr x, CUdeviceptr y) {
  s->n = n;
  s->a = a;
  s->x = x;
  s->y = y;
  s->args[0] = &s->n;
  s->args[1] = &s->a;
  s->args[2] = &s->x;
  s->args[3] = &s->y;
  CUDA_KERNEL_NODE_PARAMS k;
  memset(&k, 0, sizeof k);
  k.func = saxpy;
  k.gridDimX = (n + 31) / 32;
  k.gridDimY = 1;
  k.gridDimZ = 1;
  k.blockDimX = 32;
  k.blockDimY = 1;
  k.blockDimZ = 1;
  k.kernelParams = s->args;
  return k;
}

typedef struct {
  CUgraph g;
  CUgraphExec e;
  CUgraphNode fillNode, copyNode, kernelNode;
} Chain;

/* fill(f, fv) -> copy(cs -> cd) -> saxpy(a, kx, ky) */
static Chain chain(CUcontext ctx, CUdeviceptr f, float fv, CUdeviceptr cs, CUdeviceptr cd, float a,
                   CUdeviceptr kx, CUdeviceptr ky) {
  Chain c;
  CK(cuGraphCreate(&c.g, 0));
  CUDA_MEMSET_NODE_PARAMS m = fill(f, fv);
  CK(cuGraphAddMemsetNode(&c.fillNode, c.g, NULL, 0, &m, ctx));
  CUDA_MEMCPY3D cp = copy(cd, cs, N * 4);
  CK(cuGraphAddMemcpyNode(&c.copyNode, c.g, &c.fillNode, 1, &cp, ctx));
  Saxpy s;
  CUDA_KERNEL_NODE_PARAMS k = kernel(&s, N, a, kx, ky);
  CK(cuGraphAddKernelNode(&c.kernelNode, c.g, &c.copyNode, 1, &k));
  CK(cuGraphInstantiate(&c.e, c.g, 0));
  return c;
}

static void launch(Chain *c) {
  CK(cuGraphLaunch(c->e, stream));
  CK(cuStreamSynchronize(stream));
}

static void destroy(Chain *c) {
  CK(cuGraphExecDestroy(c->e));
  CK(cuGraphDestroy(c->g));
}


/* Graph memory: alloc(t) -> fill(t, 6) -> copy(t -> dst) -> free(t); then the copy's source or the
 * fill's destination is moved to pool memory, or the copy's source to another part of t. */
static void graphMemory(CUcontext ctx, CUdevice dev, CUdeviceptr pool, CUdeviceptr dst) {
  const char *names[] = {"12 copy node: source moved from graph memory to pool memory",
                         "13 fill node: destination moved from graph memory to pool memory",
                         "14 copy node: source moved within its graph allocation",
                         "15 copy node: destination moved from pool memory into graph memory"};
  for (int test = 0; test < 4; test++) {
    CUgraph g;
    CK(cuGraphCreate(&g, 0));
    CUDA_MEM_ALLOC_NODE_PARAMS ap;
    memset(&ap, 0, sizeof ap);
    ap.poolProps.allocType = CU_MEM_ALLOCATION_TYPE_PINNED;
    ap.poolProps.location.type = CU_MEM_LOCATION_TYPE_DEVICE;
    ap.poolProps.location.id = dev;
    ap.bytesize = 2 * N * 4;
    CUgraphNode alloc, fillNode, copyNode, freeNode;
    CK(cuGraphAddMemAllocNode(&alloc, g, NULL, 0, &ap));
    CUdeviceptr t = ap.dptr;
    CUDA_MEMSET_NODE_PARAMS m = fill(t, 6);
    m.width = 2 * N;
    CK(cuGraphAddMemsetNode(&fillNode, g, &alloc, 1, &m, ctx));
    CUDA_MEMCPY3D cp = copy(dst, t, N * 4);
    CK(cuGraphAddMemcpyNode(&copyNode, g, &fillNode, 1, &cp, ctx));
    CK(cuGraphAddMemFreeNode(&freeNode, g, &copyNode, 1, t));
    CUgraphExec e;
    CK(cuGraphInstantiate(&e, g, 0));
    set(pool, 7);
    set(dst, 0);
    CUresult r;
    float want;
    CUdeviceptr where = dst;
    if (test == 0) {
      CUDA_MEMCPY3D c2 = copy(dst, pool, N * 4);
      r = cuGraphExecMemcpyNodeSetParams(e, copyNode, &c2, ctx);
      want = 7;
    } else if (test == 1) {
      CUDA_MEMSET_NODE_PARAMS m2 = fill(pool, 8);
      r = cuGraphExecMemsetNodeSetParams(e, fillNode, &m2, ctx);
      where = pool;
      want = 8;
    } else if (test == 2) {
      CUDA_MEMCPY3D c2 = copy(dst, t + N * 4, N * 4);
      r = cuGraphExecMemcpyNodeSetParams(e, copyNode, &c2, ctx);
      want = 6;
    } else {
      CUDA_MEMCPY3D c2 = copy(t + N * 4, t, N * 4);
      r = cuGraphExecMemcpyNodeSetParams(e, copyNode, &c2, ctx);
      want = 0;  /* dst keeps 0: the copy now stays inside t */
    }
    const char *rn = 0;
    cuGetErrorName(r, &rn);
    printf("  %-58s returned %s\n", names[test], rn);
    if (r == CUDA_SUCCESS) {
      CK(cuGraphLaunch(e, stream));
      CK(cuStreamSynchronize(stream));
      expect(names[test], "result", where, want);
    }
    CK(cuGraphExecDestroy(e));
    CK(cuGraphDestroy(g));
  }
}

/* A copy node's source moved between memory of other kinds: cuMemAlloc, the stream-ordered pool,
 * and mapped host memory (cuMemHostAlloc with DEVICEMAP, through its device pointer). */
static void memoryKinds(CUcontext ctx, CUdeviceptr pool, CUdeviceptr plain, CUdeviceptr dst) {
  void *host;
  CK(cuMemHostAlloc(&host, N * 4, CU_MEMHOSTALLOC_DEVICEMAP));
  for (int i = 0; i < N; i++) ((float *)host)[i] = 11;
  CUdeviceptr mapped;
  CK(cuMemHostGetDevicePointer(&mapped, host, 0));
  struct {
    const char *name;
    CUdeviceptr from, to;
    float want;
  } cases[] = {
      {"16 copy source: cuMemAlloc -> pool", plain, pool, 7},
      {"17 copy source: pool -> cuMemAlloc", pool, plain, 12},
      {"18 copy source: pool -> mapped host", pool, mapped, 11},
      {"19 copy source: mapped host -> pool", mapped, pool, 7},
  };
  for (int i = 0; i < 4; i++) {
    set(pool, 7);
    set(plain, 12);
    set(dst, 0);
    Chain c = chain(ctx, dst + 0, 0, cases[i].from, dst, 0, dst, dst);
    /* the chain's fill writes dst first, then the copy overwrites it; the saxpy adds 0 * dst */
    CUDA_MEMCPY3D cp = copy(dst, cases[i].to, N * 4);
    CUresult r = cuGraphExecMemcpyNodeSetParams(c.e, c.copyNode, &cp, ctx);
    const char *rn = 0;
    cuGetErrorName(r, &rn);
    printf("  %-58s returned %s\n", cases[i].name, rn);
    if (r == CUDA_SUCCESS) {
      launch(&c);
      expect(cases[i].name, "result", dst, cases[i].want);
    }
    destroy(&c);
  }
  CK(cuMemFreeHost(host));
}

/* The order across a node switched off: saxpy over BIG elements (y = x + y, long enough to take
 * a while) -> MIDDLE (a memset, a copy or a kernel, switched off) -> a copy of y's last N elements.
 * With the edges kept, the copy reads what the saxpy wrote (1); without, it may read y before. */
#define BIG (1 << 25)
static void orderAcrossSwitchedOff(CUcontext ctx) {
  CUdeviceptr x, y, z, out;
  CK(cuMemAlloc(&x, (size_t)BIG * 4));
  CK(cuMemAlloc(&y, (size_t)BIG * 4));
  CK(cuMemAlloc(&z, N * 4));
  CK(cuMemAlloc(&out, N * 4));
  CK(cuMemsetD32Async(x, bits(1), BIG, stream));
  CK(cuStreamSynchronize(stream));
  const char *middles[] = {"memset", "copy", "kernel"};
  for (int kind = 0; kind < 3; kind++) {
    for (int off = 0; off < 2; off++) {
      CUgraph g;
      CK(cuGraphCreate(&g, 0));
      CUgraphNode head, middle, last;
      Saxpy s1;
      CUDA_KERNEL_NODE_PARAMS k1 = kernel(&s1, BIG, 1, x, y);
      CK(cuGraphAddKernelNode(&head, g, NULL, 0, &k1));
      if (kind == 0) {
        CUDA_MEMSET_NODE_PARAMS m = fill(z, 2);
        CK(cuGraphAddMemsetNode(&middle, g, &head, 1, &m, ctx));
      } else if (kind == 1) {
        CUDA_MEMCPY3D cp = copy(z, x, N * 4);
        CK(cuGraphAddMemcpyNode(&middle, g, &head, 1, &cp, ctx));
      } else {
        Saxpy s2;
        CUDA_KERNEL_NODE_PARAMS k2 = kernel(&s2, N, 1, x, z);
        CK(cuGraphAddKernelNode(&middle, g, &head, 1, &k2));
      }
      CUDA_MEMCPY3D cp = copy(out, y + (size_t)(BIG - N) * 4, N * 4);
      CK(cuGraphAddMemcpyNode(&last, g, &middle, 1, &cp, ctx));
      CUgraphExec e;
      CK(cuGraphInstantiate(&e, g, 0));
      if (off) CK(cuGraphNodeSetEnabled(e, middle, 0));
      int wrong = 0;
      for (int round = 0; round < 20; round++) {
        /* On the graph's stream: a non-blocking stream does not wait for the legacy stream. */
        CK(cuMemsetD32Async(y, bits(0), BIG, stream));
        CK(cuMemsetD32Async(out, bits(-1), N, stream));
        CK(cuGraphLaunch(e, stream));
        CK(cuStreamSynchronize(stream));
        if (first(out) != 1) wrong++;
      }
      printf("  2%d saxpy -> %-6s %-3s -> copy of the saxpy's last elements: %2d of 20 replays read y before the saxpy wrote it\n",
             kind * 2 + off, middles[kind], off ? "OFF" : "on", wrong);
      CK(cuGraphExecDestroy(e));
      CK(cuGraphDestroy(g));
    }
  }
  CK(cuMemFree(x));
  CK(cuMemFree(y));
  CK(cuMemFree(z));
  CK(cuMemFree(out));
}

/* A memset node's destination moved between pool memory and mapped host memory. */
static void memsetKinds(CUcontext ctx, CUdeviceptr pool) {
  void *host;
  CK(cuMemHostAlloc(&host, N * 4, CU_MEMHOSTALLOC_DEVICEMAP));
  CUdeviceptr mapped;
  CK(cuMemHostGetDevicePointer(&mapped, host, 0));
  for (int dir = 0; dir < 2; dir++) {
    CUdeviceptr from = dir ? mapped : pool, to = dir ? pool : mapped;
    Chain c = chain(ctx, from, 3, from, from, 0, from, from);
    CUDA_MEMSET_NODE_PARAMS m = fill(to, 9);
    CUresult r = cuGraphExecMemsetNodeSetParams(c.e, c.fillNode, &m, ctx);
    const char *rn = 0;
    cuGetErrorName(r, &rn);
    printf("  %-58s returned %s\n", dir ? "20 fill destination: mapped host -> pool" : "21 fill destination: pool -> mapped host", rn);
    destroy(&c);
  }
  CK(cuMemFreeHost(host));
}

/* Every pair around a memset switched off: BEFORE writes y's last N elements late (it covers BIG
 * elements: a saxpy y = x + y, a copy of x into y, or a memset of y to 1); AFTER then reads or
 * overwrites them (a copy into out, a saxpy into out, or a memset of them to 2). Each pair with the
 * memset in between on and off, 20 replays each, counting the replays whose order broke. */
static void pairsAroundAnOffMemset(CUcontext ctx) {
  CUdeviceptr x, y, z, out;
  CK(cuMemAlloc(&x, (size_t)BIG * 4));
  CK(cuMemAlloc(&y, (size_t)BIG * 4));
  CK(cuMemAlloc(&z, N * 4));
  CK(cuMemAlloc(&out, N * 4));
  CK(cuMemsetD32Async(x, bits(1), BIG, stream));
  CK(cuStreamSynchronize(stream));
  const char *kinds[] = {"kernel", "copy", "memset"};
  CUdeviceptr tail = y + (size_t)(BIG - N) * 4;
  for (int before = 0; before < 3; before++) {
    for (int after = 0; after < 3; after++) {
      int wrong[2] = {0, 0};
      for (int off = 0; off < 2; off++) {
        CUgraph g;
        CK(cuGraphCreate(&g, 0));
        CUgraphNode b, m, a;
        Saxpy sb, sa;
        if (before == 0) {
          CUDA_KERNEL_NODE_PARAMS k = kernel(&sb, BIG, 1, x, y);
          CK(cuGraphAddKernelNode(&b, g, NULL, 0, &k));
        } else if (before == 1) {
          CUDA_MEMCPY3D cp = copy(y, x, (size_t)BIG * 4);
          CK(cuGraphAddMemcpyNode(&b, g, NULL, 0, &cp, ctx));
        } else {
          CUDA_MEMSET_NODE_PARAMS ms = fill(y, 1);
          ms.width = BIG;
          CK(cuGraphAddMemsetNode(&b, g, NULL, 0, &ms, ctx));
        }
        CUDA_MEMSET_NODE_PARAMS mid = fill(z, 5);
        CK(cuGraphAddMemsetNode(&m, g, &b, 1, &mid, ctx));
        if (after == 0) {
          CUDA_KERNEL_NODE_PARAMS k = kernel(&sa, N, 1, tail, out);
          CK(cuGraphAddKernelNode(&a, g, &m, 1, &k));
        } else if (after == 1) {
          CUDA_MEMCPY3D cp = copy(out, tail, N * 4);
          CK(cuGraphAddMemcpyNode(&a, g, &m, 1, &cp, ctx));
        } else {
          CUDA_MEMSET_NODE_PARAMS ms = fill(tail, 2);
          CK(cuGraphAddMemsetNode(&a, g, &m, 1, &ms, ctx));
        }
        CUgraphExec e;
        CK(cuGraphInstantiate(&e, g, 0));
        if (off) CK(cuGraphNodeSetEnabled(e, m, 0));
        for (int round = 0; round < 20; round++) {
          CK(cuMemsetD32Async(y, bits(0), BIG, stream));
          CK(cuMemsetD32Async(out, bits(0), N, stream));
          CK(cuGraphLaunch(e, stream));
          CK(cuStreamSynchronize(stream));
          float got = first(after == 2 ? tail : out);
          if (got != (after == 2 ? 2 : 1)) wrong[off]++;
        }
        CK(cuGraphExecDestroy(e));
        CK(cuGraphDestroy(g));
      }
      printf("  3%d %-6s -> memset -> %-6s: order broken in %2d of 20 replays with the memset on, %2d of 20 off\n",
             before * 3 + after, kinds[before], kinds[after], wrong[0], wrong[1]);
    }
  }
  CK(cuMemFree(x));
  CK(cuMemFree(y));
  CK(cuMemFree(z));
  CK(cuMemFree(out));
}

int main(int argc, char **argv) {
  if (argc < 2) {
    printf("usage: node_changes conformance_kernels.ptx\n");
    return 2;
  }
  FILE *fp = fopen(argv[1], "rb");
  if (!fp) {
    printf("cannot read %s\n", argv[1]);
    return 2;
  }
  static char ptx[1 << 20];
  size_t len = fread(ptx, 1, sizeof ptx - 1, fp);
  ptx[len] = 0;
  fclose(fp);
  CK(cuInit(0));
  CUdevice dev;
  CK(cuDeviceGet(&dev, 0));
  CUcontext ctx;
  CK(cuDevicePrimaryCtxRetain(&ctx, dev));
  CK(cuCtxSetCurrent(ctx));
  int version;
  CK(cuDriverGetVersion(&version));
  printf("driver API %d\n", version);
  CUmodule mod;
  CK(cuModuleLoadData(&mod, ptx));
  CK(cuModuleGetFunction(&saxpy, mod, "saxpy"));
  CK(cuStreamCreate(&stream, CU_STREAM_NON_BLOCKING));

  for (int pool = 0; pool < 2; pool++) {
    printf("buffers from %s\n", pool ? "cuMemAllocAsync (the stream-ordered pool)" : "cuMemAlloc");
    CUdeviceptr b[8];
    for (int i = 0; i < 8; i++) b[i] = buffer(0, pool);
    const char *t;
    Chain c;

    t = "1 copy node: new source and destination";
    set(b[0], 1); set(b[1], 2); set(b[2], 0); set(b[3], 0);
    c = chain(ctx, b[7], 9, b[0], b[2], 0, b[6], b[6]);
    {
      CUDA_MEMCPY3D cp = copy(b[3], b[1], N * 4);
      CK(cuGraphExecMemcpyNodeSetParams(c.e, c.copyNode, &cp, ctx));
    }
    launch(&c);
    expect(t, "new dst", b[3], 2);
    expect(t, "old dst", b[2], 0);
    destroy(&c);

    t = "2 copy node: changed while off, then on";
    set(b[0], 1); set(b[1], 2); set(b[2], 0); set(b[3], 0);
    c = chain(ctx, b[7], 9, b[0], b[2], 0, b[6], b[6]);
    CK(cuGraphNodeSetEnabled(c.e, c.copyNode, 0));
    {
      CUDA_MEMCPY3D cp = copy(b[3], b[1], N * 4);
      CK(cuGraphExecMemcpyNodeSetParams(c.e, c.copyNode, &cp, ctx));
    }
    CK(cuGraphNodeSetEnabled(c.e, c.copyNode, 1));
    launch(&c);
    expect(t, "new dst", b[3], 2);
    expect(t, "old dst", b[2], 0);
    destroy(&c);

    t = "3 copy node: changed, then off, then on";
    set(b[0], 1); set(b[1], 2); set(b[2], 0); set(b[3], 0);
    c = chain(ctx, b[7], 9, b[0], b[2], 0, b[6], b[6]);
    {
      CUDA_MEMCPY3D cp = copy(b[3], b[1], N * 4);
      CK(cuGraphExecMemcpyNodeSetParams(c.e, c.copyNode, &cp, ctx));
    }
    CK(cuGraphNodeSetEnabled(c.e, c.copyNode, 0));
    CK(cuGraphNodeSetEnabled(c.e, c.copyNode, 1));
    launch(&c);
    expect(t, "new dst", b[3], 2);
    expect(t, "old dst", b[2], 0);
    destroy(&c);

    t = "4 copy node: launched, changed, launched";
    set(b[0], 1); set(b[1], 2); set(b[2], 0); set(b[3], 0);
    c = chain(ctx, b[7], 9, b[0], b[2], 0, b[6], b[6]);
    launch(&c);
    set(b[2], 0);
    {
      CUDA_MEMCPY3D cp = copy(b[3], b[1], N * 4);
      CK(cuGraphExecMemcpyNodeSetParams(c.e, c.copyNode, &cp, ctx));
    }
    launch(&c);
    expect(t, "new dst", b[3], 2);
    expect(t, "old dst", b[2], 0);
    destroy(&c);

    t = "5 copy node: off, launched, changed, on, launched";
    set(b[0], 1); set(b[1], 2); set(b[2], 0); set(b[3], 0);
    c = chain(ctx, b[7], 9, b[0], b[2], 0, b[6], b[6]);
    CK(cuGraphNodeSetEnabled(c.e, c.copyNode, 0));
    launch(&c);
    {
      CUDA_MEMCPY3D cp = copy(b[3], b[1], N * 4);
      CK(cuGraphExecMemcpyNodeSetParams(c.e, c.copyNode, &cp, ctx));
    }
    CK(cuGraphNodeSetEnabled(c.e, c.copyNode, 1));
    launch(&c);
    expect(t, "new dst", b[3], 2);
    expect(t, "old dst", b[2], 0);
    destroy(&c);

    t = "6 copy node: half the bytes";
    set(b[0], 1); set(b[1], 2); set(b[2], 0); set(b[3], 0);
    c = chain(ctx, b[7], 9, b[0], b[2], 0, b[6], b[6]);
    {
      CUDA_MEMCPY3D cp = copy(b[3], b[1], N * 2);
      CK(cuGraphExecMemcpyNodeSetParams(c.e, c.copyNode, &cp, ctx));
    }
    launch(&c);
    expect(t, "new dst", b[3], 2);
    destroy(&c);

    t = "7 fill node: changed while off, then on";
    set(b[4], 0); set(b[5], 0);
    c = chain(ctx, b[4], 3, b[0], b[2], 0, b[6], b[6]);
    CK(cuGraphNodeSetEnabled(c.e, c.fillNode, 0));
    {
      CUDA_MEMSET_NODE_PARAMS m = fill(b[5], 5);
      CK(cuGraphExecMemsetNodeSetParams(c.e, c.fillNode, &m, ctx));
    }
    CK(cuGraphNodeSetEnabled(c.e, c.fillNode, 1));
    launch(&c);
    expect(t, "new dst", b[5], 5);
    expect(t, "old dst", b[4], 0);
    destroy(&c);

    t = "8 kernel node: changed while off, then on";
    set(b[4], 1); set(b[5], 1); set(b[6], 10);
    c = chain(ctx, b[7], 9, b[0], b[2], 2, b[6], b[4]);
    CK(cuGraphNodeSetEnabled(c.e, c.kernelNode, 0));
    {
      Saxpy s;
      CUDA_KERNEL_NODE_PARAMS k = kernel(&s, N, 3, b[6], b[5]);
      CK(cuGraphExecKernelNodeSetParams(c.e, c.kernelNode, &k));
    }
    CK(cuGraphNodeSetEnabled(c.e, c.kernelNode, 1));
    launch(&c);
    expect(t, "new y", b[5], 31);
    expect(t, "old y", b[4], 1);
    destroy(&c);

    t = "9 kernel node: other grid (n 33)";
    set(b[4], 1); set(b[6], 10);
    c = chain(ctx, b[7], 9, b[0], b[2], 2, b[6], b[4]);
    {
      Saxpy s;
      CUDA_KERNEL_NODE_PARAMS k = kernel(&s, 33, 3, b[6], b[4]);
      CK(cuGraphExecKernelNodeSetParams(c.e, c.kernelNode, &k));
    }
    launch(&c);
    expect(t, "y[0]", b[4], 31);
    destroy(&c);

    t = "10 copy node reads what the fill before it wrote";
    set(b[0], 0); set(b[2], 0); set(b[3], 0); set(b[5], 0);
    c = chain(ctx, b[0], 4, b[1], b[2], 0, b[6], b[6]);
    {
      CUDA_MEMCPY3D cp = copy(b[3], b[0], N * 4);
      CK(cuGraphExecMemcpyNodeSetParams(c.e, c.copyNode, &cp, ctx));
    }
    launch(&c);
    expect(t, "new dst", b[3], 4);
    destroy(&c);

    t = "11 copy node: source changed after an exec update";
    set(b[0], 1); set(b[1], 2); set(b[2], 0); set(b[3], 0);
    c = chain(ctx, b[7], 9, b[0], b[2], 0, b[6], b[6]);
    {
      Chain d = chain(ctx, b[7], 9, b[0], b[2], 0, b[6], b[6]);
      CUgraphExecUpdateResultInfo info;
      CK(cuGraphExecUpdate(c.e, d.g, &info));
      CUDA_MEMCPY3D cp = copy(b[3], b[1], N * 4);
      CK(cuGraphExecMemcpyNodeSetParams(c.e, c.copyNode, &cp, ctx));
      launch(&c);
      expect(t, "new dst", b[3], 2);
      destroy(&d);
    }
    destroy(&c);

    graphMemory(ctx, dev, b[0], b[1]);
    if (pool) {
      CUdeviceptr plain;
      CK(cuMemAlloc(&plain, N * 4));
      memoryKinds(ctx, b[0], plain, b[1]);
      CK(cuMemFree(plain));
      memsetKinds(ctx, b[0]);
      orderAcrossSwitchedOff(ctx);
      pairsAroundAnOffMemset(ctx);
    }
    for (int i = 0; i < 8; i++) {
      if (pool) {
        CK(cuMemFreeAsync(b[i], stream));
      } else {
        CK(cuMemFree(b[i]));
      }
    }
    CK(cuStreamSynchronize(stream));
  }
  printf("%d wrong\n", failures);
  return 0;
}
