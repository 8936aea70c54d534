package cuda.graph.driver.internal;

import static java.lang.foreign.ValueLayout.JAVA_FLOAT;
import static java.lang.foreign.ValueLayout.JAVA_INT;
import static java.lang.foreign.ValueLayout.JAVA_LONG;

import cuda.graph.spi.CaptureInfo;
import cuda.graph.spi.CaptureMode;
import cuda.graph.spi.CaptureStatus;
import cuda.graph.spi.CuContext;
import cuda.graph.spi.CuEvent;
import cuda.graph.spi.CuFunction;
import cuda.graph.spi.CuGraph;
import cuda.graph.spi.CuGraphExec;
import cuda.graph.spi.CuGraphNode;
import cuda.graph.spi.CuModule;
import cuda.graph.spi.CuResult;
import cuda.graph.spi.CuStream;
import cuda.graph.spi.CudaDriver;
import cuda.graph.spi.CudaDriverException;
import cuda.graph.spi.DriverCall;
import cuda.graph.spi.GraphExecUpdateException;
import cuda.graph.spi.GraphNodeType;
import cuda.graph.spi.HostFunction;
import cuda.graph.spi.KernelArguments;
import cuda.graph.spi.MemoryInfo;
import cuda.graph.spi.ModuleImage;
import cuda.graph.spi.RuntimeCompiler;
import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.nio.file.FileSystems;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.Optional;
import java.util.concurrent.atomic.AtomicBoolean;
import org.jspecify.annotations.Nullable;

/**
 * {@link CudaDriver} over the real driver: each method is one {@code libcuda} call through {@link
 * Cu}, with its status checked by {@link Errors}.
 *
 * <p><b>Allocation.</b> The hot paths ({@link #launchKernel}, {@link #graphLaunch}, {@link
 * #streamSynchronize}, {@link #streamQuery}, {@link #eventRecord}, {@link #eventQuery} and the
 * asynchronous copies and memsets) allocate nothing: handles travel as {@code long}s, host buffers
 * and kernel arguments as the caller's own native segments. Calls with out-parameters use the
 * thread's {@link Scratch}; only calls that must pass variable-sized input (a module image, a
 * kernel name, a file path, a node array) take a confined arena for the duration of the call.
 *
 * <p><b>Arguments</b> that the driver would read through a raw host address are checked before the
 * call ({@link HostSegments}); everything else is the driver's to judge, so a bad handle fails
 * exactly as it does in C.
 *
 * <p><b>Contexts.</b> Nothing here binds a context or synchronizes one: {@code cuCtxSynchronize} is
 * never called, since a context-wide sync breaks other threads' stream captures. Callers bind with
 * {@link #ctxSetCurrent}.
 */
final class FfmCudaDriver implements CudaDriver {

  /** {@code CU_STREAM_CAPTURE_STATUS_ACTIVE}. */
  private static final int CAPTURE_ACTIVE = 1;

  private final AtomicBoolean closed = new AtomicBoolean();

  /** Makes a driver view; touches no native code, so argument checks are testable without a GPU. */
  FfmCudaDriver() {}

  // ---- initialization, versions, errors

  @Override
  public void init(int flags) {
    Errors.check(Cu.cuInit(flags), DriverCall.INIT);
  }

  @Override
  public int driverGetVersion() {
    MemorySegment out = Scratch.get().slot(0);
    Errors.check(Cu.cuDriverGetVersion(out), DriverCall.DRIVER_GET_VERSION);
    return out.get(JAVA_INT, 0);
  }

  @Override
  public Optional<String> getErrorName(int status) {
    return Errors.driverName(status);
  }

  @Override
  public Optional<String> getErrorString(int status) {
    return Errors.driverString(status);
  }

  // ---- devices and contexts

  @Override
  public int deviceGetCount() {
    MemorySegment out = Scratch.get().slot(0);
    Errors.check(Cu.cuDeviceGetCount(out), DriverCall.DEVICE_GET_COUNT);
    return out.get(JAVA_INT, 0);
  }

