package cuda.graph.conformance;

import cuda.graph.spi.CaptureInfo;
import cuda.graph.spi.CaptureMode;
import cuda.graph.spi.CaptureStatus;
import cuda.graph.spi.CuContext;
import cuda.graph.spi.CuEvent;
import cuda.graph.spi.CuFunction;
import cuda.graph.spi.CuGraph;
import cuda.graph.spi.CuGraphExec;
import cuda.graph.spi.CuGraphNode;
import cuda.graph.spi.CuHandle;
import cuda.graph.spi.CuModule;
import cuda.graph.spi.CuStream;
import cuda.graph.spi.CudaDriver;
import cuda.graph.spi.CudaDriverException;
import cuda.graph.spi.DriverCall;
import cuda.graph.spi.GraphNodeType;
import cuda.graph.spi.HandleKind;
import cuda.graph.spi.HostFunction;
import cuda.graph.spi.KernelArguments;
import cuda.graph.spi.MemoryInfo;
import cuda.graph.spi.ModuleImage;
import cuda.graph.spi.RuntimeCompiler;
import java.lang.foreign.MemorySegment;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.function.Supplier;
import org.jspecify.annotations.Nullable;

/**
 * A {@link CudaDriver} that wraps any provider's driver and gives it the instruments of the
 * simulator, so that the same properties run on real hardware:
 *
 * <ul>
 *   <li>{@link #ledger()}: live-handle accounting per {@link HandleKind}, from the handles that
 *       create calls return and destroy calls receive;
 *   <li>use-after-destroy and double-destroy detection: a call that passes a handle (or a pointer
 *       into memory) this wrapper saw destroyed is refused with a {@link ConformanceViolation}
 *       <em>before</em> it reaches the provider, so the real driver never sees a dangling handle
 *       (which could crash the process); every violation is also kept in {@link #violations()};
 *   <li>{@link #calls()}: a log of every call, with its status;
 *   <li>{@link #faults()}: failures injected in place of chosen calls, and end-capture calls that
 *       report success without a graph.
 * </ul>
 *
 * <p>Everything else is passed through unchanged, so the wrapper is a faithful driver: a caller
 * that is correct on the provider is correct through the wrapper. Thread-safe, as the provider is.
 */
public final class InstrumentedDriver implements CudaDriver {

  private final CudaDriver delegate;
  private final LiveHandleLedger ledger = new LiveHandleLedger();
  private final DriverCallLog log = new DriverCallLog();
  private final FaultPlan faults = new FaultPlan();
  private final List<ConformanceViolation> violations = new ArrayList<>();

  /** The context each thread made current through this wrapper: the owner of what it creates. */
  private final ThreadLocal<@Nullable CuContext> current = new ThreadLocal<>();

  /** Wraps {@code delegate}; the wrapper owns it from now on and closes it in {@link #close()}. */
  public InstrumentedDriver(CudaDriver delegate) {
    this.delegate = Objects.requireNonNull(delegate, "delegate");
  }

  // ---- instruments

  /** {@return the wrapped driver: calls made on it directly bypass every instrument} */
  public CudaDriver delegate() {
    return delegate;
  }

  /** {@return the live-handle ledger} */
  public LiveHandleLedger ledger() {
    return ledger;
  }

  /** {@return the log of calls made through this wrapper} */
  public DriverCallLog calls() {
    return log;
  }

  /** {@return the failures to inject} */
  public FaultPlan faults() {
    return faults;
  }

  /** {@return every violation found so far, including those thrown on threads nobody watched} */
  public List<ConformanceViolation> violations() {
    synchronized (violations) {
      return List.copyOf(violations);
    }
  }

  /**
   * {@return the live streams (as the ledger knows them) that the provider reports capturing},
   * asked of the provider directly, without faults or logging; empty when no stream is left in
   * capture mode
   */
  public Map<CuStream, CaptureStatus> capturingStreams() {
    Map<CuStream, CaptureStatus> capturing = new LinkedHashMap<>();
    for (CuHandle h : ledger.liveHandles(HandleKind.STREAM)) {
      CuStream stream = (CuStream) h;
      CaptureStatus status = delegate.streamIsCapturing(stream);
      if (status != CaptureStatus.NONE) {
        capturing.put(stream, status);
      }
    }
    return capturing;
  }

  // ---- the funnel every call goes through

