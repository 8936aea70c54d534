// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 the cuda-graph authors
package cuda.graph.testkit;

import static org.apiguardian.api.API.Status.EXPERIMENTAL;

import cuda.graph.spi.CaptureInfo;
import cuda.graph.spi.CaptureMode;
import cuda.graph.spi.CaptureStatus;
import cuda.graph.spi.ConditionalHandle;
import cuda.graph.spi.ConditionalNode;
import cuda.graph.spi.ConditionalType;
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
import cuda.graph.spi.HandleKind;
import cuda.graph.spi.ModuleImage;
import cuda.graph.spi.support.ForwardingCudaDriver;
import cuda.graph.testkit.LoggedCall.Outcome;
import java.lang.foreign.MemorySegment;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import org.apiguardian.api.API;
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
 * call reaches neither the fault plan nor the driver. The checks run in the {@linkplain
 * #before(DriverCall, Object[]) before hook}, the same for every entry point: each handle, device
 * pointer and pinned host segment among the call's arguments must not have been destroyed or freed
 * (a destroy or free call's own handle or memory must not have been, a second time). Everything
 * else passes through unchanged, so a caller that is correct on the wrapped driver is correct
 * through the decorator. Faults are injected at the call boundary only: work a stream runs later
 * fails only as the wrapped driver makes it fail. {@link #close()} closes the wrapped driver; the
 * instruments stay readable. Thread-safe, as the wrapped driver is.
 *
 * @since 0.1.0
 */
@API(status = EXPERIMENTAL, since = "0.1.0")
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

  // ---- every call: the lifetime checks, fault injection and the log

  @Override
  protected void before(DriverCall call, @Nullable Object[] arguments) {
    // Every handle, pointer and pinned segment a call takes is checked here, once for all calls.
    // The overrides below check only what ends a lifetime (a destroy, a free, a context release)
    // and count what a call created or ended once it has returned.
    checks.arguments(call, arguments);
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
  public void streamBeginCapture(CuStream stream, CaptureMode mode) {
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
    Capture capture = captures.get(stream);
    CuGraph graph;
    try {
      graph = super.streamEndCapture(stream);
    } catch (LifetimeViolation refused) {
      throw refused; // the driver never saw the call: whatever capture there is goes on
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
    super.streamBeginCaptureToGraph(stream, graph, dependencies, mode);
    captures.put(stream, new Capture(graph, true));
  }

  @Override
  public CaptureInfo streamGetCaptureInfo(CuStream stream) {
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
    // Checked before the capture query below, so that not even the query sees a dead stream.
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
    // Checked before the capture query below, so that not even the query sees a dead stream.
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
    CuFunction function = super.moduleGetFunction(module, name);
    checks.functionReturned(call, module, function);
    return function;
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
    return checks.created(DriverCall.GRAPH_INSTANTIATE, super.graphInstantiate(graph, flags));
  }

  @Override
  public void graphExecDestroy(CuGraphExec exec) {
    checks.destroy(DriverCall.GRAPH_EXEC_DESTROY, exec, () -> super.graphExecDestroy(exec));
  }

  @Override
  public ConditionalNode graphAddConditionalNode(
      CuGraph graph,
      List<CuGraphNode> dependencies,
      ConditionalHandle handle,
      ConditionalType type,
      int size) {
    ConditionalNode node = super.graphAddConditionalNode(graph, dependencies, handle, type, size);
    // The driver made the bodies, which belong to the node and so to the graph.
    for (CuGraph body : node.bodies()) {
      ledger.lent(body, graph);
    }
    return node;
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