  @Override
  public int deviceGet(int ordinal) {
    MemorySegment out = Scratch.get().slot(0);
    Errors.check(Cu.cuDeviceGet(out, ordinal), DriverCall.DEVICE_GET);
    return out.get(JAVA_INT, 0);
  }

  @Override
  public String deviceGetName(int device) {
    MemorySegment text = Scratch.get().text();
    Errors.check(
        Cu.cuDeviceGetName(text, (int) text.byteSize(), device), DriverCall.DEVICE_GET_NAME);
    return text.getString(0);
  }

  @Override
  public int deviceGetAttribute(int attribute, int device) {
    MemorySegment out = Scratch.get().slot(0);
    Errors.check(Cu.cuDeviceGetAttribute(out, attribute, device), DriverCall.DEVICE_GET_ATTRIBUTE);
    return out.get(JAVA_INT, 0);
  }

  @Override
  public long deviceTotalMem(int device) {
    MemorySegment out = Scratch.get().slot(0);
    Errors.check(Cu.cuDeviceTotalMem_v2(out, device), DriverCall.DEVICE_TOTAL_MEM);
    return out.get(JAVA_LONG, 0);
  }

  @Override
  public CuContext devicePrimaryCtxRetain(int device) {
    MemorySegment out = Scratch.get().slot(0);
    Errors.check(Cu.cuDevicePrimaryCtxRetain(out, device), DriverCall.DEVICE_PRIMARY_CTX_RETAIN);
    return new CuContext(out.get(JAVA_LONG, 0));
  }

  @Override
  public void devicePrimaryCtxRelease(int device) {
    Errors.check(Cu.cuDevicePrimaryCtxRelease_v2(device), DriverCall.DEVICE_PRIMARY_CTX_RELEASE);
  }

  @Override
  public void ctxSetCurrent(@Nullable CuContext context) {
    Errors.check(
        Cu.cuCtxSetCurrent(context == null ? 0 : context.address()), DriverCall.CTX_SET_CURRENT);
  }

  @Override
  public @Nullable CuContext ctxGetCurrent() {
    MemorySegment out = Scratch.get().slot(0);
    Errors.check(Cu.cuCtxGetCurrent(out), DriverCall.CTX_GET_CURRENT);
    long context = out.get(JAVA_LONG, 0);
    return context == 0 ? null : new CuContext(context);
  }

  // ---- streams

  @Override
  public CuStream streamCreate(int flags) {
    MemorySegment out = Scratch.get().slot(0);
    Errors.check(Cu.cuStreamCreate(out, flags), DriverCall.STREAM_CREATE);
    return new CuStream(out.get(JAVA_LONG, 0));
  }

  @Override
  public void streamDestroy(CuStream stream) {
    Errors.check(Cu.cuStreamDestroy_v2(stream.address()), DriverCall.STREAM_DESTROY);
  }

  @Override
  public void streamSynchronize(CuStream stream) {
    Errors.check(Cu.cuStreamSynchronize(stream.address()), DriverCall.STREAM_SYNCHRONIZE);
  }

  @Override
  public boolean streamQuery(CuStream stream) {
    int status = Cu.cuStreamQuery(stream.address());
    if (status == CuResult.NOT_READY) {
      return false;
    }
    Errors.check(status, DriverCall.STREAM_QUERY);
    return true;
  }

  @Override
  public void streamWaitEvent(CuStream stream, CuEvent event, int flags) {
    Errors.check(
        Cu.cuStreamWaitEvent(stream.address(), event.address(), flags),
        DriverCall.STREAM_WAIT_EVENT);
  }

  /**
   * {@inheritDoc}
   *
   * <p>When the stream is capturing, the function becomes a host node that runs once per launch of
   * the graph, so it stays registered until this driver is closed; otherwise it is forgotten once
   * it ran.
   */
  @Override
  public void launchHostFunc(CuStream stream, HostFunction function) {
    Objects.requireNonNull(function, "function");
    long id = HostFunctions.register(function, this, isCapturing(stream));
    int status = Cu.cuLaunchHostFunc(stream.address(), HostFunctions.stub(), id);
    if (status != CuResult.SUCCESS) {
      HostFunctions.unregister(id);
      throw Errors.failure(status, DriverCall.LAUNCH_HOST_FUNC, null);
    }
  }

