package cuda.graph.driver.internal;

import cuda.graph.spi.DriverCall;
import java.util.ArrayList;
import java.util.List;
import org.jspecify.annotations.Nullable;

/**
 * Every {@code libcuda} entry point this provider binds, by its exported, versioned name.
 *
 * <p>{@code cuda.h} renames most entry points with macros ({@code #define cuMemAlloc
 * cuMemAlloc_v2}); an FFM binding does not see those macros, and the unversioned exports are the
 * old ABIs (plain {@code cuMemAlloc} takes a 32-bit out-pointer). So each constant is named exactly
 * like the symbol to bind, taken from the driver specification's table (section 1.2). {@link
 * #base()} and {@link #introducedIn()} are what {@code cuGetProcAddress_v2} needs to find the same
 * ABI, so the binding can be cross-checked against the driver's own resolution.
 *
 * <p>Two entry points changed ABI within the driver versions this provider supports; both variants
 * are listed, and {@link #usedWith(int)} says which one a driver version gets.
 */
// The constants break Java naming on purpose: each is spelled exactly like the C symbol it binds.
enum CuSymbol {
  cuInit("cuInit", 2000, DriverCall.INIT),
  cuDriverGetVersion("cuDriverGetVersion", 2020, DriverCall.DRIVER_GET_VERSION),
  cuGetErrorName("cuGetErrorName", 6000, DriverCall.GET_ERROR_NAME),
  cuGetErrorString("cuGetErrorString", 6000, DriverCall.GET_ERROR_STRING),
  cuGetProcAddress_v2("cuGetProcAddress", 12000, null),

  cuDeviceGetCount("cuDeviceGetCount", 2000, DriverCall.DEVICE_GET_COUNT),
  cuDeviceGet("cuDeviceGet", 2000, DriverCall.DEVICE_GET),
  cuDeviceGetName("cuDeviceGetName", 2000, DriverCall.DEVICE_GET_NAME),
  cuDeviceGetAttribute("cuDeviceGetAttribute", 2000, DriverCall.DEVICE_GET_ATTRIBUTE),
  cuDeviceTotalMem_v2("cuDeviceTotalMem", 3020, DriverCall.DEVICE_TOTAL_MEM),
  cuDevicePrimaryCtxRetain("cuDevicePrimaryCtxRetain", 7000, DriverCall.DEVICE_PRIMARY_CTX_RETAIN),
  cuDevicePrimaryCtxRelease_v2(
      "cuDevicePrimaryCtxRelease", 11000, DriverCall.DEVICE_PRIMARY_CTX_RELEASE),
  cuCtxSetCurrent("cuCtxSetCurrent", 4000, DriverCall.CTX_SET_CURRENT),
  cuCtxGetCurrent("cuCtxGetCurrent", 4000, DriverCall.CTX_GET_CURRENT),

  cuStreamCreate("cuStreamCreate", 2000, DriverCall.STREAM_CREATE),
  cuStreamDestroy_v2("cuStreamDestroy", 4000, DriverCall.STREAM_DESTROY),
  cuStreamSynchronize("cuStreamSynchronize", 2000, DriverCall.STREAM_SYNCHRONIZE),
  cuStreamQuery("cuStreamQuery", 2000, DriverCall.STREAM_QUERY),
  cuStreamWaitEvent("cuStreamWaitEvent", 3020, DriverCall.STREAM_WAIT_EVENT),
  cuLaunchHostFunc("cuLaunchHostFunc", 10000, DriverCall.LAUNCH_HOST_FUNC),

  cuStreamBeginCapture_v2("cuStreamBeginCapture", 10010, DriverCall.STREAM_BEGIN_CAPTURE),
  cuStreamEndCapture("cuStreamEndCapture", 10000, DriverCall.STREAM_END_CAPTURE),
  cuStreamIsCapturing("cuStreamIsCapturing", 10000, DriverCall.STREAM_IS_CAPTURING),
  /** The 12.3+ form, with edge data; the only one the 13.0 header declares. */
  cuStreamGetCaptureInfo_v3(
      "cuStreamGetCaptureInfo",
      12030,
      DriverCall.STREAM_GET_CAPTURE_INFO,
      12030,
      Integer.MAX_VALUE),
  /** The 11.3 to 12.2 form, without edge data; still exported by 13.0 drivers. */
  cuStreamGetCaptureInfo_v2(
      "cuStreamGetCaptureInfo", 11030, DriverCall.STREAM_GET_CAPTURE_INFO, 0, 12030),
  cuThreadExchangeStreamCaptureMode(
      "cuThreadExchangeStreamCaptureMode", 10010, DriverCall.THREAD_EXCHANGE_STREAM_CAPTURE_MODE),