  private <R> R invoke(DriverCall call, Supplier<R> body) {
    CudaDriverException injected = faults.next(call);
    if (injected != null) {
      log.add(call, injected.status(), LoggedCall.Outcome.INJECTED);
      throw injected;
    }
    try {
      R result = body.get();
      log.add(call, 0, LoggedCall.Outcome.SUCCEEDED);
      return result;
    } catch (CudaDriverException e) {
      log.add(call, e.status(), LoggedCall.Outcome.FAILED);
      throw e;
    } catch (ConformanceViolation v) {
      // The provider returned something impossible (a live handle again): it is the one at fault.
      throw refuse(call, v);
    } catch (RuntimeException | Error e) {
      log.add(call, -1, LoggedCall.Outcome.THREW);
      throw e;
    }
  }

  private void run(DriverCall call, Runnable body) {
    invoke(
        call,
        () -> {
          body.run();
          return null;
        });
  }

  /** Runs a ledger check for {@code call}; a violation is recorded, logged and thrown. */
  private void check(DriverCall call, Runnable check) {
    try {
      check.run();
    } catch (ConformanceViolation v) {
      throw refuse(call, v);
    }
  }

  private ConformanceViolation refuse(DriverCall call, ConformanceViolation v) {
    synchronized (violations) {
      violations.add(v);
    }
    log.add(call, -1, LoggedCall.Outcome.REFUSED);
    return v;
  }

  private void usable(DriverCall call, CuHandle... handles) {
    check(
        call,
        () -> {
          for (CuHandle h : handles) {
            if (!(h instanceof CuStream s && s.isDefaultStream())) {
              ledger.requireUsable(h, call);
            }
          }
        });
  }

  private void accessible(DriverCall call, long... devicePointers) {
    check(
        call,
        () -> {
          for (long p : devicePointers) {
            ledger.requireAccessible(HandleKind.DEVICE_MEMORY, p, call);
          }
        });
  }

  private void accessibleHost(DriverCall call, MemorySegment host) {
    if (host.isNative()) {
      check(call, () -> ledger.requireAccessible(HandleKind.HOST_MEMORY, host.address(), call));
    }
  }

  /**
   * Destroys a handle: refused if already destroyed, counted before the call, restored if it fails.
   */
  private void destroy(DriverCall call, CuHandle handle, Runnable destroyCall) {
    Object[] claim = new Object[1];
    check(call, () -> claim[0] = ledger.claimDestroy(handle, call));
    try {
      run(call, destroyCall);
    } catch (RuntimeException | Error e) {
      ledger.undoDestroy(handle, claim[0]);
      throw e;
    }
  }

  private void free(DriverCall call, HandleKind kind, long address, Runnable freeCall) {
    Object[] claim = new Object[1];
    check(call, () -> claim[0] = ledger.claimFree(kind, address, call));
    try {
      run(call, freeCall);
    } catch (RuntimeException | Error e) {
      ledger.undoFree(kind, claim[0]);
      throw e;
    }
  }

  private boolean capturingQuietly(CuStream stream) {
    try {
      return delegate.streamIsCapturing(stream) != CaptureStatus.NONE;
    } catch (CudaDriverException e) {
      return false;
    }
  }

  // ---- initialization, versions, errors

  @Override
  public void init(int flags) {
    run(DriverCall.INIT, () -> delegate.init(flags));
  }

  @Override
  public int driverGetVersion() {
    return invoke(DriverCall.DRIVER_GET_VERSION, delegate::driverGetVersion);
  }

  @Override
  public Optional<String> getErrorName(int status) {
    return invoke(DriverCall.GET_ERROR_NAME, () -> delegate.getErrorName(status));
  }

  @Override
  public Optional<String> getErrorString(int status) {
    return invoke(DriverCall.GET_ERROR_STRING, () -> delegate.getErrorString(status));
  }

  // ---- devices and contexts

  @Override
  public int deviceGetCount() {
    return invoke(DriverCall.DEVICE_GET_COUNT, delegate::deviceGetCount);
  }

  @Override
  public int deviceGet(int ordinal) {
    return invoke(DriverCall.DEVICE_GET, () -> delegate.deviceGet(ordinal));
  }

  @Override
  public String deviceGetName(int device) {
    return invoke(DriverCall.DEVICE_GET_NAME, () -> delegate.deviceGetName(device));
  }

