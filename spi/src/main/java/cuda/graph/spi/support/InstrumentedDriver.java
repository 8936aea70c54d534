package cuda.graph.spi.support;

import cuda.graph.spi.CaptureInfo;
import cuda.graph.spi.CaptureMode;
import cuda.graph.spi.CaptureStatus;
import cuda.graph.spi.ConditionalHandle;
import cuda.graph.spi.ConditionalNode;
import cuda.graph.spi.ConditionalType;
import cuda.graph.spi.CopyEndpoint;
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
import cuda.graph.spi.Dim3;
import cuda.graph.spi.DriverCall;
import cuda.graph.spi.HandleKind;
import cuda.graph.spi.HostFunction;
import cuda.graph.spi.KernelArguments;
import cuda.graph.spi.ModuleImage;
import cuda.graph.spi.ParamInfo;
import cuda.graph.spi.support.LoggedCall.Outcome;
import java.lang.foreign.MemorySegment;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;
import org.jspecify.annotations.Nullable;

/**
 * A decorator that gives any {@link CudaDriver} (the simulator, the real driver) the instruments
 * tests use to prove a caller correct:
 *
 * <ul>
 *   <li>{@link #ledger()}: live-handle accounting per {@link HandleKind}, from the handles that
 *       create calls return and destroy calls receive;
 *   <li>use-after-destroy and double-destroy detection: a call that passes a handle (or a pointer
 *       into memory) this decorator saw destroyed is refused with a {@link LifetimeViolation}
 *       <em>before</em> it reaches the wrapped driver, which never sees a dangling handle (the real
 *       driver could crash the process); every violation is also kept in {@link #violations()};
 *   <li>{@link #calls()}: a log of every call, with its arguments and status;
 *   <li>{@link #faults()}: failures injected in place of chosen calls, and end-capture calls that
 *       report success without a graph.
 * </ul>
 *
 * <p>The graphs the driver makes itself are learnt as they appear: the graph a capture records into
 * at {@code cuStreamBeginCapture} (asked of the wrapped driver with one {@code
 * cuStreamGetCaptureInfo} that is neither logged nor subject to faults), and the bodies of a
 * conditional node when {@code cuGraphAddNode} returns them. The driver reuses handle values, so
 * such a graph may have the value of a graph destroyed earlier; it is a new object, not a use after
 * destroy (see {@link HandleLedger}).
 *
 * <p>A call is checked first, then counted by the fault plan and logged, then delegated: a refused
 * call reaches neither the fault plan nor the driver. Everything else passes through unchanged, so
 * a caller that is correct on the wrapped driver is correct through the decorator. Faults are
 * injected at the call boundary only: work a stream runs later fails only as the wrapped driver
 * makes it fail. {@link #close()} closes the wrapped driver; the instruments stay readable.
 * Thread-safe, as the wrapped driver is.
 */
public final class InstrumentedDriver extends ForwardingCudaDriver {

  private final HandleLedger ledger = new HandleLedger();
  private final CallLog log = new CallLog();
  private final FaultPlan faults = new FaultPlan();
  private final LifetimeChecks checks = new LifetimeChecks(ledger, log);

  /**
   * A capture begun through this decorator: the graph it records into (null if the driver did not
   * say), and whether that graph is someone else's (a capture into an existing graph, such as a
   * conditional body), in which case ending the capture creates no handle.
   */
  private record Capture(@Nullable CuGraph graph, boolean intoExistingGraph) {}

  /** The capture each stream began, until it ends. */
  private final Map<CuStream, Capture> captures = new ConcurrentHashMap<>();

  /**
   * Wraps a driver, which the decorator owns from now on: {@link #close()} closes it.
   *
   * @param delegate the driver to instrument; calls made on it directly bypass the instruments
   */
  public InstrumentedDriver(CudaDriver delegate) {
    super(delegate, true);
  }

  // ---- instruments

  /** {@return the live-handle ledger} */
  public HandleLedger ledger() {
    return ledger;
  }

