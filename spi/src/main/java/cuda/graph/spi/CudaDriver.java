package cuda.graph.spi;

import java.lang.foreign.MemorySegment;
import java.nio.file.Path;
import java.util.List;
import java.util.Optional;
import org.jspecify.annotations.Nullable;

/**
 * The CUDA driver as a provider offers it: one method per driver entry point, in CUDA's terms.
 *
 * <p><b>Failures.</b> A call whose driver status is not {@code CUDA_SUCCESS} throws {@link
 * CudaDriverException} with that status; a call that returns normally succeeded. Statuses that are
 * answers rather than failures ({@code CUDA_ERROR_NOT_READY} from the query calls) are returned as
 * values. What each call does on each status is what the CUDA driver does, as measured and written
 * down in the project's driver specification.
 *
 * <p><b>Threads and contexts.</b> Implementations are thread-safe. As with the driver, calls that
 * create context-owned objects ({@link #streamCreate}, {@link #memAlloc}, {@link #eventCreate},
 * {@link #moduleLoadData}, ...) use the calling thread's current context, set with {@link
 * #ctxSetCurrent}; without one they fail with {@code CUDA_ERROR_INVALID_CONTEXT}.
 *
 * <p><b>Handles and memory.</b> Every handle a call returns is owned by the caller until passed to
 * its destroy call, exactly once. Using a handle after its destroy call is undefined behaviour.
 * Host memory passed to copies must be native (off-heap) memory that stays alive until the stream
 * has executed the copy; a heap segment fails with {@code CUDA_ERROR_INVALID_VALUE}.
 *
 * <p><b>Capture.</b> While a stream captures, asynchronous work issued to it is recorded into the
 * capture's graph instead of executed, and calls that conflict with capture fail and invalidate it
 * (see {@link CaptureMode}).
 */
public interface CudaDriver extends AutoCloseable {

  // ---- initialization, versions, errors

  /** {@code cuInit}: initializes the driver; flags must be 0. Idempotent. */
  void init(int flags);

  /** {@code cuDriverGetVersion}: {@code 1000 * major + 10 * minor}; works before {@link #init}. */
  int driverGetVersion();

  /**
   * {@code cuGetErrorName}: the {@code CUDA_ERROR_*} name of a status, empty for an unknown one.
   */
  Optional<String> getErrorName(int status);

  /** {@code cuGetErrorString}: the description of a status, empty for an unknown one. */
  Optional<String> getErrorString(int status);

  // ---- devices and contexts

  /** {@code cuDeviceGetCount}. */
  int deviceGetCount();

  /** {@code cuDeviceGet}: the {@code CUdevice} of an ordinal; INVALID_DEVICE when out of range. */
  int deviceGet(int ordinal);

  /** {@code cuDeviceGetName}. */
  String deviceGetName(int device);

  /**
   * {@code cuDeviceGetAttribute}: see {@link DeviceAttribute}; INVALID_VALUE for an unknown one.
   */
  int deviceGetAttribute(int attribute, int device);

  /** {@code cuDeviceTotalMem_v2}: the device's memory size in bytes. */
  long deviceTotalMem(int device);

  /**
   * {@code cuDevicePrimaryCtxRetain}: the device's primary context, reference-counted; not made
   * current.
   */
  CuContext devicePrimaryCtxRetain(int device);

  /**
   * {@code cuDevicePrimaryCtxRelease_v2}: drops one retain; at zero the context and all it owns is
   * destroyed.
   */
  void devicePrimaryCtxRelease(int device);

  /** {@code cuCtxSetCurrent}: binds a context to the calling thread (null unbinds). */
  void ctxSetCurrent(@Nullable CuContext context);

  /** {@code cuCtxGetCurrent}: the calling thread's current context, or null. */
  @Nullable CuContext ctxGetCurrent();

  // ---- streams

  /** {@code cuStreamCreate}: flags are {@link StreamFlags}. */
  CuStream streamCreate(int flags);

  /** {@code cuStreamDestroy_v2}: returns at once; queued work still completes. */
  void streamDestroy(CuStream stream);

  /** {@code cuStreamSynchronize}: waits until all work queued on the stream is done. */
  void streamSynchronize(CuStream stream);

  /** {@code cuStreamQuery}: true when all queued work is done, false for CUDA_ERROR_NOT_READY. */
  boolean streamQuery(CuStream stream);

  /** {@code cuStreamWaitEvent}: later work on the stream waits for the event's recorded work. */
  void streamWaitEvent(CuStream stream, CuEvent event, int flags);

