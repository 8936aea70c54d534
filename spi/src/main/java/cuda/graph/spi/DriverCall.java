package cuda.graph.spi;

/**
 * The entry points of {@link CudaDriver}, each named by the exported CUDA symbol a native provider
 * binds for it. Failures, call logs and fault injection name calls with these values.
 */
public enum DriverCall {
  INIT("cuInit"),
  DRIVER_GET_VERSION("cuDriverGetVersion"),
  GET_ERROR_NAME("cuGetErrorName"),
  GET_ERROR_STRING("cuGetErrorString"),
  DEVICE_GET_COUNT("cuDeviceGetCount"),
  DEVICE_GET("cuDeviceGet"),
  DEVICE_GET_NAME("cuDeviceGetName"),
  DEVICE_GET_ATTRIBUTE("cuDeviceGetAttribute"),
  DEVICE_TOTAL_MEM("cuDeviceTotalMem_v2"),
  DEVICE_PRIMARY_CTX_RETAIN("cuDevicePrimaryCtxRetain"),
  DEVICE_PRIMARY_CTX_RELEASE("cuDevicePrimaryCtxRelease_v2"),
  CTX_SET_CURRENT("cuCtxSetCurrent"),
  CTX_GET_CURRENT("cuCtxGetCurrent"),
  STREAM_CREATE("cuStreamCreate"),
  STREAM_DESTROY("cuStreamDestroy_v2"),
  STREAM_SYNCHRONIZE("cuStreamSynchronize"),
  STREAM_QUERY("cuStreamQuery"),
  STREAM_WAIT_EVENT("cuStreamWaitEvent"),
  LAUNCH_HOST_FUNC("cuLaunchHostFunc"),
  STREAM_BEGIN_CAPTURE("cuStreamBeginCapture_v2"),
  STREAM_END_CAPTURE("cuStreamEndCapture"),
  STREAM_IS_CAPTURING("cuStreamIsCapturing"),
  STREAM_GET_CAPTURE_INFO("cuStreamGetCaptureInfo_v3"),
  THREAD_EXCHANGE_STREAM_CAPTURE_MODE("cuThreadExchangeStreamCaptureMode"),
  EVENT_CREATE("cuEventCreate"),
  EVENT_DESTROY("cuEventDestroy_v2"),
  EVENT_RECORD("cuEventRecord"),
  EVENT_RECORD_WITH_FLAGS("cuEventRecordWithFlags"),
  EVENT_QUERY("cuEventQuery"),
  EVENT_SYNCHRONIZE("cuEventSynchronize"),
  EVENT_ELAPSED_TIME("cuEventElapsedTime_v2"),
  MEM_ALLOC("cuMemAlloc_v2"),
  MEM_FREE("cuMemFree_v2"),
  MEM_ALLOC_ASYNC("cuMemAllocAsync"),
  MEM_FREE_ASYNC("cuMemFreeAsync"),
  MEM_ALLOC_HOST("cuMemAllocHost_v2"),
  MEM_FREE_HOST("cuMemFreeHost"),
  MEM_GET_INFO("cuMemGetInfo_v2"),
  MEMCPY_HTOD("cuMemcpyHtoD_v2"),
  MEMCPY_DTOH("cuMemcpyDtoH_v2"),
  MEMCPY_HTOD_ASYNC("cuMemcpyHtoDAsync_v2"),
  MEMCPY_DTOH_ASYNC("cuMemcpyDtoHAsync_v2"),
  MEMCPY_DTOD_ASYNC("cuMemcpyDtoDAsync_v2"),
  MEMSET_D8_ASYNC("cuMemsetD8Async"),
  MEMSET_D16_ASYNC("cuMemsetD16Async"),
  MEMSET_D32_ASYNC("cuMemsetD32Async"),
  MEMSET_D2D32_ASYNC("cuMemsetD2D32Async"),
  MODULE_LOAD_DATA("cuModuleLoadData"),
  MODULE_UNLOAD("cuModuleUnload"),
  MODULE_GET_FUNCTION("cuModuleGetFunction"),
  FUNC_GET_PARAM_INFO("cuFuncGetParamInfo"),
  LAUNCH_KERNEL("cuLaunchKernel"),
  GRAPH_CREATE("cuGraphCreate"),
  GRAPH_DESTROY("cuGraphDestroy"),
  GRAPH_INSTANTIATE("cuGraphInstantiateWithFlags"),
  GRAPH_UPLOAD("cuGraphUpload"),
  GRAPH_LAUNCH("cuGraphLaunch"),
  GRAPH_EXEC_DESTROY("cuGraphExecDestroy"),
  GRAPH_EXEC_UPDATE("cuGraphExecUpdate_v2"),
  GRAPH_GET_NODES("cuGraphGetNodes"),
  GRAPH_NODE_GET_TYPE("cuGraphNodeGetType"),
  GRAPH_DEBUG_DOT_PRINT("cuGraphDebugDotPrint");

  private final String symbol;

  DriverCall(String symbol) {
    this.symbol = symbol;
  }

  /** {@return the exported CUDA symbol, e.g. {@code cuStreamBeginCapture_v2}} */
  public String symbol() {
    return symbol;
  }
}
