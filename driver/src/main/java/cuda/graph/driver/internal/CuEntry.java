// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 the cuda-graph authors
package cuda.graph.driver.internal;

import cuda.graph.spi.DriverCall;
import java.lang.foreign.FunctionDescriptor;
import java.lang.foreign.MemoryLayout;
import java.lang.foreign.ValueLayout;
import java.lang.invoke.MethodHandle;
import java.util.ArrayList;
import java.util.List;
import org.jspecify.annotations.Nullable;

/**
 * Every {@code libcuda} entry point this provider binds, each described once: the SPI call it
 * serves, the exported symbol, the ABI version, and the C signature. The downcall handle ({@link
 * #handle()}), the symbol checks of {@link CudaLibrary} and the exceptions of {@link Errors} are
 * all derived from it.
 *
 * <p><b>Symbols.</b> {@code cuda.h} renames most entry points with macros ({@code #define
 * cuMemAlloc cuMemAlloc_v2}); an FFM binding does not see those macros, and the unversioned exports
 * are the old ABIs (plain {@code cuMemAlloc} takes a 32-bit out-pointer). The symbol to bind, taken
 * from the driver specification's table (section 1.2), is the one the entry's {@link
 * DriverCall#symbol()} names, so it is not spelled again here; only entries bound by another name
 * (an older ABI of a call, the {@code Ex} form of a load, a provider-internal entry point) name
 * their symbol.
 *
 * <p><b>ABI versions.</b> {@link #base()} and {@link #introducedIn()} are what {@code
 * cuGetProcAddress_v2} needs to find the same ABI, so the binding can be cross-checked against the
 * driver's own resolution. Two entry points changed ABI within the driver versions this provider
 * supports; both forms are listed, and {@link #usedWith(int)} says which one a driver version gets.
 * Some calls are newer than the oldest driver supported: {@code cuFuncGetParamInfo} (CUDA 12.4),
 * and capture into a graph, capture dependencies with edge data and conditional nodes (CUDA 12.3).
 * Each is bound, and required of the driver, only from the version that introduced it ({@link
 * #firstDriver()}); on older drivers no entry serves it, and the call fails with {@code
 * CUDA_ERROR_NOT_SUPPORTED} without a downcall ({@link Errors#newerDriverNeeded}).
 *
 * <p><b>Signatures</b> list the parameters; every entry point returns a {@code CUresult}. Opaque
 * handles ({@code CUstream}, {@code CUevent}, ...), device pointers and 64-bit integers are passed
 * as {@code long}, which x86-64 passes exactly like a pointer and which costs no {@link
 * java.lang.foreign.MemorySegment} per call; out-parameters and host buffers are segments.
 */
enum CuEntry {
  /** {@code (unsigned int Flags)} */
  INIT(DriverCall.INIT, 2000, takes(C.INT)),
  /** {@code (int *driverVersion)} */
  DRIVER_GET_VERSION(DriverCall.DRIVER_GET_VERSION, 2020, takes(C.PTR)),
  /** {@code (CUresult error, const char **pStr)} */
  GET_ERROR_NAME(DriverCall.GET_ERROR_NAME, 6000, takes(C.INT, C.PTR)),
  /** {@code (CUresult error, const char **pStr)} */
  GET_ERROR_STRING(DriverCall.GET_ERROR_STRING, 6000, takes(C.INT, C.PTR)),
  /**
   * {@code (const char *symbol, void **pfn, int cudaVersion, cuuint64_t flags,
   * CUdriverProcAddressQueryResult *symbolStatus)}: no SPI call, only the binding's cross-check.
   */
  GET_PROC_ADDRESS(null, "cuGetProcAddress_v2", 12000, takes(C.PTR, C.PTR, C.INT, C.INT64, C.PTR)),