  /** {@code cuLaunchHostFunc}: runs {@code function} on a driver thread in stream order. */
  void launchHostFunc(CuStream stream, HostFunction function);

  // ---- stream capture

  /** {@code cuStreamBeginCapture_v2}: starts recording the stream's work into a new graph. */
  void streamBeginCapture(CuStream stream, CaptureMode mode);

  /**
   * {@code cuStreamEndCapture}: ends the capture begun on this stream and returns its graph, owned
   * by the caller. Returns null only if the driver reports success without a graph.
   */
  @Nullable CuGraph streamEndCapture(CuStream stream);

  /** {@code cuStreamIsCapturing}. */
  CaptureStatus streamIsCapturing(CuStream stream);

  /** {@code cuStreamGetCaptureInfo_v3}. */
  CaptureInfo streamGetCaptureInfo(CuStream stream);

  /**
   * {@code cuThreadExchangeStreamCaptureMode}: sets the calling thread's mode, returns the previous
   * one.
   */
  CaptureMode threadExchangeStreamCaptureMode(CaptureMode mode);

  // ---- events

  /** {@code cuEventCreate}: flags are {@link EventFlags}. */
  CuEvent eventCreate(int flags);

  /** {@code cuEventDestroy_v2}: returns at once, even while recorded work is pending. */
  void eventDestroy(CuEvent event);

  /** {@code cuEventRecord}: the event now stands for the work queued on the stream so far. */
  void eventRecord(CuEvent event, CuStream stream);

  /**
   * {@code cuEventRecordWithFlags}: as {@link #eventRecord}; flags are {@link
   * EventFlags#RECORD_EXTERNAL} or 0.
   */
  void eventRecordWithFlags(CuEvent event, CuStream stream, int flags);

  /** {@code cuEventQuery}: true when the recorded work is done, false for CUDA_ERROR_NOT_READY. */
  boolean eventQuery(CuEvent event);

  /** {@code cuEventSynchronize}: waits until the recorded work is done. */
  void eventSynchronize(CuEvent event);

  /** {@code cuEventElapsedTime_v2}: milliseconds between two completed, timed events. */
  float eventElapsedTime(CuEvent start, CuEvent end);

  // ---- memory

  /** {@code cuMemAlloc_v2}: device memory, at least 256-byte aligned. */
  long memAlloc(long bytes);

  /**
   * {@code cuMemFree_v2}: frees device memory at once, without waiting for queued work (0 is a
   * no-op).
   */
  void memFree(long devicePointer);

  /** {@code cuMemAllocAsync}: stream-ordered allocation from the device's default pool. */
  long memAllocAsync(long bytes, CuStream stream);

  /** {@code cuMemFreeAsync}: stream-ordered free. */
  void memFreeAsync(long devicePointer, CuStream stream);

  /**
   * {@code cuMemAllocHost_v2}: page-locked host memory of exactly {@code bytes}, usable by
   * asynchronous copies.
   */
  MemorySegment memAllocHost(long bytes);

  /** {@code cuMemFreeHost}: frees memory from {@link #memAllocHost}. */
  void memFreeHost(MemorySegment hostMemory);

  /** {@code cuMemGetInfo_v2}: free and total memory of the current context's device. */
  MemoryInfo memGetInfo();

  /** {@code cuMemcpyHtoD_v2}: synchronous copy through the legacy stream. */
  void memcpyHtoD(long dst, MemorySegment src, long bytes);

  /** {@code cuMemcpyDtoH_v2}: synchronous copy through the legacy stream. */
  void memcpyDtoH(MemorySegment dst, long src, long bytes);

  /** {@code cuMemcpyHtoDAsync_v2}: reads {@code src} when the stream executes the copy. */
  void memcpyHtoDAsync(long dst, MemorySegment src, long bytes, CuStream stream);

  /** {@code cuMemcpyDtoHAsync_v2}: writes {@code dst} when the stream executes the copy. */
  void memcpyDtoHAsync(MemorySegment dst, long src, long bytes, CuStream stream);

  /** {@code cuMemcpyDtoDAsync_v2}. */
  void memcpyDtoDAsync(long dst, long src, long bytes, CuStream stream);

  /** {@code cuMemsetD8Async}: sets {@code count} bytes. */
  void memsetD8Async(long dst, byte value, long count, CuStream stream);

  /**
   * {@code cuMemsetD16Async}: sets {@code count} 16-bit words; {@code dst} must be 2-byte aligned.
   */
  void memsetD16Async(long dst, short value, long count, CuStream stream);