  /**
   * Whether work issued to {@code stream} now is captured. A failing query (the legacy stream while
   * a blocking stream captures) counts as not capturing: the launch that follows then fails the
   * same way, and its registration is removed.
   */
  private static boolean isCapturing(CuStream stream) {
    MemorySegment out = Scratch.get().zeroedSlot(0);
    return Cu.cuStreamIsCapturing(stream.address(), out) == CuResult.SUCCESS
        && out.get(JAVA_INT, 0) != 0;
  }

  // ---- stream capture

  @Override
  public void streamBeginCapture(CuStream stream, CaptureMode mode) {
    Errors.check(
        Cu.cuStreamBeginCapture_v2(stream.address(), mode.code()), DriverCall.STREAM_BEGIN_CAPTURE);
  }

  @Override
  public @Nullable CuGraph streamEndCapture(CuStream stream) {
    MemorySegment out = Scratch.get().zeroedSlot(0);
    Errors.check(Cu.cuStreamEndCapture(stream.address(), out), DriverCall.STREAM_END_CAPTURE);
    long graph = out.get(JAVA_LONG, 0);
    return graph == 0 ? null : new CuGraph(graph);
  }

  @Override
  public CaptureStatus streamIsCapturing(CuStream stream) {
    MemorySegment out = Scratch.get().zeroedSlot(0);
    Errors.check(Cu.cuStreamIsCapturing(stream.address(), out), DriverCall.STREAM_IS_CAPTURING);
    return captureStatus(out.get(JAVA_INT, 0));
  }

  /**
   * {@inheritDoc}
   *
   * <p>An edge-data pointer is always passed: {@code _v3} answers {@code CUDA_ERROR_LOSSY_QUERY}
   * when it is NULL and an edge carries non-default data. The edge data itself is not reported.
   */
  @Override
  public CaptureInfo streamGetCaptureInfo(CuStream stream) {
    Scratch scratch = Scratch.get();
    // The driver writes the outputs other than the status only for an ACTIVE capture.
    MemorySegment status = scratch.zeroedSlot(0);
    MemorySegment id = scratch.slot(1);
    MemorySegment graph = scratch.slot(2);
    MemorySegment dependencies = scratch.slot(3);
    MemorySegment edgeData = scratch.slot(4);
    MemorySegment count = scratch.slot(5);
    int result =
        Cu.cuStreamGetCaptureInfo(
            stream.address(), status, id, graph, dependencies, edgeData, count);
    if (result != CuResult.SUCCESS) {
      CuSymbol bound = Cu.captureInfoSymbol();
      throw Errors.failure(
          result,
          DriverCall.STREAM_GET_CAPTURE_INFO,
          bound.symbol().equals(DriverCall.STREAM_GET_CAPTURE_INFO.symbol())
              ? null
              : "bound as " + bound.symbol() + " on this driver");
    }
    int code = status.get(JAVA_INT, 0);
    if (code != CAPTURE_ACTIVE) {
      return new CaptureInfo(captureStatus(code), 0, null, List.of());
    }
    long n = count.get(JAVA_LONG, 0);
    long array = dependencies.get(JAVA_LONG, 0);
    List<CuGraphNode> nodes = new ArrayList<>((int) n);
    if (n > 0 && array != 0) {
      // A driver-owned array, valid until the next call on this stream: copy it out now.
      MemorySegment view = Ffm.view(array, n * Long.BYTES);
      for (long i = 0; i < n; i++) {
        nodes.add(new CuGraphNode(view.getAtIndex(JAVA_LONG, i)));
      }
    }
    long graphHandle = graph.get(JAVA_LONG, 0);
    return new CaptureInfo(
        CaptureStatus.ACTIVE,
        id.get(JAVA_LONG, 0),
        graphHandle == 0 ? null : new CuGraph(graphHandle),
        nodes);
  }