  /** {@code (int *count)} */
  DEVICE_GET_COUNT(DriverCall.DEVICE_GET_COUNT, 2000, takes(C.PTR)),
  /** {@code (CUdevice *device, int ordinal)} */
  DEVICE_GET(DriverCall.DEVICE_GET, 2000, takes(C.PTR, C.INT)),
  /** {@code (char *name, int len, CUdevice dev)} */
  DEVICE_GET_NAME(DriverCall.DEVICE_GET_NAME, 2000, takes(C.PTR, C.INT, C.INT)),
  /** {@code (int *pi, CUdevice_attribute attrib, CUdevice dev)} */
  DEVICE_GET_ATTRIBUTE(DriverCall.DEVICE_GET_ATTRIBUTE, 2000, takes(C.PTR, C.INT, C.INT)),
  /** {@code (size_t *bytes, CUdevice dev)} */
  DEVICE_TOTAL_MEM(DriverCall.DEVICE_TOTAL_MEM, 3020, takes(C.PTR, C.INT)),
  /** {@code (CUcontext *pctx, CUdevice dev)} */
  DEVICE_PRIMARY_CTX_RETAIN(DriverCall.DEVICE_PRIMARY_CTX_RETAIN, 7000, takes(C.PTR, C.INT)),
  /** {@code (CUdevice dev)} */
  DEVICE_PRIMARY_CTX_RELEASE(DriverCall.DEVICE_PRIMARY_CTX_RELEASE, 11000, takes(C.INT)),
  /** {@code (CUcontext ctx)} */
  CTX_SET_CURRENT(DriverCall.CTX_SET_CURRENT, 4000, takes(C.HANDLE)),
  /** {@code (CUcontext *pctx)} */
  CTX_GET_CURRENT(DriverCall.CTX_GET_CURRENT, 4000, takes(C.PTR)),
  /** {@code (CUdevice device, CUgraphMem_attribute attr, void *value)}: a cuuint64_t out. */
  DEVICE_GET_GRAPH_MEM_ATTRIBUTE(
      DriverCall.DEVICE_GET_GRAPH_MEM_ATTRIBUTE, 11040, takes(C.INT, C.INT, C.PTR)),
  /** {@code (CUdevice device, CUgraphMem_attribute attr, void *value)}: a cuuint64_t in. */
  DEVICE_SET_GRAPH_MEM_ATTRIBUTE(
      DriverCall.DEVICE_SET_GRAPH_MEM_ATTRIBUTE, 11040, takes(C.INT, C.INT, C.PTR)),
  /** {@code (CUdevice device)} */
  DEVICE_GRAPH_MEM_TRIM(DriverCall.DEVICE_GRAPH_MEM_TRIM, 11040, takes(C.INT)),

  /** {@code (CUstream *phStream, unsigned int Flags)} */
  STREAM_CREATE(DriverCall.STREAM_CREATE, 2000, takes(C.PTR, C.INT)),
  /** {@code (CUstream hStream)} */
  STREAM_DESTROY(DriverCall.STREAM_DESTROY, 4000, takes(C.HANDLE)),
  /** {@code (CUstream hStream)} */
  STREAM_SYNCHRONIZE(DriverCall.STREAM_SYNCHRONIZE, 2000, takes(C.HANDLE)),
  /** {@code (CUstream hStream)} */
  STREAM_QUERY(DriverCall.STREAM_QUERY, 2000, takes(C.HANDLE)),
  /** {@code (CUstream hStream, CUevent hEvent, unsigned int Flags)} */
  STREAM_WAIT_EVENT(DriverCall.STREAM_WAIT_EVENT, 3020, takes(C.HANDLE, C.HANDLE, C.INT)),
  /** {@code (CUstream hStream, CUhostFn fn, void *userData)}; userData is an id, not memory. */
  LAUNCH_HOST_FUNC(DriverCall.LAUNCH_HOST_FUNC, 10000, takes(C.HANDLE, C.PTR, C.INT64)),