  /** {@return the log of calls made through this decorator} */
  public CallLog calls() {
    return log;
  }

  /** {@return the failures to inject} */
  public FaultPlan faults() {
    return faults;
  }

  /** {@return every violation found so far, including those thrown on threads nobody watched} */
  public List<LifetimeViolation> violations() {
    return checks.violations();
  }

  /**
   * {@return the live streams (as the ledger knows them) that the wrapped driver reports
   * capturing}, asked of it directly, without faults or logging; empty when no stream is left in
   * capture mode
   */
  public Map<CuStream, CaptureStatus> capturingStreams() {
    Map<CuStream, CaptureStatus> capturing = new LinkedHashMap<>();
    for (CuHandle h : ledger.liveHandles(HandleKind.STREAM)) {
      CuStream stream = (CuStream) h;
      CaptureStatus status = delegate().streamIsCapturing(stream);
      if (status != CaptureStatus.NONE) {
        capturing.put(stream, status);
      }
    }
    return capturing;
  }

  // ---- every call: fault injection and the log

  @Override
  protected void before(DriverCall call, @Nullable Object[] arguments) {
    String described = log.enabled() ? CallLog.describe(arguments) : "";
    CudaDriverException injected = faults.next(call);
    if (injected != null) {
      log.add(call, described, injected.status(), Outcome.INJECTED);
      throw injected;
    }
    log.started(call, described);
  }

  @Override
  protected RuntimeException failed(DriverCall call, RuntimeException failure) {
    if (failure instanceof CudaDriverException e) {
      log.finished(call, e.status(), Outcome.FAILED);
    } else {
      log.finished(call, -1, Outcome.THREW);
    }
    return failure;
  }

  // ---- contexts: retains are counted, and the current context owns what is created

  @Override
  public CuContext devicePrimaryCtxRetain(int device) {
    CuContext context = super.devicePrimaryCtxRetain(device);
    ledger.retained(device, context);
    return context;
  }

  @Override
  public void devicePrimaryCtxRelease(int device) {
    DriverCall call = DriverCall.DEVICE_PRIMARY_CTX_RELEASE;
    checks.retainedBefore(call, device);
    super.devicePrimaryCtxRelease(device);
    ledger.released(device, call);
  }

  @Override
  public void ctxSetCurrent(@Nullable CuContext context) {
    if (context != null) {
      checks.usable(DriverCall.CTX_SET_CURRENT, context);
    }
    super.ctxSetCurrent(context);
    checks.makeCurrent(context);
  }

  @Override
  public @Nullable CuContext ctxGetCurrent() {
    CuContext context = super.ctxGetCurrent();
    checks.makeCurrent(context);
    return context;
  }

  // ---- streams and capture

  @Override
  public CuStream streamCreate(int flags) {
    return checks.created(DriverCall.STREAM_CREATE, super.streamCreate(flags));
  }

  @Override
  public void streamDestroy(CuStream stream) {
    checks.destroy(
        DriverCall.STREAM_DESTROY,
        stream,
        () -> {
          super.streamDestroy(stream);
          captures.remove(stream);
        });
  }

  @Override
  public void streamSynchronize(CuStream stream) {
    checks.usable(DriverCall.STREAM_SYNCHRONIZE, stream);
    super.streamSynchronize(stream);
  }

  @Override
  public boolean streamQuery(CuStream stream) {
    checks.usable(DriverCall.STREAM_QUERY, stream);
    return super.streamQuery(stream);
  }

  @Override
  public void streamWaitEvent(CuStream stream, CuEvent event, int flags) {
    checks.usable(DriverCall.STREAM_WAIT_EVENT, stream, event);
    super.streamWaitEvent(stream, event, flags);
  }

  @Override
  public void launchHostFunc(CuStream stream, HostFunction function) {
    checks.usable(DriverCall.LAUNCH_HOST_FUNC, stream);
    super.launchHostFunc(stream, function);
  }