  @Override
  public int deviceGetAttribute(int attribute, int device) {
    return invoke(
        DriverCall.DEVICE_GET_ATTRIBUTE, () -> delegate.deviceGetAttribute(attribute, device));
  }

  @Override
  public long deviceTotalMem(int device) {
    return invoke(DriverCall.DEVICE_TOTAL_MEM, () -> delegate.deviceTotalMem(device));
  }

  @Override
  public CuContext devicePrimaryCtxRetain(int device) {
    return invoke(
        DriverCall.DEVICE_PRIMARY_CTX_RETAIN,
        () -> {
          CuContext context = delegate.devicePrimaryCtxRetain(device);
          ledger.retained(device, context);
          return context;
        });
  }

  @Override
  public void devicePrimaryCtxRelease(int device) {
    DriverCall call = DriverCall.DEVICE_PRIMARY_CTX_RELEASE;
    check(call, () -> ledger.requireRetained(device, call));
    run(
        call,
        () -> {
          delegate.devicePrimaryCtxRelease(device);
          ledger.released(device, call);
        });
  }

  @Override
  public void ctxSetCurrent(@Nullable CuContext context) {
    if (context != null) {
      usable(DriverCall.CTX_SET_CURRENT, context);
    }
    run(
        DriverCall.CTX_SET_CURRENT,
        () -> {
          delegate.ctxSetCurrent(context);
          current.set(context);
        });
  }

  @Override
  public @Nullable CuContext ctxGetCurrent() {
    return invoke(
        DriverCall.CTX_GET_CURRENT,
        () -> {
          CuContext context = delegate.ctxGetCurrent();
          current.set(context);
          return context;
        });
  }

  // ---- streams

  @Override
  public CuStream streamCreate(int flags) {
    DriverCall call = DriverCall.STREAM_CREATE;
    return invoke(
        call,
        () -> {
          CuStream stream = delegate.streamCreate(flags);
          ledger.created(stream, call, current.get());
          return stream;
        });
  }

  @Override
  public void streamDestroy(CuStream stream) {
    destroy(DriverCall.STREAM_DESTROY, stream, () -> delegate.streamDestroy(stream));
  }

  @Override
  public void streamSynchronize(CuStream stream) {
    usable(DriverCall.STREAM_SYNCHRONIZE, stream);
    run(DriverCall.STREAM_SYNCHRONIZE, () -> delegate.streamSynchronize(stream));
  }

  @Override
  public boolean streamQuery(CuStream stream) {
    usable(DriverCall.STREAM_QUERY, stream);
    return invoke(DriverCall.STREAM_QUERY, () -> delegate.streamQuery(stream));
  }

  @Override
  public void streamWaitEvent(CuStream stream, CuEvent event, int flags) {
    usable(DriverCall.STREAM_WAIT_EVENT, stream, event);
    run(DriverCall.STREAM_WAIT_EVENT, () -> delegate.streamWaitEvent(stream, event, flags));
  }

  @Override
  public void launchHostFunc(CuStream stream, HostFunction function) {
    usable(DriverCall.LAUNCH_HOST_FUNC, stream);
    run(DriverCall.LAUNCH_HOST_FUNC, () -> delegate.launchHostFunc(stream, function));
  }

  // ---- stream capture

  @Override
  public void streamBeginCapture(CuStream stream, CaptureMode mode) {
    usable(DriverCall.STREAM_BEGIN_CAPTURE, stream);
    run(DriverCall.STREAM_BEGIN_CAPTURE, () -> delegate.streamBeginCapture(stream, mode));
  }

  @Override
  public @Nullable CuGraph streamEndCapture(CuStream stream) {
    DriverCall call = DriverCall.STREAM_END_CAPTURE;
    usable(call, stream);
    CudaDriverException injected = faults.next(call);
    if (injected != null) {
      log.add(call, injected.status(), LoggedCall.Outcome.INJECTED);
      throw injected;
    }
    if (faults.takeNoGraph()) {
      // The capture really ends on the provider; the graph it made is destroyed, never handed out.
      CuGraph graph = delegate.streamEndCapture(stream);
      if (graph != null) {
        delegate.graphDestroy(graph);
      }
      log.add(call, 0, LoggedCall.Outcome.INJECTED);
      return null;
    }
    return invoke(
        call,
        () -> {
          CuGraph graph = delegate.streamEndCapture(stream);
          if (graph != null) {
            ledger.created(graph, call, null);
          }
          return graph;
        });
  }