  @Override
  public CaptureMode threadExchangeStreamCaptureMode(CaptureMode mode) {
    // Never NULL: the driver dereferences this pointer without checking and would crash.
    MemorySegment inOut = Scratch.get().slot(0);
    inOut.set(JAVA_INT, 0, mode.code());
    Errors.check(
        Cu.cuThreadExchangeStreamCaptureMode(inOut),
        DriverCall.THREAD_EXCHANGE_STREAM_CAPTURE_MODE);
    return CaptureMode.ofCode(inOut.get(JAVA_INT, 0));
  }

  private static CaptureStatus captureStatus(int code) {
    return switch (code) {
      case 0 -> CaptureStatus.NONE;
      case 1 -> CaptureStatus.ACTIVE;
      case 2 -> CaptureStatus.INVALIDATED;
      default ->
          throw new IllegalStateException("the driver reported CUstreamCaptureStatus " + code);
    };
  }

  // ---- events

  @Override
  public CuEvent eventCreate(int flags) {
    MemorySegment out = Scratch.get().slot(0);
    Errors.check(Cu.cuEventCreate(out, flags), DriverCall.EVENT_CREATE);
    return new CuEvent(out.get(JAVA_LONG, 0));
  }

  @Override
  public void eventDestroy(CuEvent event) {
    Errors.check(Cu.cuEventDestroy_v2(event.address()), DriverCall.EVENT_DESTROY);
  }

  @Override
  public void eventRecord(CuEvent event, CuStream stream) {
    Errors.check(Cu.cuEventRecord(event.address(), stream.address()), DriverCall.EVENT_RECORD);
  }

  @Override
  public void eventRecordWithFlags(CuEvent event, CuStream stream, int flags) {
    Errors.check(
        Cu.cuEventRecordWithFlags(event.address(), stream.address(), flags),
        DriverCall.EVENT_RECORD_WITH_FLAGS);
  }

  @Override
  public boolean eventQuery(CuEvent event) {
    int status = Cu.cuEventQuery(event.address());
    if (status == CuResult.NOT_READY) {
      return false;
    }
    Errors.check(status, DriverCall.EVENT_QUERY);
    return true;
  }

  @Override
  public void eventSynchronize(CuEvent event) {
    Errors.check(Cu.cuEventSynchronize(event.address()), DriverCall.EVENT_SYNCHRONIZE);
  }

  @Override
  public float eventElapsedTime(CuEvent start, CuEvent end) {
    MemorySegment out = Scratch.get().slot(0);
    int status = Cu.cuEventElapsedTimeBound(out, start.address(), end.address());
    if (status != CuResult.SUCCESS) {
      CuSymbol bound = Cu.elapsedTimeSymbol();
      throw Errors.failure(
          status,
          DriverCall.EVENT_ELAPSED_TIME,
          bound.symbol().equals(DriverCall.EVENT_ELAPSED_TIME.symbol())
              ? null
              : "bound as " + bound.symbol() + " on this driver");
    }
    return out.get(JAVA_FLOAT, 0);
  }

  // ---- memory

  @Override
  public long memAlloc(long bytes) {
    MemorySegment out = Scratch.get().slot(0);
    Errors.check(Cu.cuMemAlloc_v2(out, bytes), DriverCall.MEM_ALLOC);
    return out.get(JAVA_LONG, 0);
  }

  @Override
  public void memFree(long devicePointer) {
    Errors.check(Cu.cuMemFree_v2(devicePointer), DriverCall.MEM_FREE);
  }

  @Override
  public long memAllocAsync(long bytes, CuStream stream) {
    MemorySegment out = Scratch.get().slot(0);
    Errors.check(Cu.cuMemAllocAsync(out, bytes, stream.address()), DriverCall.MEM_ALLOC_ASYNC);
    return out.get(JAVA_LONG, 0);
  }

  @Override
  public void memFreeAsync(long devicePointer, CuStream stream) {
    Errors.check(Cu.cuMemFreeAsync(devicePointer, stream.address()), DriverCall.MEM_FREE_ASYNC);
  }