  @Override
  public void streamBeginCapture(CuStream stream, CaptureMode mode) {
    checks.usable(DriverCall.STREAM_BEGIN_CAPTURE, stream);
    super.streamBeginCapture(stream, mode);
    // The driver made the capture's graph now but hands it out only through capture info and end
    // capture. Ask for it at once (a query that is legal in any capture mode), so that it is live
    // from here on even where the driver gave it the value of a graph destroyed earlier.
    CuGraph graph = captureGraphQuietly(stream);
    if (graph != null) {
      ledger.lent(graph, null);
    }
    captures.put(stream, new Capture(graph, false));
  }

  @Override
  public @Nullable CuGraph streamEndCapture(CuStream stream) {
    DriverCall call = DriverCall.STREAM_END_CAPTURE;
    checks.usable(call, stream);
    Capture capture = captures.get(stream);
    CuGraph graph;
    try {
      graph = super.streamEndCapture(stream);
    } catch (RuntimeException | Error e) {
      captureFailed(stream, capture, e);
      throw e;
    }
    captures.remove(stream);
    if (capture != null && capture.intoExistingGraph()) {
      // The capture filled a graph its caller does not own (a conditional body): nothing new.
      return graph;
    }
    if (faults.takeNoGraph()) {
      // The capture really ended on the driver; the graph it made is destroyed, never handed out.
      if (graph != null) {
        delegate().graphDestroy(graph);
        ledger.lentDestroyed(
            graph,
            "was destroyed by the instruments: "
                + call.symbol()
                + " withheld it (an injected fault) on thread "
                + Thread.currentThread().getName());
      }
      log.finished(call, 0, Outcome.INJECTED);
      return null;
    }
    // Owned by no context: a graph outlives the context it was captured in until destroyed.
    return graph == null ? null : checks.createdIn(call, graph, null);
  }

  /**
   * An end-capture call failed. If the stream left capture mode, the capture ended with the failure
   * and the driver destroyed the graph it had made (a capture into an existing graph loses only the
   * nodes it added); if not (an injected failure, a capture ended on the wrong stream), the capture
   * and its graph live on.
   */
  private void captureFailed(CuStream stream, @Nullable Capture capture, Throwable failure) {
    if (capture == null || capturingQuietly(stream)) {
      return;
    }
    captures.remove(stream, capture);
    CuGraph graph = capture.graph();
    if (!capture.intoExistingGraph() && graph != null) {
      ledger.lentDestroyed(
          graph,
          "was destroyed by the driver when its capture failed ("
              + DriverCall.STREAM_END_CAPTURE.symbol()
              + " on thread "
              + Thread.currentThread().getName()
              + ": "
              + failure.getMessage()
              + ")");
    }
  }

  @Override
  public void streamBeginCaptureToGraph(
      CuStream stream, CuGraph graph, List<CuGraphNode> dependencies, CaptureMode mode) {
    checks.usable(DriverCall.STREAM_BEGIN_CAPTURE_TO_GRAPH, stream, graph);
    super.streamBeginCaptureToGraph(stream, graph, dependencies, mode);
    captures.put(stream, new Capture(graph, true));
  }

  @Override
  public void streamUpdateCaptureDependencies(
      CuStream stream, List<CuGraphNode> dependencies, int flags) {
    checks.usable(DriverCall.STREAM_UPDATE_CAPTURE_DEPENDENCIES, stream);
    super.streamUpdateCaptureDependencies(stream, dependencies, flags);
  }

  @Override
  public CaptureStatus streamIsCapturing(CuStream stream) {
    checks.usable(DriverCall.STREAM_IS_CAPTURING, stream);
    return super.streamIsCapturing(stream);
  }

  @Override
  public CaptureInfo streamGetCaptureInfo(CuStream stream) {
    checks.usable(DriverCall.STREAM_GET_CAPTURE_INFO, stream);
    CaptureInfo info = super.streamGetCaptureInfo(stream);
    CuGraph graph = info.graph();
    if (graph != null) {
      // The graph of a capture this decorator did not see begin: the driver says it is live.
      ledger.lent(graph, null);
    }
    return info;
  }