  /**
   * {@code cuMemsetD32Async}: sets {@code count} 32-bit words; {@code dst} must be 4-byte aligned.
   */
  void memsetD32Async(long dst, int value, long count, CuStream stream);

  /**
   * {@code cuMemsetD2D32Async}: sets {@code width} 32-bit words in each of {@code height} rows that
   * start {@code pitch} bytes apart; {@code dst} and {@code pitch} must be 4-byte aligned.
   */
  void memsetD2D32Async(long dst, long pitch, int value, long width, long height, CuStream stream);

  // ---- modules and kernels

  /** {@return NVRTC, when this provider can compile CUDA C++ at run time; empty otherwise} */
  default Optional<RuntimeCompiler> runtimeCompiler() {
    return Optional.empty();
  }

  /** {@code cuModuleLoadData}: loads an image into the current context. */
  CuModule moduleLoadData(ModuleImage image);

  /** {@code cuModuleUnload}: unloads a module; its functions become invalid. */
  void moduleUnload(CuModule module);

  /** {@code cuModuleGetFunction}: CUDA_ERROR_NOT_FOUND when the module has no such kernel. */
  CuFunction moduleGetFunction(CuModule module, String name);

  /**
   * {@code cuFuncGetParamInfo} (CUDA 12.4): the offset and size of parameter {@code index} of a
   * kernel, as its image declares it. For an index past the last parameter the driver returns
   * {@code CUDA_ERROR_INVALID_VALUE}, which here is an answer, not a failure: the result is empty
   * (as it is for a negative index), so a caller counts a kernel's parameters by asking from 0
   * until the answer is empty.
   *
   * <p>A driver that cannot tell fails with {@code CUDA_ERROR_NOT_SUPPORTED}: a CUDA driver older
   * than 12.4, which lacks the entry point, or a provider that cannot read the parameters from the
   * image the kernel was loaded from (the simulator and a cubin, say). Callers that use the answer
   * for a check skip the check then.
   *
   * @param function a kernel of a loaded module
   * @param index the parameter's position, from 0
   * @return the parameter's offset and size, or empty when the kernel has no parameter {@code
   *     index}
   * @throws CudaDriverException {@code CUDA_ERROR_NOT_SUPPORTED} where the driver cannot tell
   */
  Optional<ParamInfo> funcGetParamInfo(CuFunction function, int index);

  /**
   * {@code cuLaunchKernel} with {@code kernelParams = arguments.pointerArray()} and no {@code
   * extra}: the driver copies the argument values during the call.
   */
  void launchKernel(
      CuFunction function,
      int gridX,
      int gridY,
      int gridZ,
      int blockX,
      int blockY,
      int blockZ,
      int sharedMemBytes,
      CuStream stream,
      KernelArguments arguments);

  // ---- graphs

  /** {@code cuGraphCreate}: an empty graph; flags must be 0. */
  CuGraph graphCreate(int flags);

  /** {@code cuGraphDestroy}: execs instantiated from the graph stay valid. */
  void graphDestroy(CuGraph graph);

  /** {@code cuGraphInstantiateWithFlags}: flags are {@link GraphInstantiateFlags}. */
  CuGraphExec graphInstantiate(CuGraph graph, long flags);

  /** {@code cuGraphUpload}: pre-stages the exec on the stream, in stream order. */
  void graphUpload(CuGraphExec exec, CuStream stream);

  /**
   * {@code cuGraphLaunch}: ordered after earlier work on the stream and earlier launches of the
   * exec.
   */
  void graphLaunch(CuGraphExec exec, CuStream stream);

  /** {@code cuGraphExecDestroy}: returns at once; a running launch completes first. */
  void graphExecDestroy(CuGraphExec exec);

  /**
   * {@code cuGraphExecUpdate_v2}: gives the exec the parameters of a topologically identical graph,
   * for launches issued afterwards.
   *
   * @throws GraphExecUpdateException when the graphs differ in a way an update cannot express
   */
  void graphExecUpdate(CuGraphExec exec, CuGraph graph);

  /** {@code cuGraphGetNodes}: the graph's nodes, in creation order. */
  List<CuGraphNode> graphGetNodes(CuGraph graph);

  /** {@code cuGraphNodeGetType}. */
  GraphNodeType graphNodeGetType(CuGraphNode node);

  /** {@code cuGraphDebugDotPrint}: writes the graph in Graphviz DOT to {@code path}. */
  void graphDebugDotPrint(CuGraph graph, Path path, int flags);

  /**
   * Releases what the provider itself holds (threads, libraries). Driver objects the caller still
   * owns are not destroyed. Idempotent.
   */
  @Override
  void close();
}