  @Override
  public CaptureStatus streamIsCapturing(CuStream stream) {
    usable(DriverCall.STREAM_IS_CAPTURING, stream);
    return invoke(DriverCall.STREAM_IS_CAPTURING, () -> delegate.streamIsCapturing(stream));
  }

  @Override
  public CaptureInfo streamGetCaptureInfo(CuStream stream) {
    usable(DriverCall.STREAM_GET_CAPTURE_INFO, stream);
    return invoke(DriverCall.STREAM_GET_CAPTURE_INFO, () -> delegate.streamGetCaptureInfo(stream));
  }

  @Override
  public CaptureMode threadExchangeStreamCaptureMode(CaptureMode mode) {
    return invoke(
        DriverCall.THREAD_EXCHANGE_STREAM_CAPTURE_MODE,
        () -> delegate.threadExchangeStreamCaptureMode(mode));
  }

  // ---- events

  @Override
  public CuEvent eventCreate(int flags) {
    DriverCall call = DriverCall.EVENT_CREATE;
    return invoke(
        call,
        () -> {
          CuEvent event = delegate.eventCreate(flags);
          ledger.created(event, call, current.get());
          return event;
        });
  }

  @Override
  public void eventDestroy(CuEvent event) {
    destroy(DriverCall.EVENT_DESTROY, event, () -> delegate.eventDestroy(event));
  }

  @Override
  public void eventRecord(CuEvent event, CuStream stream) {
    usable(DriverCall.EVENT_RECORD, event, stream);
    run(DriverCall.EVENT_RECORD, () -> delegate.eventRecord(event, stream));
  }

  @Override
  public void eventRecordWithFlags(CuEvent event, CuStream stream, int flags) {
    usable(DriverCall.EVENT_RECORD_WITH_FLAGS, event, stream);
    run(
        DriverCall.EVENT_RECORD_WITH_FLAGS,
        () -> delegate.eventRecordWithFlags(event, stream, flags));
  }

  @Override
  public boolean eventQuery(CuEvent event) {
    usable(DriverCall.EVENT_QUERY, event);
    return invoke(DriverCall.EVENT_QUERY, () -> delegate.eventQuery(event));
  }

  @Override
  public void eventSynchronize(CuEvent event) {
    usable(DriverCall.EVENT_SYNCHRONIZE, event);
    run(DriverCall.EVENT_SYNCHRONIZE, () -> delegate.eventSynchronize(event));
  }

  @Override
  public float eventElapsedTime(CuEvent start, CuEvent end) {
    usable(DriverCall.EVENT_ELAPSED_TIME, start, end);
    return invoke(DriverCall.EVENT_ELAPSED_TIME, () -> delegate.eventElapsedTime(start, end));
  }

  // ---- memory

  @Override
  public long memAlloc(long bytes) {
    DriverCall call = DriverCall.MEM_ALLOC;
    return invoke(
        call,
        () -> {
          long pointer = delegate.memAlloc(bytes);
          ledger.allocated(HandleKind.DEVICE_MEMORY, pointer, bytes, current.get(), call);
          return pointer;
        });
  }

  @Override
  public void memFree(long devicePointer) {
    if (devicePointer == 0) {
      run(DriverCall.MEM_FREE, () -> delegate.memFree(devicePointer));
      return;
    }
    free(
        DriverCall.MEM_FREE,
        HandleKind.DEVICE_MEMORY,
        devicePointer,
        () -> delegate.memFree(devicePointer));
  }

  @Override
  public long memAllocAsync(long bytes, CuStream stream) {
    DriverCall call = DriverCall.MEM_ALLOC_ASYNC;
    usable(call, stream);
    // An allocation recorded into a capture is a graph node: the graph owns it, not the caller.
    boolean captured = capturingQuietly(stream);
    return invoke(
        call,
        () -> {
          long pointer = delegate.memAllocAsync(bytes, stream);
          if (!captured) {
            ledger.allocated(HandleKind.DEVICE_MEMORY, pointer, bytes, current.get(), call);
          }
          return pointer;
        });
  }