  /** {@code (CUstream hStream, CUstreamCaptureMode mode)} */
  STREAM_BEGIN_CAPTURE(DriverCall.STREAM_BEGIN_CAPTURE, 10010, takes(C.HANDLE, C.INT)),
  /** {@code (CUstream hStream, CUgraph *phGraph)} */
  STREAM_END_CAPTURE(DriverCall.STREAM_END_CAPTURE, 10000, takes(C.HANDLE, C.PTR)),
  /** {@code (CUstream hStream, CUstreamCaptureStatus *captureStatus)} */
  STREAM_IS_CAPTURING(DriverCall.STREAM_IS_CAPTURING, 10000, takes(C.HANDLE, C.PTR)),
  /**
   * The 12.3+ form, with edge data; the only one the 13.0 header declares: {@code (CUstream
   * hStream, CUstreamCaptureStatus *captureStatus_out, cuuint64_t *id_out, CUgraph *graph_out,
   * const CUgraphNode **dependencies_out, const CUgraphEdgeData **edgeData_out, size_t
   * *numDependencies_out)}.
   */
  STREAM_GET_CAPTURE_INFO(
      DriverCall.STREAM_GET_CAPTURE_INFO,
      12030,
      Drivers.from(12030),
      takes(C.HANDLE, C.PTR, C.PTR, C.PTR, C.PTR, C.PTR, C.PTR)),
  /** The 11.3 to 12.2 form, without {@code edgeData_out}; still exported by 13.0 drivers. */
  STREAM_GET_CAPTURE_INFO_V2(
      DriverCall.STREAM_GET_CAPTURE_INFO,
      "cuStreamGetCaptureInfo_v2",
      11030,
      Drivers.below(12030),
      takes(C.HANDLE, C.PTR, C.PTR, C.PTR, C.PTR, C.PTR)),
  /** {@code (CUstreamCaptureMode *mode)} */
  THREAD_EXCHANGE_STREAM_CAPTURE_MODE(
      DriverCall.THREAD_EXCHANGE_STREAM_CAPTURE_MODE, 10010, takes(C.PTR)),
  /**
   * {@code (CUstream hStream, CUgraph hGraph, const CUgraphNode *dependencies, const
   * CUgraphEdgeData *dependencyData, size_t numDependencies, CUstreamCaptureMode mode)}: new in
   * CUDA 12.3.
   */
  STREAM_BEGIN_CAPTURE_TO_GRAPH(
      DriverCall.STREAM_BEGIN_CAPTURE_TO_GRAPH,
      12030,
      Drivers.from(12030),
      takes(C.HANDLE, C.HANDLE, C.PTR, C.PTR, C.INT64, C.INT)),
  /**
   * {@code (CUstream hStream, CUgraphNode *dependencies, const CUgraphEdgeData *dependencyData,
   * size_t numDependencies, unsigned int flags)}: the 12.3 form, with edge data. The 11.3 form
   * without it is not bound: the SPI needs this call only with conditional nodes, which are 12.3
   * too.
   */
  STREAM_UPDATE_CAPTURE_DEPENDENCIES(
      DriverCall.STREAM_UPDATE_CAPTURE_DEPENDENCIES,
      12030,
      Drivers.from(12030),
      takes(C.HANDLE, C.PTR, C.PTR, C.INT64, C.INT)),

  /** {@code (CUevent *phEvent, unsigned int Flags)} */
  EVENT_CREATE(DriverCall.EVENT_CREATE, 2000, takes(C.PTR, C.INT)),
  /** {@code (CUevent hEvent)} */
  EVENT_DESTROY(DriverCall.EVENT_DESTROY, 4000, takes(C.HANDLE)),
  /** {@code (CUevent hEvent, CUstream hStream)} */
  EVENT_RECORD(DriverCall.EVENT_RECORD, 2000, takes(C.HANDLE, C.HANDLE)),
  /** {@code (CUevent hEvent, CUstream hStream, unsigned int flags)} */
  EVENT_RECORD_WITH_FLAGS(
      DriverCall.EVENT_RECORD_WITH_FLAGS, 11010, takes(C.HANDLE, C.HANDLE, C.INT)),
  /** {@code (CUevent hEvent)} */
  EVENT_QUERY(DriverCall.EVENT_QUERY, 2000, takes(C.HANDLE)),
  /** {@code (CUevent hEvent)} */
  EVENT_SYNCHRONIZE(DriverCall.EVENT_SYNCHRONIZE, 2000, takes(C.HANDLE)),
  /**
   * The 12.8+ name; same signature, "not guaranteed to return the latest errors for pending work":
   * {@code (float *pMilliseconds, CUevent hStart, CUevent hEnd)}.
   */
  EVENT_ELAPSED_TIME(
      DriverCall.EVENT_ELAPSED_TIME, 12080, Drivers.from(12080), takes(C.PTR, C.HANDLE, C.HANDLE)),
  /** The original, unversioned form, bound below 12.8. */
  EVENT_ELAPSED_TIME_V1(
      DriverCall.EVENT_ELAPSED_TIME,
      "cuEventElapsedTime",
      2000,
      Drivers.below(12080),
      takes(C.PTR, C.HANDLE, C.HANDLE)),