  /**
   * {@inheritDoc}
   *
   * <p>The segment has the global scope: the memory lives until {@link #memFreeHost}, which the
   * caller must not forget and after which the segment must not be touched.
   */
  @Override
  public MemorySegment memAllocHost(long bytes) {
    MemorySegment out = Scratch.get().slot(0);
    Errors.check(Cu.cuMemAllocHost_v2(out, bytes), DriverCall.MEM_ALLOC_HOST);
    return Ffm.view(out.get(JAVA_LONG, 0), bytes);
  }

  @Override
  public void memFreeHost(MemorySegment hostMemory) {
    HostSegments.requireNative(hostMemory, DriverCall.MEM_FREE_HOST);
    Errors.check(Cu.cuMemFreeHost(hostMemory.address()), DriverCall.MEM_FREE_HOST);
  }

  @Override
  public MemoryInfo memGetInfo() {
    Scratch scratch = Scratch.get();
    MemorySegment free = scratch.slot(0);
    MemorySegment total = scratch.slot(1);
    Errors.check(Cu.cuMemGetInfo_v2(free, total), DriverCall.MEM_GET_INFO);
    return new MemoryInfo(free.get(JAVA_LONG, 0), total.get(JAVA_LONG, 0));
  }

  @Override
  public void memcpyHtoD(long dst, MemorySegment src, long bytes) {
    HostSegments.requireNative(src, bytes, DriverCall.MEMCPY_HTOD);
    Errors.check(Cu.cuMemcpyHtoD_v2(dst, src, bytes), DriverCall.MEMCPY_HTOD);
  }

  @Override
  public void memcpyDtoH(MemorySegment dst, long src, long bytes) {
    HostSegments.requireNative(dst, bytes, DriverCall.MEMCPY_DTOH);
    Errors.check(Cu.cuMemcpyDtoH_v2(dst, src, bytes), DriverCall.MEMCPY_DTOH);
  }

  @Override
  public void memcpyHtoDAsync(long dst, MemorySegment src, long bytes, CuStream stream) {
    HostSegments.requireNative(src, bytes, DriverCall.MEMCPY_HTOD_ASYNC);
    Errors.check(
        Cu.cuMemcpyHtoDAsync_v2(dst, src, bytes, stream.address()), DriverCall.MEMCPY_HTOD_ASYNC);
  }

  @Override
  public void memcpyDtoHAsync(MemorySegment dst, long src, long bytes, CuStream stream) {
    HostSegments.requireNative(dst, bytes, DriverCall.MEMCPY_DTOH_ASYNC);
    Errors.check(
        Cu.cuMemcpyDtoHAsync_v2(dst, src, bytes, stream.address()), DriverCall.MEMCPY_DTOH_ASYNC);
  }

  @Override
  public void memcpyDtoDAsync(long dst, long src, long bytes, CuStream stream) {
    Errors.check(
        Cu.cuMemcpyDtoDAsync_v2(dst, src, bytes, stream.address()), DriverCall.MEMCPY_DTOD_ASYNC);
  }

  @Override
  public void memsetD8Async(long dst, byte value, long count, CuStream stream) {
    Errors.check(
        Cu.cuMemsetD8Async(dst, value, count, stream.address()), DriverCall.MEMSET_D8_ASYNC);
  }

  @Override
  public void memsetD16Async(long dst, short value, long count, CuStream stream) {
    Errors.check(
        Cu.cuMemsetD16Async(dst, value, count, stream.address()), DriverCall.MEMSET_D16_ASYNC);
  }

  @Override
  public void memsetD32Async(long dst, int value, long count, CuStream stream) {
    Errors.check(
        Cu.cuMemsetD32Async(dst, value, count, stream.address()), DriverCall.MEMSET_D32_ASYNC);
  }

  @Override
  public void memsetD2D32Async(long dst, long pitch, int value, long width, long height, CuStream stream) {
    Errors.check(
        Cu.cuMemsetD2D32Async(dst, pitch, value, width, height, stream.address()),
        DriverCall.MEMSET_D2D32_ASYNC);
  }

  // ---- modules and kernels