  // ---- events

  @Override
  public CuEvent eventCreate(int flags) {
    return checks.created(DriverCall.EVENT_CREATE, super.eventCreate(flags));
  }

  @Override
  public void eventDestroy(CuEvent event) {
    checks.destroy(DriverCall.EVENT_DESTROY, event, () -> super.eventDestroy(event));
  }

  @Override
  public void eventRecord(CuEvent event, CuStream stream) {
    checks.usable(DriverCall.EVENT_RECORD, event, stream);
    super.eventRecord(event, stream);
  }

  @Override
  public void eventRecordWithFlags(CuEvent event, CuStream stream, int flags) {
    checks.usable(DriverCall.EVENT_RECORD_WITH_FLAGS, event, stream);
    super.eventRecordWithFlags(event, stream, flags);
  }

  @Override
  public boolean eventQuery(CuEvent event) {
    checks.usable(DriverCall.EVENT_QUERY, event);
    return super.eventQuery(event);
  }

  @Override
  public void eventSynchronize(CuEvent event) {
    checks.usable(DriverCall.EVENT_SYNCHRONIZE, event);
    super.eventSynchronize(event);
  }

  @Override
  public float eventElapsedTime(CuEvent start, CuEvent end) {
    checks.usable(DriverCall.EVENT_ELAPSED_TIME, start, end);
    return super.eventElapsedTime(start, end);
  }

  // ---- memory

  @Override
  public long memAlloc(long bytes) {
    long pointer = super.memAlloc(bytes);
    checks.allocated(DriverCall.MEM_ALLOC, HandleKind.DEVICE_MEMORY, pointer, bytes);
    return pointer;
  }

  @Override
  public void memFree(long devicePointer) {
    if (devicePointer == 0) {
      super.memFree(devicePointer); // freeing NULL frees nothing; the driver says what it returns
      return;
    }
    checks.free(
        DriverCall.MEM_FREE,
        HandleKind.DEVICE_MEMORY,
        devicePointer,
        () -> super.memFree(devicePointer));
  }

  @Override
  public long memAllocAsync(long bytes, CuStream stream) {
    DriverCall call = DriverCall.MEM_ALLOC_ASYNC;
    checks.usable(call, stream);
    // An allocation recorded into a capture is a graph node: the graph owns it, not the caller.
    boolean captured = capturingQuietly(stream);
    long pointer = super.memAllocAsync(bytes, stream);
    if (!captured) {
      checks.allocated(call, HandleKind.DEVICE_MEMORY, pointer, bytes);
    }
    return pointer;
  }

  @Override
  public void memFreeAsync(long devicePointer, CuStream stream) {
    DriverCall call = DriverCall.MEM_FREE_ASYNC;
    checks.usable(call, stream);
    if (capturingQuietly(stream)) {
      // A free recorded into a capture happens when the graph runs, not now.
      checks.accessible(call, devicePointer);
      super.memFreeAsync(devicePointer, stream);
      return;
    }
    checks.free(
        call,
        HandleKind.DEVICE_MEMORY,
        devicePointer,
        () -> super.memFreeAsync(devicePointer, stream));
  }

  @Override
  public MemorySegment memAllocHost(long bytes) {
    MemorySegment memory = super.memAllocHost(bytes);
    checks.allocated(DriverCall.MEM_ALLOC_HOST, HandleKind.HOST_MEMORY, memory.address(), bytes);
    return memory;
  }

  @Override
  public void memFreeHost(MemorySegment hostMemory) {
    checks.free(
        DriverCall.MEM_FREE_HOST,
        HandleKind.HOST_MEMORY,
        hostMemory.address(),
        () -> super.memFreeHost(hostMemory));
  }

