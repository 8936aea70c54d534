// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 the cuda-graph authors
package cuda.graph.spi;

import static org.apiguardian.api.API.Status.EXPERIMENTAL;

import org.apiguardian.api.API;

/**
 * The entry points of {@link CudaDriver}, each named by the exported CUDA symbol a native provider
 * binds for it. Failures, call logs and fault injection name calls with these values.
 *
 * @since 0.1.0
 */
@API(status = EXPERIMENTAL, since = "0.1.0")
public enum DriverCall {
  /** {@code cuInit}: initializes the driver. */
  INIT("cuInit"),
  /** {@code cuDriverGetVersion}: the CUDA version the driver supports. */
  DRIVER_GET_VERSION("cuDriverGetVersion"),
  /** {@code cuGetErrorName}: the {@code CUDA_ERROR_*} name of a status. */
  GET_ERROR_NAME("cuGetErrorName"),
  /** {@code cuGetErrorString}: the description of a status. */
  GET_ERROR_STRING("cuGetErrorString"),
  /** {@code cuDeviceGetCount}: the number of devices. */
  DEVICE_GET_COUNT("cuDeviceGetCount"),
  /** {@code cuDeviceGet}: the {@code CUdevice} of an ordinal. */
  DEVICE_GET("cuDeviceGet"),
  /** {@code cuDeviceGetName}: a device's name. */
  DEVICE_GET_NAME("cuDeviceGetName"),
  /** {@code cuDeviceGetAttribute}: one attribute of a device. */
  DEVICE_GET_ATTRIBUTE("cuDeviceGetAttribute"),
  /** {@code cuDeviceTotalMem_v2}: a device's memory size. */
  DEVICE_TOTAL_MEM("cuDeviceTotalMem_v2"),
  /** {@code cuDevicePrimaryCtxRetain}: retains a device's primary context. */
  DEVICE_PRIMARY_CTX_RETAIN("cuDevicePrimaryCtxRetain"),
  /** {@code cuDevicePrimaryCtxRelease_v2}: releases a device's primary context. */
  DEVICE_PRIMARY_CTX_RELEASE("cuDevicePrimaryCtxRelease_v2"),
  /** {@code cuCtxSetCurrent}: binds a context to the calling thread. */
  CTX_SET_CURRENT("cuCtxSetCurrent"),
  /** {@code cuCtxGetCurrent}: the calling thread's current context. */
  CTX_GET_CURRENT("cuCtxGetCurrent"),
  /** {@code cuDeviceGetGraphMemAttribute}: a device's graph memory, used or reserved. */
  DEVICE_GET_GRAPH_MEM_ATTRIBUTE("cuDeviceGetGraphMemAttribute"),
  /** {@code cuDeviceSetGraphMemAttribute}: resets a high-water mark of a device's graph memory. */
  DEVICE_SET_GRAPH_MEM_ATTRIBUTE("cuDeviceSetGraphMemAttribute"),
  /** {@code cuDeviceGraphMemTrim}: gives back graph memory no launch needs. */
  DEVICE_GRAPH_MEM_TRIM("cuDeviceGraphMemTrim"),
  /** {@code cuStreamCreate}: creates a stream. */
  STREAM_CREATE("cuStreamCreate"),
  /** {@code cuStreamDestroy_v2}: destroys a stream. */
  STREAM_DESTROY("cuStreamDestroy_v2"),
  /** {@code cuStreamSynchronize}: waits for a stream's work. */
  STREAM_SYNCHRONIZE("cuStreamSynchronize"),
  /** {@code cuStreamQuery}: whether a stream's work is done. */
  STREAM_QUERY("cuStreamQuery"),
  /** {@code cuStreamWaitEvent}: makes a stream wait for an event. */
  STREAM_WAIT_EVENT("cuStreamWaitEvent"),
  /** {@code cuLaunchHostFunc}: enqueues a host function on a stream. */
  LAUNCH_HOST_FUNC("cuLaunchHostFunc"),
  /** {@code cuStreamBeginCapture_v2}: begins capturing a stream. */
  STREAM_BEGIN_CAPTURE("cuStreamBeginCapture_v2"),
  /** {@code cuStreamEndCapture}: ends a capture and returns its graph. */
  STREAM_END_CAPTURE("cuStreamEndCapture"),
  /** {@code cuStreamIsCapturing}: a stream's capture status. */
  STREAM_IS_CAPTURING("cuStreamIsCapturing"),
  /** {@code cuStreamGetCaptureInfo_v3}: a stream's capture status, id, graph and dependencies. */
  STREAM_GET_CAPTURE_INFO("cuStreamGetCaptureInfo_v3"),
  /** {@code cuThreadExchangeStreamCaptureMode}: swaps the calling thread's capture mode. */
  THREAD_EXCHANGE_STREAM_CAPTURE_MODE("cuThreadExchangeStreamCaptureMode"),
  /** {@code cuStreamBeginCaptureToGraph}: begins capturing a stream into an existing graph. */
  STREAM_BEGIN_CAPTURE_TO_GRAPH("cuStreamBeginCaptureToGraph"),
  /** {@code cuStreamUpdateCaptureDependencies_v2}: replaces a capturing stream's dependencies. */
  STREAM_UPDATE_CAPTURE_DEPENDENCIES("cuStreamUpdateCaptureDependencies_v2"),
  /** {@code cuEventCreate}: creates an event. */
  EVENT_CREATE("cuEventCreate"),
  /** {@code cuEventDestroy_v2}: destroys an event. */
  EVENT_DESTROY("cuEventDestroy_v2"),
  /** {@code cuEventRecord}: records an event on a stream. */
  EVENT_RECORD("cuEventRecord"),
  /** {@code cuEventRecordWithFlags}: records an event on a stream, with flags. */
  EVENT_RECORD_WITH_FLAGS("cuEventRecordWithFlags"),
  /** {@code cuEventQuery}: whether an event's recorded work is done. */
  EVENT_QUERY("cuEventQuery"),
  /** {@code cuEventSynchronize}: waits for an event's recorded work. */
  EVENT_SYNCHRONIZE("cuEventSynchronize"),
  /** {@code cuEventElapsedTime_v2}: milliseconds between two events. */
  EVENT_ELAPSED_TIME("cuEventElapsedTime_v2"),
  /** {@code cuMemAlloc_v2}: allocates device memory. */
  MEM_ALLOC("cuMemAlloc_v2"),
  /** {@code cuMemFree_v2}: frees device memory. */
  MEM_FREE("cuMemFree_v2"),
  /** {@code cuMemAllocAsync}: allocates device memory in stream order. */
  MEM_ALLOC_ASYNC("cuMemAllocAsync"),
  /** {@code cuMemFreeAsync}: frees device memory in stream order. */
  MEM_FREE_ASYNC("cuMemFreeAsync"),
  /** {@code cuMemAllocHost_v2}: allocates page-locked host memory. */
  MEM_ALLOC_HOST("cuMemAllocHost_v2"),
  /** {@code cuMemFreeHost}: frees page-locked host memory, mapped or not. */
  MEM_FREE_HOST("cuMemFreeHost"),
  /** {@code cuMemHostAlloc}: allocates page-locked host memory with flags (mapped, portable). */
  MEM_HOST_ALLOC("cuMemHostAlloc"),
  /** {@code cuMemHostGetDevicePointer_v2}: the device address of mapped host memory. */
  MEM_HOST_GET_DEVICE_POINTER("cuMemHostGetDevicePointer_v2"),
  /** {@code cuMemGetInfo_v2}: free and total device memory. */
  MEM_GET_INFO("cuMemGetInfo_v2"),
  /** {@code cuMemcpyHtoD_v2}: copies host to device, synchronously. */
  MEMCPY_HTOD("cuMemcpyHtoD_v2"),
  /** {@code cuMemcpyDtoH_v2}: copies device to host, synchronously. */
  MEMCPY_DTOH("cuMemcpyDtoH_v2"),
  /** {@code cuMemcpyHtoDAsync_v2}: copies host to device in stream order. */
  MEMCPY_HTOD_ASYNC("cuMemcpyHtoDAsync_v2"),
  /** {@code cuMemcpyDtoHAsync_v2}: copies device to host in stream order. */
  MEMCPY_DTOH_ASYNC("cuMemcpyDtoHAsync_v2"),
  /** {@code cuMemcpyDtoDAsync_v2}: copies device to device in stream order. */
  MEMCPY_DTOD_ASYNC("cuMemcpyDtoDAsync_v2"),
  /** {@code cuMemsetD8Async}: fills device memory with bytes. */
  MEMSET_D8_ASYNC("cuMemsetD8Async"),
  /** {@code cuMemsetD16Async}: fills device memory with 16-bit words. */
  MEMSET_D16_ASYNC("cuMemsetD16Async"),
  /** {@code cuMemsetD32Async}: fills device memory with 32-bit words. */
  MEMSET_D32_ASYNC("cuMemsetD32Async"),
  /** {@code cuMemsetD2D32Async}: fills pitched 2D device memory with 32-bit words. */
  MEMSET_D2D32_ASYNC("cuMemsetD2D32Async"),
  /** {@code cuModuleLoadData}: loads a module image. */
  MODULE_LOAD_DATA("cuModuleLoadData"),
  /** {@code cuModuleUnload}: unloads a module. */
  MODULE_UNLOAD("cuModuleUnload"),
  /** {@code cuModuleGetFunction}: a module's kernel by name. */
  MODULE_GET_FUNCTION("cuModuleGetFunction"),
  /** {@code cuFuncGetParamInfo}: the offset and size of a kernel parameter. */
  FUNC_GET_PARAM_INFO("cuFuncGetParamInfo"),
  /**
   * {@code cuFuncGetAttribute}: reads an attribute of a kernel (its static shared memory).
   *
   * @since 0.2.0
   */
  FUNC_GET_ATTRIBUTE("cuFuncGetAttribute"),
  /**
   * {@code cuFuncSetAttribute}: sets an attribute of a kernel (its dynamic shared memory limit).
   */
  FUNC_SET_ATTRIBUTE("cuFuncSetAttribute"),
  /** {@code cuLaunchKernel}: launches a kernel. */
  LAUNCH_KERNEL("cuLaunchKernel"),
  /**
   * {@code cuLaunchKernelEx}: launches a kernel with launch attributes (here programmatic stream
   * serialization, for programmatic dependent launch).
   */
  LAUNCH_KERNEL_EX("cuLaunchKernelEx"),
  /** {@code cuGraphCreate}: creates an empty graph. */
  GRAPH_CREATE("cuGraphCreate"),
  /** {@code cuGraphDestroy}: destroys a graph. */
  GRAPH_DESTROY("cuGraphDestroy"),
  /** {@code cuGraphInstantiateWithFlags}: instantiates a graph as an exec. */
  GRAPH_INSTANTIATE("cuGraphInstantiateWithFlags"),
  /** {@code cuGraphUpload}: uploads an exec to a stream. */
  GRAPH_UPLOAD("cuGraphUpload"),
  /** {@code cuGraphLaunch}: launches an exec on a stream. */
  GRAPH_LAUNCH("cuGraphLaunch"),
  /** {@code cuGraphExecDestroy}: destroys an exec. */
  GRAPH_EXEC_DESTROY("cuGraphExecDestroy"),
  /** {@code cuGraphExecUpdate_v2}: updates an exec from a graph. */
  GRAPH_EXEC_UPDATE("cuGraphExecUpdate_v2"),
  /** {@code cuGraphGetNodes}: a graph's nodes. */
  GRAPH_GET_NODES("cuGraphGetNodes"),
  /** {@code cuGraphNodeGetType}: a graph node's type. */
  GRAPH_NODE_GET_TYPE("cuGraphNodeGetType"),
  /** {@code cuGraphDebugDotPrint}: writes a graph as Graphviz DOT. */
  GRAPH_DEBUG_DOT_PRINT("cuGraphDebugDotPrint"),
  /** {@code cuGraphExecKernelNodeSetParams_v2}: sets a kernel node's parameters in an exec. */
  GRAPH_EXEC_KERNEL_NODE_SET_PARAMS("cuGraphExecKernelNodeSetParams_v2"),
  /** {@code cuGraphExecMemcpyNodeSetParams}: sets a copy node's parameters in an exec. */
  GRAPH_EXEC_MEMCPY_NODE_SET_PARAMS("cuGraphExecMemcpyNodeSetParams"),
  /** {@code cuGraphExecMemsetNodeSetParams}: sets a fill node's parameters in an exec. */
  GRAPH_EXEC_MEMSET_NODE_SET_PARAMS("cuGraphExecMemsetNodeSetParams"),
  /** {@code cuGraphNodeSetEnabled}: enables or disables a node of an exec. */
  GRAPH_NODE_SET_ENABLED("cuGraphNodeSetEnabled"),
  /** {@code cuGraphNodeGetEnabled}: whether a node of an exec is enabled. */
  GRAPH_NODE_GET_ENABLED("cuGraphNodeGetEnabled"),
  /** {@code cuGraphConditionalHandleCreate}: creates a conditional node's condition handle. */
  GRAPH_CONDITIONAL_HANDLE_CREATE("cuGraphConditionalHandleCreate"),
  /** {@code cuGraphAddNode_v2}: adds a node (here: a conditional node) to a graph. */
  GRAPH_ADD_NODE("cuGraphAddNode_v2"),
  /** {@code cuGraphAddChildGraphNode}: adds a node that runs a clone of another graph. */
  GRAPH_ADD_CHILD_GRAPH_NODE("cuGraphAddChildGraphNode"),
  /**
   * {@code cuGraphExecChildGraphNodeSetParams}: sets a child-graph node's parameters in an exec.
   */
  GRAPH_EXEC_CHILD_GRAPH_NODE_SET_PARAMS("cuGraphExecChildGraphNodeSetParams");

  private final String symbol;

  DriverCall(String symbol) {
    this.symbol = symbol;
  }

  /** {@return the exported CUDA symbol, e.g. {@code cuStreamBeginCapture_v2}} */
  public String symbol() {
    return symbol;
  }
}