  /** {@code (CUdeviceptr *dptr, size_t bytesize)} */
  MEM_ALLOC(DriverCall.MEM_ALLOC, 3020, takes(C.PTR, C.INT64)),
  /** {@code (CUdeviceptr dptr)} */
  MEM_FREE(DriverCall.MEM_FREE, 3020, takes(C.HANDLE)),
  /** {@code (CUdeviceptr *dptr, size_t bytesize, CUstream hStream)} */
  MEM_ALLOC_ASYNC(DriverCall.MEM_ALLOC_ASYNC, 11020, takes(C.PTR, C.INT64, C.HANDLE)),
  /** {@code (CUdeviceptr dptr, CUstream hStream)} */
  MEM_FREE_ASYNC(DriverCall.MEM_FREE_ASYNC, 11020, takes(C.HANDLE, C.HANDLE)),
  /** {@code (void **pp, size_t bytesize)} */
  MEM_ALLOC_HOST(DriverCall.MEM_ALLOC_HOST, 3020, takes(C.PTR, C.INT64)),
  /** {@code (void *p)}: the address of memory the driver allocated, passed as a {@code long}. */
  MEM_FREE_HOST(DriverCall.MEM_FREE_HOST, 2000, takes(C.HANDLE)),
  /** {@code (void **pp, size_t bytesize, unsigned int Flags)}: its only ABI. */
  MEM_HOST_ALLOC(DriverCall.MEM_HOST_ALLOC, 2020, takes(C.PTR, C.INT64, C.INT)),
  /**
   * What {@code cuda.h} maps {@code cuMemHostGetDevicePointer} to, with a 64-bit {@code
   * CUdeviceptr} (the unversioned export writes a 32-bit one): {@code (CUdeviceptr *pdptr, void *p,
   * unsigned int Flags)}; {@code p} is the address of memory the driver allocated, passed as a
   * {@code long}.
   */
  MEM_HOST_GET_DEVICE_POINTER(
      DriverCall.MEM_HOST_GET_DEVICE_POINTER, 3020, takes(C.PTR, C.HANDLE, C.INT)),
  /** {@code (size_t *free, size_t *total)} */
  MEM_GET_INFO(DriverCall.MEM_GET_INFO, 3020, takes(C.PTR, C.PTR)),
  /** {@code (CUdeviceptr dstDevice, const void *srcHost, size_t ByteCount)} */
  MEMCPY_HTOD(DriverCall.MEMCPY_HTOD, 3020, takes(C.HANDLE, C.PTR, C.INT64)),
  /** {@code (void *dstHost, CUdeviceptr srcDevice, size_t ByteCount)} */
  MEMCPY_DTOH(DriverCall.MEMCPY_DTOH, 3020, takes(C.PTR, C.HANDLE, C.INT64)),
  /** {@code (CUdeviceptr dstDevice, const void *srcHost, size_t ByteCount, CUstream hStream)} */
  MEMCPY_HTOD_ASYNC(DriverCall.MEMCPY_HTOD_ASYNC, 3020, takes(C.HANDLE, C.PTR, C.INT64, C.HANDLE)),
  /** {@code (void *dstHost, CUdeviceptr srcDevice, size_t ByteCount, CUstream hStream)} */
  MEMCPY_DTOH_ASYNC(DriverCall.MEMCPY_DTOH_ASYNC, 3020, takes(C.PTR, C.HANDLE, C.INT64, C.HANDLE)),
  /** {@code (CUdeviceptr dstDevice, CUdeviceptr srcDevice, size_t ByteCount, CUstream hStream)} */
  MEMCPY_DTOD_ASYNC(
      DriverCall.MEMCPY_DTOD_ASYNC, 3020, takes(C.HANDLE, C.HANDLE, C.INT64, C.HANDLE)),
  /**
   * {@code (CUdeviceptr dstDevice, unsigned char uc, size_t N, CUstream hStream)}. No {@code _v2}:
   * the asynchronous memsets kept their original ABI.
   */
  MEMSET_D8_ASYNC(DriverCall.MEMSET_D8_ASYNC, 3020, takes(C.HANDLE, C.CHAR, C.INT64, C.HANDLE)),
  /** {@code (CUdeviceptr dstDevice, unsigned short us, size_t N, CUstream hStream)} */
  MEMSET_D16_ASYNC(DriverCall.MEMSET_D16_ASYNC, 3020, takes(C.HANDLE, C.SHORT, C.INT64, C.HANDLE)),
  /** {@code (CUdeviceptr dstDevice, unsigned int ui, size_t N, CUstream hStream)} */
  MEMSET_D32_ASYNC(DriverCall.MEMSET_D32_ASYNC, 3020, takes(C.HANDLE, C.INT, C.INT64, C.HANDLE)),
  /**
   * {@code (CUdeviceptr dstDevice, size_t dstPitch, unsigned int ui, size_t Width, size_t Height,
   * CUstream hStream)}
   */
  MEMSET_D2D32_ASYNC(
      DriverCall.MEMSET_D2D32_ASYNC,
      3020,
      takes(C.HANDLE, C.INT64, C.INT, C.INT64, C.INT64, C.HANDLE)),