  @Override
  public MemorySegment memHostAlloc(long bytes, int flags) {
    MemorySegment memory = super.memHostAlloc(bytes, flags);
    checks.allocated(DriverCall.MEM_HOST_ALLOC, HandleKind.HOST_MEMORY, memory.address(), bytes);
    return memory;
  }

  @Override
  public long memHostGetDevicePointer(MemorySegment hostMemory, int flags) {
    DriverCall call = DriverCall.MEM_HOST_GET_DEVICE_POINTER;
    checks.accessibleHost(call, hostMemory);
    long pointer = super.memHostGetDevicePointer(hostMemory, flags);
    checks.mapped(call, hostMemory.address(), pointer);
    return pointer;
  }

  @Override
  public void memcpyHtoD(long dst, MemorySegment src, long bytes) {
    checks.accessible(DriverCall.MEMCPY_HTOD, dst);
    checks.accessibleHost(DriverCall.MEMCPY_HTOD, src);
    super.memcpyHtoD(dst, src, bytes);
  }

  @Override
  public void memcpyDtoH(MemorySegment dst, long src, long bytes) {
    checks.accessible(DriverCall.MEMCPY_DTOH, src);
    checks.accessibleHost(DriverCall.MEMCPY_DTOH, dst);
    super.memcpyDtoH(dst, src, bytes);
  }

  @Override
  public void memcpyHtoDAsync(long dst, MemorySegment src, long bytes, CuStream stream) {
    DriverCall call = DriverCall.MEMCPY_HTOD_ASYNC;
    checks.usable(call, stream);
    checks.accessible(call, dst);
    checks.accessibleHost(call, src);
    super.memcpyHtoDAsync(dst, src, bytes, stream);
  }

  @Override
  public void memcpyDtoHAsync(MemorySegment dst, long src, long bytes, CuStream stream) {
    DriverCall call = DriverCall.MEMCPY_DTOH_ASYNC;
    checks.usable(call, stream);
    checks.accessible(call, src);
    checks.accessibleHost(call, dst);
    super.memcpyDtoHAsync(dst, src, bytes, stream);
  }

  @Override
  public void memcpyDtoDAsync(long dst, long src, long bytes, CuStream stream) {
    DriverCall call = DriverCall.MEMCPY_DTOD_ASYNC;
    checks.usable(call, stream);
    checks.accessible(call, dst, src);
    super.memcpyDtoDAsync(dst, src, bytes, stream);
  }

  @Override
  public void memsetD8Async(long dst, byte value, long count, CuStream stream) {
    checks.usable(DriverCall.MEMSET_D8_ASYNC, stream);
    checks.accessible(DriverCall.MEMSET_D8_ASYNC, dst);
    super.memsetD8Async(dst, value, count, stream);
  }

  @Override
  public void memsetD16Async(long dst, short value, long count, CuStream stream) {
    checks.usable(DriverCall.MEMSET_D16_ASYNC, stream);
    checks.accessible(DriverCall.MEMSET_D16_ASYNC, dst);
    super.memsetD16Async(dst, value, count, stream);
  }

  @Override
  public void memsetD32Async(long dst, int value, long count, CuStream stream) {
    checks.usable(DriverCall.MEMSET_D32_ASYNC, stream);
    checks.accessible(DriverCall.MEMSET_D32_ASYNC, dst);
    super.memsetD32Async(dst, value, count, stream);
  }

  @Override
  public void memsetD2D32Async(
      long dst, long pitch, int value, long width, long height, CuStream stream) {
    checks.usable(DriverCall.MEMSET_D2D32_ASYNC, stream);
    checks.accessible(DriverCall.MEMSET_D2D32_ASYNC, dst);
    super.memsetD2D32Async(dst, pitch, value, width, height, stream);
  }

  // ---- modules and kernels

  @Override
  public CuModule moduleLoadData(ModuleImage image) {
    return checks.created(DriverCall.MODULE_LOAD_DATA, super.moduleLoadData(image));
  }