  cuEventCreate("cuEventCreate", 2000, DriverCall.EVENT_CREATE),
  cuEventDestroy_v2("cuEventDestroy", 4000, DriverCall.EVENT_DESTROY),
  cuEventRecord("cuEventRecord", 2000, DriverCall.EVENT_RECORD),
  cuEventRecordWithFlags("cuEventRecordWithFlags", 11010, DriverCall.EVENT_RECORD_WITH_FLAGS),
  cuEventQuery("cuEventQuery", 2000, DriverCall.EVENT_QUERY),
  cuEventSynchronize("cuEventSynchronize", 2000, DriverCall.EVENT_SYNCHRONIZE),
  /**
   * The 12.8+ name; same signature, "not guaranteed to return the latest errors for pending work".
   */
  cuEventElapsedTime_v2(
      "cuEventElapsedTime", 12080, DriverCall.EVENT_ELAPSED_TIME, 12080, Integer.MAX_VALUE),
  cuEventElapsedTime("cuEventElapsedTime", 2000, DriverCall.EVENT_ELAPSED_TIME, 0, 12080),

  cuMemAlloc_v2("cuMemAlloc", 3020, DriverCall.MEM_ALLOC),
  cuMemFree_v2("cuMemFree", 3020, DriverCall.MEM_FREE),
  cuMemAllocAsync("cuMemAllocAsync", 11020, DriverCall.MEM_ALLOC_ASYNC),
  cuMemFreeAsync("cuMemFreeAsync", 11020, DriverCall.MEM_FREE_ASYNC),
  cuMemAllocHost_v2("cuMemAllocHost", 3020, DriverCall.MEM_ALLOC_HOST),
  cuMemFreeHost("cuMemFreeHost", 2000, DriverCall.MEM_FREE_HOST),
  cuMemGetInfo_v2("cuMemGetInfo", 3020, DriverCall.MEM_GET_INFO),
  cuMemcpyHtoD_v2("cuMemcpyHtoD", 3020, DriverCall.MEMCPY_HTOD),
  cuMemcpyDtoH_v2("cuMemcpyDtoH", 3020, DriverCall.MEMCPY_DTOH),
  cuMemcpyHtoDAsync_v2("cuMemcpyHtoDAsync", 3020, DriverCall.MEMCPY_HTOD_ASYNC),
  cuMemcpyDtoHAsync_v2("cuMemcpyDtoHAsync", 3020, DriverCall.MEMCPY_DTOH_ASYNC),
  cuMemcpyDtoDAsync_v2("cuMemcpyDtoDAsync", 3020, DriverCall.MEMCPY_DTOD_ASYNC),
  /** No {@code _v2}: the asynchronous memsets kept their original ABI. */
  cuMemsetD8Async("cuMemsetD8Async", 3020, DriverCall.MEMSET_D8_ASYNC),
  cuMemsetD16Async("cuMemsetD16Async", 3020, DriverCall.MEMSET_D16_ASYNC),
  cuMemsetD32Async("cuMemsetD32Async", 3020, DriverCall.MEMSET_D32_ASYNC),
  cuMemsetD2D32Async("cuMemsetD2D32Async", 3020, DriverCall.MEMSET_D2D32_ASYNC),

  /**
   * Bound for {@link DriverCall#MODULE_LOAD_DATA}: the {@code Ex} form carries the JIT error log.
   */
  cuModuleLoadDataEx("cuModuleLoadDataEx", 2010, DriverCall.MODULE_LOAD_DATA),
  cuModuleUnload("cuModuleUnload", 2000, DriverCall.MODULE_UNLOAD),
  cuModuleGetFunction("cuModuleGetFunction", 2000, DriverCall.MODULE_GET_FUNCTION),
  cuLaunchKernel("cuLaunchKernel", 4000, DriverCall.LAUNCH_KERNEL),