  /**
   * Bound for {@link DriverCall#MODULE_LOAD_DATA}: the {@code Ex} form carries the JIT error log.
   * {@code (CUmodule *module, const void *image, unsigned int numOptions, CUjit_option *options,
   * void **optionValues)}.
   */
  MODULE_LOAD_DATA(
      DriverCall.MODULE_LOAD_DATA,
      "cuModuleLoadDataEx",
      2010,
      takes(C.PTR, C.PTR, C.INT, C.PTR, C.PTR)),
  /** {@code (CUmodule hmod)} */
  MODULE_UNLOAD(DriverCall.MODULE_UNLOAD, 2000, takes(C.HANDLE)),
  /** {@code (CUfunction *hfunc, CUmodule hmod, const char *name)} */
  MODULE_GET_FUNCTION(DriverCall.MODULE_GET_FUNCTION, 2000, takes(C.PTR, C.HANDLE, C.PTR)),
  /**
   * {@code (CUfunction func, size_t paramIndex, size_t *paramOffset, size_t *paramSize)}: new in
   * CUDA 12.4, so bound (and required) only from there; on an older driver the call answers {@code
   * CUDA_ERROR_NOT_SUPPORTED} without a downcall (see {@link DriverAbi#HAS_PARAM_INFO}).
   */
  FUNC_GET_PARAM_INFO(
      DriverCall.FUNC_GET_PARAM_INFO,
      12040,
      Drivers.from(12040),
      takes(C.HANDLE, C.INT64, C.PTR, C.PTR)),
  /** {@code (int *pi, CUfunction_attribute attrib, CUfunction hfunc)} */
  FUNC_GET_ATTRIBUTE(DriverCall.FUNC_GET_ATTRIBUTE, 2020, takes(C.PTR, C.INT, C.HANDLE)),
  /** {@code (CUfunction hfunc, CUfunction_attribute attrib, int value)} */
  FUNC_SET_ATTRIBUTE(DriverCall.FUNC_SET_ATTRIBUTE, 9000, takes(C.HANDLE, C.INT, C.INT)),
  /**
   * {@code (CUfunction f, unsigned int gridDimX, unsigned int gridDimY, unsigned int gridDimZ,
   * unsigned int blockDimX, unsigned int blockDimY, unsigned int blockDimZ, unsigned int
   * sharedMemBytes, CUstream hStream, void **kernelParams, void **extra)}
   */
  LAUNCH_KERNEL(
      DriverCall.LAUNCH_KERNEL,
      4000,
      takes(C.HANDLE, C.INT, C.INT, C.INT, C.INT, C.INT, C.INT, C.INT, C.HANDLE, C.PTR, C.PTR)),
  /**
   * {@code (const CUlaunchConfig *config, CUfunction f, void **kernelParams, void **extra)}: new in
   * CUDA 11.8; bound here for programmatic dependent launch.
   */
  LAUNCH_KERNEL_EX(DriverCall.LAUNCH_KERNEL_EX, 11060, takes(C.PTR, C.HANDLE, C.PTR, C.PTR)),