  @Override
  public void moduleUnload(CuModule module) {
    checks.destroy(
        DriverCall.MODULE_UNLOAD,
        module,
        () -> {
          super.moduleUnload(module);
          ledger.moduleUnloaded(module);
        });
  }

  @Override
  public CuFunction moduleGetFunction(CuModule module, String name) {
    DriverCall call = DriverCall.MODULE_GET_FUNCTION;
    checks.usable(call, module);
    CuFunction function = super.moduleGetFunction(module, name);
    checks.functionReturned(call, module, function);
    return function;
  }

  @Override
  public Optional<ParamInfo> funcGetParamInfo(CuFunction function, int index) {
    checks.usable(DriverCall.FUNC_GET_PARAM_INFO, function);
    return super.funcGetParamInfo(function, index);
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
    checks.usable(DriverCall.LAUNCH_KERNEL, function, stream);
    super.launchKernel(
        function, gridX, gridY, gridZ, blockX, blockY, blockZ, sharedMemBytes, stream, arguments);
  }

  @Override
  public void launchKernelProgrammatic(
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
    checks.usable(DriverCall.LAUNCH_KERNEL_EX, function, stream);
    super.launchKernelProgrammatic(
        function, gridX, gridY, gridZ, blockX, blockY, blockZ, sharedMemBytes, stream, arguments);
  }

  // ---- graphs

  @Override
  public CuGraph graphCreate(int flags) {
    return checks.createdIn(DriverCall.GRAPH_CREATE, super.graphCreate(flags), null);
  }

  @Override
  public void graphDestroy(CuGraph graph) {
    checks.destroy(
        DriverCall.GRAPH_DESTROY,
        graph,
        () -> {
          super.graphDestroy(graph);
          ledger.graphDestroyed(graph, DriverCall.GRAPH_DESTROY);
        });
  }

  @Override
  public CuGraphExec graphInstantiate(CuGraph graph, long flags) {
    DriverCall call = DriverCall.GRAPH_INSTANTIATE;
    checks.usable(call, graph);
    return checks.created(call, super.graphInstantiate(graph, flags));
  }

  @Override
  public void graphUpload(CuGraphExec exec, CuStream stream) {
    checks.usable(DriverCall.GRAPH_UPLOAD, exec, stream);
    super.graphUpload(exec, stream);
  }

  @Override
  public void graphLaunch(CuGraphExec exec, CuStream stream) {
    checks.usable(DriverCall.GRAPH_LAUNCH, exec, stream);
    super.graphLaunch(exec, stream);
  }

  @Override
  public void graphExecDestroy(CuGraphExec exec) {
    checks.destroy(DriverCall.GRAPH_EXEC_DESTROY, exec, () -> super.graphExecDestroy(exec));
  }

  @Override
  public void graphExecUpdate(CuGraphExec exec, CuGraph graph) {
    checks.usable(DriverCall.GRAPH_EXEC_UPDATE, exec, graph);
    super.graphExecUpdate(exec, graph);
  }

  @Override
  public void graphExecKernelNodeSetParams(
      CuGraphExec exec,
      CuGraphNode node,
      CuFunction function,
      Dim3 grid,
      Dim3 block,
      int sharedMemBytes,
      KernelArguments arguments) {
    checks.usable(DriverCall.GRAPH_EXEC_KERNEL_NODE_SET_PARAMS, exec, function);
    super.graphExecKernelNodeSetParams(
        exec, node, function, grid, block, sharedMemBytes, arguments);
  }

  @Override
  public void graphExecMemcpyNodeSetParams(
      CuGraphExec exec,
      CuGraphNode node,
      CopyEndpoint destination,
      CopyEndpoint source,
      long bytes) {
    DriverCall call = DriverCall.GRAPH_EXEC_MEMCPY_NODE_SET_PARAMS;
    checks.usable(call, exec);
    for (CopyEndpoint endpoint : List.of(destination, source)) {
      switch (endpoint) {
        case CopyEndpoint.Device d -> checks.accessible(call, d.address());
        case CopyEndpoint.Host h -> checks.accessibleHost(call, h.memory());
      }
    }
    super.graphExecMemcpyNodeSetParams(exec, node, destination, source, bytes);
  }