  @Override
  public void memFreeAsync(long devicePointer, CuStream stream) {
    DriverCall call = DriverCall.MEM_FREE_ASYNC;
    usable(call, stream);
    if (capturingQuietly(stream)) {
      // A free recorded into a capture happens when the graph runs, not now.
      accessible(call, devicePointer);
      run(call, () -> delegate.memFreeAsync(devicePointer, stream));
      return;
    }
    free(
        call,
        HandleKind.DEVICE_MEMORY,
        devicePointer,
        () -> delegate.memFreeAsync(devicePointer, stream));
  }

  @Override
  public MemorySegment memAllocHost(long bytes) {
    DriverCall call = DriverCall.MEM_ALLOC_HOST;
    return invoke(
        call,
        () -> {
          MemorySegment memory = delegate.memAllocHost(bytes);
          ledger.allocated(HandleKind.HOST_MEMORY, memory.address(), bytes, current.get(), call);
          return memory;
        });
  }

  @Override
  public void memFreeHost(MemorySegment hostMemory) {
    free(
        DriverCall.MEM_FREE_HOST,
        HandleKind.HOST_MEMORY,
        hostMemory.address(),
        () -> delegate.memFreeHost(hostMemory));
  }

  @Override
  public MemoryInfo memGetInfo() {
    return invoke(DriverCall.MEM_GET_INFO, delegate::memGetInfo);
  }

  @Override
  public void memcpyHtoD(long dst, MemorySegment src, long bytes) {
    accessible(DriverCall.MEMCPY_HTOD, dst);
    accessibleHost(DriverCall.MEMCPY_HTOD, src);
    run(DriverCall.MEMCPY_HTOD, () -> delegate.memcpyHtoD(dst, src, bytes));
  }

  @Override
  public void memcpyDtoH(MemorySegment dst, long src, long bytes) {
    accessible(DriverCall.MEMCPY_DTOH, src);
    accessibleHost(DriverCall.MEMCPY_DTOH, dst);
    run(DriverCall.MEMCPY_DTOH, () -> delegate.memcpyDtoH(dst, src, bytes));
  }

  @Override
  public void memcpyHtoDAsync(long dst, MemorySegment src, long bytes, CuStream stream) {
    DriverCall call = DriverCall.MEMCPY_HTOD_ASYNC;
    usable(call, stream);
    accessible(call, dst);
    accessibleHost(call, src);
    run(call, () -> delegate.memcpyHtoDAsync(dst, src, bytes, stream));
  }

  @Override
  public void memcpyDtoHAsync(MemorySegment dst, long src, long bytes, CuStream stream) {
    DriverCall call = DriverCall.MEMCPY_DTOH_ASYNC;
    usable(call, stream);
    accessible(call, src);
    accessibleHost(call, dst);
    run(call, () -> delegate.memcpyDtoHAsync(dst, src, bytes, stream));
  }

  @Override
  public void memcpyDtoDAsync(long dst, long src, long bytes, CuStream stream) {
    DriverCall call = DriverCall.MEMCPY_DTOD_ASYNC;
    usable(call, stream);
    accessible(call, dst, src);
    run(call, () -> delegate.memcpyDtoDAsync(dst, src, bytes, stream));
  }

  @Override
  public void memsetD8Async(long dst, byte value, long count, CuStream stream) {
    DriverCall call = DriverCall.MEMSET_D8_ASYNC;
    usable(call, stream);
    accessible(call, dst);
    run(call, () -> delegate.memsetD8Async(dst, value, count, stream));
  }

  @Override
  public void memsetD16Async(long dst, short value, long count, CuStream stream) {
    DriverCall call = DriverCall.MEMSET_D16_ASYNC;
    usable(call, stream);
    accessible(call, dst);
    run(call, () -> delegate.memsetD16Async(dst, value, count, stream));
  }

  @Override
  public void memsetD32Async(long dst, int value, long count, CuStream stream) {
    DriverCall call = DriverCall.MEMSET_D32_ASYNC;
    usable(call, stream);
    accessible(call, dst);
    run(call, () -> delegate.memsetD32Async(dst, value, count, stream));
  }

  @Override
  public void memsetD2D32Async(
      long dst, long pitch, int value, long width, long height, CuStream stream) {
    DriverCall call = DriverCall.MEMSET_D2D32_ASYNC;
    usable(call, stream);
    accessible(call, dst);
    run(call, () -> delegate.memsetD2D32Async(dst, pitch, value, width, height, stream));
  }

  // ---- modules and kernels

  @Override
  public Optional<RuntimeCompiler> runtimeCompiler() {
    return delegate.runtimeCompiler();
  }