  /** {@code (CUgraph *phGraph, unsigned int flags)} */
  GRAPH_CREATE(DriverCall.GRAPH_CREATE, 10000, takes(C.PTR, C.INT)),
  /** {@code (CUgraph hGraph)} */
  GRAPH_DESTROY(DriverCall.GRAPH_DESTROY, 10000, takes(C.HANDLE)),
  /**
   * What {@code cuda.h} maps {@code cuGraphInstantiate} to: {@code (CUgraphExec *phGraphExec,
   * CUgraph hGraph, unsigned long long flags)}. Its {@link #base()} is its own name: asking {@code
   * cuGetProcAddress} for {@code "cuGraphInstantiate"} would yield the 5-argument {@code
   * cuGraphInstantiate_v2} instead.
   */
  GRAPH_INSTANTIATE(DriverCall.GRAPH_INSTANTIATE, 11040, takes(C.PTR, C.HANDLE, C.INT64)),
  /** {@code (CUgraphExec hGraphExec, CUstream hStream)} */
  GRAPH_UPLOAD(DriverCall.GRAPH_UPLOAD, 11010, takes(C.HANDLE, C.HANDLE)),
  /** {@code (CUgraphExec hGraphExec, CUstream hStream)} */
  GRAPH_LAUNCH(DriverCall.GRAPH_LAUNCH, 10000, takes(C.HANDLE, C.HANDLE)),
  /** {@code (CUgraphExec hGraphExec)} */
  GRAPH_EXEC_DESTROY(DriverCall.GRAPH_EXEC_DESTROY, 10000, takes(C.HANDLE)),
  /** {@code (CUgraphExec hGraphExec, CUgraph hGraph, CUgraphExecUpdateResultInfo *resultInfo)} */
  GRAPH_EXEC_UPDATE(DriverCall.GRAPH_EXEC_UPDATE, 12000, takes(C.HANDLE, C.HANDLE, C.PTR)),
  /** {@code (CUgraph hGraph, CUgraphNode *nodes, size_t *numNodes)} */
  GRAPH_GET_NODES(DriverCall.GRAPH_GET_NODES, 10000, takes(C.HANDLE, C.PTR, C.PTR)),
  /** {@code (CUgraphNode hNode, CUgraphNodeType *type)} */
  GRAPH_NODE_GET_TYPE(DriverCall.GRAPH_NODE_GET_TYPE, 10000, takes(C.HANDLE, C.PTR)),
  /** {@code (CUgraph hGraph, const char *path, unsigned int flags)} */
  GRAPH_DEBUG_DOT_PRINT(DriverCall.GRAPH_DEBUG_DOT_PRINT, 11030, takes(C.HANDLE, C.PTR, C.INT)),
  /**
   * What {@code cuda.h} maps {@code cuGraphExecKernelNodeSetParams} to: {@code (CUgraphExec
   * hGraphExec, CUgraphNode hNode, const CUDA_KERNEL_NODE_PARAMS_v2 *nodeParams)}; see {@link
   * DriverStructs#KERNEL_NODE_PARAMS}.
   */
  GRAPH_EXEC_KERNEL_NODE_SET_PARAMS(
      DriverCall.GRAPH_EXEC_KERNEL_NODE_SET_PARAMS, 12000, takes(C.HANDLE, C.HANDLE, C.PTR)),
  /**
   * {@code (CUgraphExec hGraphExec, CUgraphNode hNode, const CUDA_MEMCPY3D *copyParams, CUcontext
   * ctx)}; see {@link DriverStructs#MEMCPY3D}.
   */
  GRAPH_EXEC_MEMCPY_NODE_SET_PARAMS(
      DriverCall.GRAPH_EXEC_MEMCPY_NODE_SET_PARAMS,
      10020,
      takes(C.HANDLE, C.HANDLE, C.PTR, C.HANDLE)),
  /**
   * {@code (CUgraphExec hGraphExec, CUgraphNode hNode, const CUDA_MEMSET_NODE_PARAMS *memsetParams,
   * CUcontext ctx)}; see {@link DriverStructs#MEMSET_NODE_PARAMS}.
   */
  GRAPH_EXEC_MEMSET_NODE_SET_PARAMS(
      DriverCall.GRAPH_EXEC_MEMSET_NODE_SET_PARAMS,
      10020,
      takes(C.HANDLE, C.HANDLE, C.PTR, C.HANDLE)),
  /** {@code (CUgraphExec hGraphExec, CUgraphNode hNode, unsigned int isEnabled)} */
  GRAPH_NODE_SET_ENABLED(
      DriverCall.GRAPH_NODE_SET_ENABLED, 11060, takes(C.HANDLE, C.HANDLE, C.INT)),
  /** {@code (CUgraphExec hGraphExec, CUgraphNode hNode, unsigned int *isEnabled)} */
  GRAPH_NODE_GET_ENABLED(
      DriverCall.GRAPH_NODE_GET_ENABLED, 11060, takes(C.HANDLE, C.HANDLE, C.PTR)),
  /**
   * {@code (CUgraphNode *phGraphNode, CUgraph hGraph, const CUgraphNode *dependencies, size_t
   * numDependencies, CUgraph childGraph)}
   */
  GRAPH_ADD_CHILD_GRAPH_NODE(
      DriverCall.GRAPH_ADD_CHILD_GRAPH_NODE,
      10000,
      takes(C.PTR, C.HANDLE, C.PTR, C.INT64, C.HANDLE)),
  /** {@code (CUgraphExec hGraphExec, CUgraphNode hNode, CUgraph childGraph)} */
  GRAPH_EXEC_CHILD_GRAPH_NODE_SET_PARAMS(
      DriverCall.GRAPH_EXEC_CHILD_GRAPH_NODE_SET_PARAMS,
      11010,
      takes(C.HANDLE, C.HANDLE, C.HANDLE)),
  /**
   * {@code (CUgraphConditionalHandle *pHandle_out, CUgraph hGraph, CUcontext ctx, unsigned int
   * defaultLaunchValue, unsigned int flags)}: new in CUDA 12.3.
   */
  GRAPH_CONDITIONAL_HANDLE_CREATE(
      DriverCall.GRAPH_CONDITIONAL_HANDLE_CREATE,
      12030,
      Drivers.from(12030),
      takes(C.PTR, C.HANDLE, C.HANDLE, C.INT, C.INT)),
  /**
   * What {@code cuda.h} maps {@code cuGraphAddNode} to, new in CUDA 12.3 like conditional nodes
   * (the 12.2 form has no edge data): {@code (CUgraphNode *phGraphNode, CUgraph hGraph, const
   * CUgraphNode *dependencies, const CUgraphEdgeData *dependencyData, size_t numDependencies,
   * CUgraphNodeParams *nodeParams)}; see {@link DriverStructs#NODE_PARAMS}.
   */
  GRAPH_ADD_NODE(
      DriverCall.GRAPH_ADD_NODE,
      12030,
      Drivers.from(12030),
      takes(C.PTR, C.HANDLE, C.PTR, C.PTR, C.INT64, C.PTR));