  /** {@inheritDoc} NVRTC is searched for once per process; see {@link NvrtcLibrary}. */
  @Override
  public Optional<RuntimeCompiler> runtimeCompiler() {
    return NvrtcCompiler.find();
  }

  /**
   * {@inheritDoc}
   *
   * <p>Loads through {@code cuModuleLoadDataEx} with an 8 KiB JIT error log, so a PTX that fails to
   * compile ({@code CUDA_ERROR_INVALID_PTX}, {@code CUDA_ERROR_UNSUPPORTED_PTX_VERSION}) fails with
   * the JIT's own explanation as the exception's detail. The image's Java kernels are ignored.
   */
  @Override
  public CuModule moduleLoadData(ModuleImage image) {
    try (Arena arena = Arena.ofConfined()) {
      MemorySegment bytes = ModuleImages.nativeImage(arena, image);
      ModuleImages.ErrorLog errorLog = ModuleImages.ErrorLog.allocate(arena);
      MemorySegment out = Scratch.get().slot(0);
      int status =
          Cu.cuModuleLoadDataEx(
              out, bytes, ModuleImages.ErrorLog.COUNT, errorLog.options(), errorLog.values());
      if (status != CuResult.SUCCESS) {
        throw Errors.failure(
            status,
            DriverCall.MODULE_LOAD_DATA,
            ModuleImages.failureDetail(status, image.format(), errorLog.log()));
      }
      return new CuModule(out.get(JAVA_LONG, 0));
    }
  }

  @Override
  public void moduleUnload(CuModule module) {
    Errors.check(Cu.cuModuleUnload(module.address()), DriverCall.MODULE_UNLOAD);
  }

  @Override
  public CuFunction moduleGetFunction(CuModule module, String name) {
    try (Arena arena = Arena.ofConfined()) {
      MemorySegment cName = arena.allocateFrom(name);
      MemorySegment out = Scratch.get().slot(0);
      int status = Cu.cuModuleGetFunction(out, module.address(), cName);
      if (status != CuResult.SUCCESS) {
        throw Errors.failure(status, DriverCall.MODULE_GET_FUNCTION, "kernel \"" + name + "\"");
      }
      return new CuFunction(out.get(JAVA_LONG, 0));
    }
  }

  @Override
  public void launchKernel(
      CuFunction function,
      int gridX,
      int gridY,
      int gridZ,
      int blockX,
      int blockY,
      int blockZ,
      int sharedMemBytes,
      CuStream stream,
      KernelArguments arguments) {
    int status =
        Cu.cuLaunchKernel(
            function.address(),
            gridX,
            gridY,
            gridZ,
            blockX,
            blockY,
            blockZ,
            sharedMemBytes,
            stream.address(),
            arguments.pointerArray(),
            MemorySegment.NULL);
    Errors.check(status, DriverCall.LAUNCH_KERNEL);
  }

  // ---- graphs

  @Override
  public CuGraph graphCreate(int flags) {
    MemorySegment out = Scratch.get().slot(0);
    Errors.check(Cu.cuGraphCreate(out, flags), DriverCall.GRAPH_CREATE);
    return new CuGraph(out.get(JAVA_LONG, 0));
  }

  @Override
  public void graphDestroy(CuGraph graph) {
    Errors.check(Cu.cuGraphDestroy(graph.address()), DriverCall.GRAPH_DESTROY);
  }

  @Override
  public CuGraphExec graphInstantiate(CuGraph graph, long flags) {
    MemorySegment out = Scratch.get().slot(0);
    Errors.check(
        Cu.cuGraphInstantiateWithFlags(out, graph.address(), flags), DriverCall.GRAPH_INSTANTIATE);
    return new CuGraphExec(out.get(JAVA_LONG, 0));
  }

  @Override
  public void graphUpload(CuGraphExec exec, CuStream stream) {
    Errors.check(Cu.cuGraphUpload(exec.address(), stream.address()), DriverCall.GRAPH_UPLOAD);
  }

  @Override
  public void graphLaunch(CuGraphExec exec, CuStream stream) {
    Errors.check(Cu.cuGraphLaunch(exec.address(), stream.address()), DriverCall.GRAPH_LAUNCH);
  }