  @Override
  public CuModule moduleLoadData(ModuleImage image) {
    DriverCall call = DriverCall.MODULE_LOAD_DATA;
    return invoke(
        call,
        () -> {
          CuModule module = delegate.moduleLoadData(image);
          ledger.created(module, call, current.get());
          return module;
        });
  }

  @Override
  public void moduleUnload(CuModule module) {
    DriverCall call = DriverCall.MODULE_UNLOAD;
    destroy(
        call,
        module,
        () -> {
          delegate.moduleUnload(module);
          ledger.moduleUnloaded(module);
        });
  }

  @Override
  public CuFunction moduleGetFunction(CuModule module, String name) {
    DriverCall call = DriverCall.MODULE_GET_FUNCTION;
    usable(call, module);
    return invoke(
        call,
        () -> {
          CuFunction function = delegate.moduleGetFunction(module, name);
          ledger.functionReturned(module, function, call, current.get());
          return function;
        });
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
    usable(DriverCall.LAUNCH_KERNEL, function, stream);
    run(
        DriverCall.LAUNCH_KERNEL,
        () ->
            delegate.launchKernel(
                function,
                gridX,
                gridY,
                gridZ,
                blockX,
                blockY,
                blockZ,
                sharedMemBytes,
                stream,
                arguments));
  }

  // ---- graphs

  @Override
  public CuGraph graphCreate(int flags) {
    DriverCall call = DriverCall.GRAPH_CREATE;
    return invoke(
        call,
        () -> {
          CuGraph graph = delegate.graphCreate(flags);
          ledger.created(graph, call, null);
          return graph;
        });
  }

  @Override
  public void graphDestroy(CuGraph graph) {
    destroy(DriverCall.GRAPH_DESTROY, graph, () -> delegate.graphDestroy(graph));
  }

  @Override
  public CuGraphExec graphInstantiate(CuGraph graph, long flags) {
    DriverCall call = DriverCall.GRAPH_INSTANTIATE;
    usable(call, graph);
    return invoke(
        call,
        () -> {
          CuGraphExec exec = delegate.graphInstantiate(graph, flags);
          ledger.created(exec, call, current.get());
          return exec;
        });
  }

  @Override
  public void graphUpload(CuGraphExec exec, CuStream stream) {
    usable(DriverCall.GRAPH_UPLOAD, exec, stream);
    run(DriverCall.GRAPH_UPLOAD, () -> delegate.graphUpload(exec, stream));
  }

  @Override
  public void graphLaunch(CuGraphExec exec, CuStream stream) {
    usable(DriverCall.GRAPH_LAUNCH, exec, stream);
    run(DriverCall.GRAPH_LAUNCH, () -> delegate.graphLaunch(exec, stream));
  }

  @Override
  public void graphExecDestroy(CuGraphExec exec) {
    destroy(DriverCall.GRAPH_EXEC_DESTROY, exec, () -> delegate.graphExecDestroy(exec));
  }

  @Override
  public void graphExecUpdate(CuGraphExec exec, CuGraph graph) {
    usable(DriverCall.GRAPH_EXEC_UPDATE, exec, graph);
    run(DriverCall.GRAPH_EXEC_UPDATE, () -> delegate.graphExecUpdate(exec, graph));
  }

  @Override
  public List<CuGraphNode> graphGetNodes(CuGraph graph) {
    usable(DriverCall.GRAPH_GET_NODES, graph);
    return invoke(DriverCall.GRAPH_GET_NODES, () -> delegate.graphGetNodes(graph));
  }

  @Override
  public GraphNodeType graphNodeGetType(CuGraphNode node) {
    return invoke(DriverCall.GRAPH_NODE_GET_TYPE, () -> delegate.graphNodeGetType(node));
  }

  @Override
  public void graphDebugDotPrint(CuGraph graph, Path path, int flags) {
    usable(DriverCall.GRAPH_DEBUG_DOT_PRINT, graph);
    run(DriverCall.GRAPH_DEBUG_DOT_PRINT, () -> delegate.graphDebugDotPrint(graph, path, flags));
  }

  /** Closes the wrapped driver. The instruments stay readable. */
  @Override
  public void close() {
    delegate.close();
  }

  @Override
  public String toString() {
    return "InstrumentedDriver[" + delegate + "]";
  }
}