  /**
   * The oldest driver this provider binds against: {@code cuGraphExecUpdate_v2} and {@code
   * cuGetProcAddress_v2} first appear in CUDA 12.0.
   */
  static final int MINIMUM_DRIVER_VERSION = 12000;

  private final @Nullable DriverCall call;
  private final String symbol;
  private final int introducedIn;
  private final Drivers drivers;
  private final FunctionDescriptor signature;

  // Both made on first request, not with the constant: linking needs the bound library, and even a
  // lazy handle costs the JVM a few milliseconds of method-handle spinning per new signature shape.
  // Each is written once, under the lock.
  private volatile @Nullable MethodHandle linked;
  private volatile @Nullable MethodHandle constant;

  /** An entry bound by the symbol its call names, on every supported driver. */
  CuEntry(DriverCall call, int introducedIn, FunctionDescriptor signature) {
    this(call, call.symbol(), introducedIn, Drivers.ALL, signature);
  }

  /** An entry bound by another symbol than its call names, or serving no call, on every driver. */
  CuEntry(
      @Nullable DriverCall call, String symbol, int introducedIn, FunctionDescriptor signature) {
    this(call, symbol, introducedIn, Drivers.ALL, signature);
  }

  /**
   * The newest ABI of a call whose ABI changed, or a call newer than the oldest driver supported:
   * bound by the symbol the call names, on {@code drivers} only.
   */
  CuEntry(DriverCall call, int introducedIn, Drivers drivers, FunctionDescriptor signature) {
    this(call, call.symbol(), introducedIn, drivers, signature);
  }

  CuEntry(
      @Nullable DriverCall call,
      String symbol,
      int introducedIn,
      Drivers drivers,
      FunctionDescriptor signature) {
    this.call = call;
    this.symbol = symbol;
    this.introducedIn = introducedIn;
    this.drivers = drivers;
    this.signature = signature;
  }

  /** {@return the exported symbol bound, e.g. {@code cuMemAlloc_v2}} */
  String symbol() {
    return symbol;
  }

  /**
   * {@return the name {@code cuGetProcAddress_v2} resolves to this symbol, e.g. {@code
   * cuMemAlloc}}: the symbol without its {@code _v<N>} suffix, which is how {@code cuda.h} names
   * every versioned ABI
   */
  String base() {
    return symbol.replaceFirst("_v[0-9]+$", "");
  }

  /**
   * {@return the CUDA version that introduced this ABI: {@code cuGetProcAddress_v2}'s cudaVersion}
   */
  int introducedIn() {
    return introducedIn;
  }

  /** {@return the SPI call this entry serves, or null for an entry only the provider uses} */
  @Nullable DriverCall call() {
    return call;
  }