  @Override
  public void graphExecDestroy(CuGraphExec exec) {
    Errors.check(Cu.cuGraphExecDestroy(exec.address()), DriverCall.GRAPH_EXEC_DESTROY);
  }

  @Override
  public void graphExecUpdate(CuGraphExec exec, CuGraph graph) {
    // CUgraphExecUpdateResultInfo, 24 bytes: int result @0, CUgraphNode errorNode @8,
    // CUgraphNode errorFromNode @16. Slot 0 spans the whole slot area, so it holds the struct.
    MemorySegment info = Scratch.get().zeroedSlot(0);
    int status = Cu.cuGraphExecUpdate_v2(exec.address(), graph.address(), info);
    if (status == CuResult.GRAPH_EXEC_UPDATE_FAILURE) {
      long errorNode = info.get(JAVA_LONG, 8);
      throw new GraphExecUpdateException(
          info.get(JAVA_INT, 0), errorNode == 0 ? null : new CuGraphNode(errorNode));
    }
    Errors.check(status, DriverCall.GRAPH_EXEC_UPDATE);
  }

  @Override
  public List<CuGraphNode> graphGetNodes(CuGraph graph) {
    MemorySegment count = Scratch.get().slot(0);
    count.set(JAVA_LONG, 0, 0);
    Errors.check(
        Cu.cuGraphGetNodes(graph.address(), MemorySegment.NULL, count), DriverCall.GRAPH_GET_NODES);
    long n = count.get(JAVA_LONG, 0);
    if (n == 0) {
      return List.of();
    }
    try (Arena arena = Arena.ofConfined()) {
      MemorySegment nodes = arena.allocate(JAVA_LONG, n);
      count.set(JAVA_LONG, 0, n);
      Errors.check(Cu.cuGraphGetNodes(graph.address(), nodes, count), DriverCall.GRAPH_GET_NODES);
      // The driver writes back how many it returned; never read past what was allocated.
      long returned = Math.min(n, count.get(JAVA_LONG, 0));
      List<CuGraphNode> list = new ArrayList<>((int) returned);
      for (long i = 0; i < returned; i++) {
        list.add(new CuGraphNode(nodes.getAtIndex(JAVA_LONG, i)));
      }
      return List.copyOf(list);
    }
  }

  @Override
  public GraphNodeType graphNodeGetType(CuGraphNode node) {
    MemorySegment out = Scratch.get().slot(0);
    Errors.check(Cu.cuGraphNodeGetType(node.address(), out), DriverCall.GRAPH_NODE_GET_TYPE);
    return GraphNodeType.ofCode(out.get(JAVA_INT, 0));
  }

  @Override
  public void graphDebugDotPrint(CuGraph graph, Path path, int flags) {
    if (path.getFileSystem() != FileSystems.getDefault()) {
      throw new CudaDriverException(
          CuResult.INVALID_VALUE,
          DriverCall.GRAPH_DEBUG_DOT_PRINT,
          "the driver writes through the operating system, so "
              + path
              + " must be on the default file system");
    }
    try (Arena arena = Arena.ofConfined()) {
      MemorySegment cPath = arena.allocateFrom(path.toString());
      int status = Cu.cuGraphDebugDotPrint(graph.address(), cPath, flags);
      if (status != CuResult.SUCCESS) {
        throw Errors.failure(status, DriverCall.GRAPH_DEBUG_DOT_PRINT, "path " + path);
      }
    }
  }

  /**
   * {@inheritDoc}
   *
   * <p>Drops the host functions this driver registered for captured graphs; after this, a launch of
   * such a graph logs a warning instead of running them. One-shot host functions still queued run
   * as usual. Libraries stay loaded: handles into them are process-wide.
   */
  @Override
  public void close() {
    if (closed.compareAndSet(false, true)) {
      HostFunctions.forgetRepeating(this);
    }
  }

  @Override
  public String toString() {
    return "FfmCudaDriver[" + CudaLibrary.configuredName() + (closed.get() ? ", closed]" : "]");
  }
}