  cuGraphCreate("cuGraphCreate", 10000, DriverCall.GRAPH_CREATE),
  cuGraphDestroy("cuGraphDestroy", 10000, DriverCall.GRAPH_DESTROY),
  /**
   * What {@code cuda.h} maps {@code cuGraphInstantiate} to. Asking {@code cuGetProcAddress} for
   * {@code "cuGraphInstantiate"} yields the 5-argument {@code cuGraphInstantiate_v2} instead, so
   * the base name here is the {@code WithFlags} one.
   */
  cuGraphInstantiateWithFlags("cuGraphInstantiateWithFlags", 11040, DriverCall.GRAPH_INSTANTIATE),
  cuGraphUpload("cuGraphUpload", 11010, DriverCall.GRAPH_UPLOAD),
  cuGraphLaunch("cuGraphLaunch", 10000, DriverCall.GRAPH_LAUNCH),
  cuGraphExecDestroy("cuGraphExecDestroy", 10000, DriverCall.GRAPH_EXEC_DESTROY),
  cuGraphExecUpdate_v2("cuGraphExecUpdate", 12000, DriverCall.GRAPH_EXEC_UPDATE),
  cuGraphGetNodes("cuGraphGetNodes", 10000, DriverCall.GRAPH_GET_NODES),
  cuGraphNodeGetType("cuGraphNodeGetType", 10000, DriverCall.GRAPH_NODE_GET_TYPE),
  cuGraphDebugDotPrint("cuGraphDebugDotPrint", 11030, DriverCall.GRAPH_DEBUG_DOT_PRINT);

  /**
   * The oldest driver this provider binds against: {@code cuGraphExecUpdate_v2} and {@code
   * cuGetProcAddress_v2} first appear in CUDA 12.0.
   */
  static final int MINIMUM_DRIVER_VERSION = 12000;

  private final String base;
  private final int introducedIn;
  private final @Nullable DriverCall call;
  private final int usedFrom;
  private final int usedBelow;

  CuSymbol(String base, int introducedIn, @Nullable DriverCall call) {
    this(base, introducedIn, call, 0, Integer.MAX_VALUE);
  }

  CuSymbol(String base, int introducedIn, @Nullable DriverCall call, int usedFrom, int usedBelow) {
    this.base = base;
    this.introducedIn = introducedIn;
    this.call = call;
    this.usedFrom = usedFrom;
    this.usedBelow = usedBelow;
  }

  /** {@return the exported symbol bound, e.g. {@code cuMemAlloc_v2}} */
  String symbol() {
    return name();
  }

  /**
   * {@return the name {@code cuGetProcAddress_v2} resolves to this symbol, e.g. {@code cuMemAlloc}}
   */
  String base() {
    return base;
  }

  /**
   * {@return the CUDA version that introduced this ABI: {@code cuGetProcAddress_v2}'s cudaVersion}
   */
  int introducedIn() {
    return introducedIn;
  }

  /** {@return the SPI call this symbol serves, or null for a symbol only the provider uses} */
  @Nullable DriverCall call() {
    return call;
  }

  /** {@return whether a driver reporting {@code driverVersion} gets this symbol bound} */
  boolean usedWith(int driverVersion) {
    return driverVersion >= usedFrom && driverVersion < usedBelow;
  }

  /** {@return the symbols a driver of {@code driverVersion} must export, in declaration order} */
  static List<CuSymbol> requiredBy(int driverVersion) {
    List<CuSymbol> required = new ArrayList<>();
    for (CuSymbol symbol : values()) {
      if (symbol.usedWith(driverVersion)) {
        required.add(symbol);
      }
    }
    return required;
  }

  /** {@return the symbol bound for an SPI call on a driver of {@code driverVersion}} */
  static CuSymbol boundFor(DriverCall call, int driverVersion) {
    for (CuSymbol symbol : values()) {
      if (symbol.call == call && symbol.usedWith(driverVersion)) {
        return symbol;
      }
    }
    throw new IllegalArgumentException("no symbol is bound for " + call);
  }
}