  @Override
  public void graphExecMemsetNodeSetParams(
      CuGraphExec exec,
      CuGraphNode node,
      long destination,
      int elementSize,
      int value,
      long count) {
    DriverCall call = DriverCall.GRAPH_EXEC_MEMSET_NODE_SET_PARAMS;
    checks.usable(call, exec);
    checks.accessible(call, destination);
    super.graphExecMemsetNodeSetParams(exec, node, destination, elementSize, value, count);
  }

  @Override
  public void graphNodeSetEnabled(CuGraphExec exec, CuGraphNode node, boolean enabled) {
    checks.usable(DriverCall.GRAPH_NODE_SET_ENABLED, exec);
    super.graphNodeSetEnabled(exec, node, enabled);
  }

  @Override
  public boolean graphNodeGetEnabled(CuGraphExec exec, CuGraphNode node) {
    checks.usable(DriverCall.GRAPH_NODE_GET_ENABLED, exec);
    return super.graphNodeGetEnabled(exec, node);
  }

  @Override
  public ConditionalHandle graphConditionalHandleCreate(
      CuGraph graph, int defaultLaunchValue, int flags) {
    checks.usable(DriverCall.GRAPH_CONDITIONAL_HANDLE_CREATE, graph);
    return super.graphConditionalHandleCreate(graph, defaultLaunchValue, flags);
  }

  @Override
  public ConditionalNode graphAddConditionalNode(
      CuGraph graph,
      List<CuGraphNode> dependencies,
      ConditionalHandle handle,
      ConditionalType type,
      int size) {
    checks.usable(DriverCall.GRAPH_ADD_NODE, graph);
    ConditionalNode node = super.graphAddConditionalNode(graph, dependencies, handle, type, size);
    // The driver made the bodies, which belong to the node and so to the graph.
    for (CuGraph body : node.bodies()) {
      ledger.lent(body, graph);
    }
    return node;
  }

  @Override
  public CuGraphNode graphAddChildGraphNode(
      CuGraph graph, List<CuGraphNode> dependencies, CuGraph child) {
    // The node holds a clone of the child: the child stays the caller's, to destroy.
    checks.usable(DriverCall.GRAPH_ADD_CHILD_GRAPH_NODE, graph, child);
    return super.graphAddChildGraphNode(graph, dependencies, child);
  }

  @Override
  public void graphExecChildGraphNodeSetParams(CuGraphExec exec, CuGraphNode node, CuGraph child) {
    checks.usable(DriverCall.GRAPH_EXEC_CHILD_GRAPH_NODE_SET_PARAMS, exec, child);
    super.graphExecChildGraphNodeSetParams(exec, node, child);
  }

  @Override
  public List<CuGraphNode> graphGetNodes(CuGraph graph) {
    checks.usable(DriverCall.GRAPH_GET_NODES, graph);
    return super.graphGetNodes(graph);
  }

  @Override
  public void graphDebugDotPrint(CuGraph graph, Path path, int flags) {
    checks.usable(DriverCall.GRAPH_DEBUG_DOT_PRINT, graph);
    super.graphDebugDotPrint(graph, path, flags);
  }

  @Override
  public String toString() {
    return "InstrumentedDriver[" + delegate() + "]";
  }

  private @Nullable CuGraph captureGraphQuietly(CuStream stream) {
    try {
      return delegate().streamGetCaptureInfo(stream).graph();
    } catch (CudaDriverException e) {
      return null;
    }
  }

  private boolean capturingQuietly(CuStream stream) {
    try {
      return delegate().streamIsCapturing(stream) != CaptureStatus.NONE;
    } catch (CudaDriverException e) {
      return false;
    }
  }
}