  /** {@return the C signature: the parameters' layouts, returning a {@code CUresult}} */
  FunctionDescriptor signature() {
    return signature;
  }

  /**
   * {@return the downcall into the bound library, linked on the first request and the same from
   * then on}; for calls off the hot path, which need no constant folding
   *
   * @throws IllegalStateException when no library is bound yet
   */
  MethodHandle handle() {
    MethodHandle made = linked;
    if (made == null) {
      synchronized (this) {
        made = linked;
        if (made == null) {
          made = CudaLibrary.downcall(this);
          linked = made;
        }
      }
    }
    return made;
  }

  /**
   * {@return a handle to hold in a {@code static final} field, one per entry}: the JIT folds such a
   * field into a direct call of the downcall stub, which it would not do for a handle read from
   * this enum. Making it touches no native code, so a class may hold it before any library is
   * bound; its first invocation links {@link #handle()} (see {@link Downcall}).
   */
  MethodHandle constantHandle() {
    MethodHandle made = constant;
    if (made == null) {
      synchronized (this) {
        made = constant;
        if (made == null) {
          made = Downcall.lazy(signature.toMethodType(), this::handle);
          constant = made;
        }
      }
    }
    return made;
  }

  /**
   * {@return the oldest driver version this entry is bound on}: 0 for an entry every supported
   * driver exports, else the version that introduced it
   */
  int firstDriver() {
    return drivers.from();
  }

  /** {@return whether a driver reporting {@code driverVersion} gets this entry bound} */
  boolean usedWith(int driverVersion) {
    return drivers.contains(driverVersion);
  }

  /**
   * {@return what a failure of this entry adds to its detail}: the symbol, where it is an older ABI
   * than the one its call names; else null
   */
  @Nullable String bindingNote() {
    return drivers.below() == Integer.MAX_VALUE ? null : "bound as " + symbol + " on this driver";
  }

  /** {@return the entries a driver of {@code driverVersion} must export, in declaration order} */
  static List<CuEntry> requiredBy(int driverVersion) {
    List<CuEntry> required = new ArrayList<>();
    for (CuEntry entry : values()) {
      if (entry.usedWith(driverVersion)) {
        required.add(entry);
      }
    }
    return required;
  }

  /**
   * {@return the entry bound for an SPI call on a driver of {@code driverVersion}}
   *
   * @throws IllegalArgumentException when no entry serves the call on that driver (a call newer
   *     than the driver)
   */
  static CuEntry boundFor(DriverCall call, int driverVersion) {
    for (CuEntry entry : values()) {
      if (entry.call == call && entry.usedWith(driverVersion)) {
        return entry;
      }
    }
    throw new IllegalArgumentException("no entry is bound for " + call);
  }

  /** {@return the signature of an entry point taking {@code parameters}, returning a CUresult} */
  private static FunctionDescriptor takes(MemoryLayout... parameters) {
    return FunctionDescriptor.of(C.INT, parameters);
  }

  /** The driver versions an entry is bound on: from {@code from}, below {@code below}. */
  record Drivers(int from, int below) {
    static final Drivers ALL = new Drivers(0, Integer.MAX_VALUE);

    static Drivers from(int version) {
      return new Drivers(version, Integer.MAX_VALUE);
    }

    static Drivers below(int version) {
      return new Drivers(0, version);
    }

    boolean contains(int version) {
      return version >= from && version < below;
    }
  }

  /** The layouts of the C types in signatures, as x86-64 Linux passes them. */
  private static final class C {
    /** {@code int}, {@code unsigned int}, enums, {@code CUdevice}, {@code CUresult}. */
    static final ValueLayout.OfInt INT = ValueLayout.JAVA_INT;

    /** {@code size_t}, {@code unsigned long long}, {@code cuuint64_t}. */
    static final ValueLayout.OfLong INT64 = ValueLayout.JAVA_LONG;

    /** Opaque handles and {@code CUdeviceptr}: pointer-sized values never dereferenced here. */
    static final ValueLayout.OfLong HANDLE = ValueLayout.JAVA_LONG;

    /** Host pointers: out-parameters, buffers, strings. */
    static final ValueLayout PTR = ValueLayout.ADDRESS;

    /** {@code unsigned char}. */
    static final ValueLayout.OfByte CHAR = ValueLayout.JAVA_BYTE;

    /** {@code unsigned short}. */
    static final ValueLayout.OfShort SHORT = ValueLayout.JAVA_SHORT;

    private C() {}
  }
}
