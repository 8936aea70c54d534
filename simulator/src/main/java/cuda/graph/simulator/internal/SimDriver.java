package cuda.graph.simulator.internal;

import cuda.graph.simulator.CallLog;
import cuda.graph.simulator.FaultInjector;
import cuda.graph.simulator.HandleLedger;
import cuda.graph.simulator.SimulatedDriver;
import cuda.graph.simulator.SimulatorSettings;
import cuda.graph.simulator.UndefinedBehaviorException;
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
import cuda.graph.spi.CuResult;
import cuda.graph.spi.CuStream;
import cuda.graph.spi.CudaDriverException;
import cuda.graph.spi.Dim3;
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
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.function.Supplier;
import org.jspecify.annotations.Nullable;

/**
 * The simulated driver: each SPI call goes through one funnel that refuses calls from host
 * functions, applies injected faults, takes the simulator lock, logs the call with its status and
 * lets the engine progress. The behaviour of each call lives in the {@code *Calls} classes.
 */
public final class SimDriver implements SimulatedDriver {

  private final SimState state;
  private final RecordingCallLog calls = new RecordingCallLog();
  private final InjectedFaults faults = new InjectedFaults();
  private final DeviceCalls devices;
  private final StreamCalls streams;
  private final EventCalls events;
  private final CaptureCalls captures;
  private final MemoryCalls memory;
  private final ModuleCalls modules;
  private final GraphCalls graphs;
  private final HandleLedger ledger;
  private final RuntimeCompiler compiler = new SimulatedCompiler();

  public SimDriver(SimulatorSettings settings) {
    this.state = new SimState(settings);
    this.devices = new DeviceCalls(state);
    this.streams = new StreamCalls(state);
    this.events = new EventCalls(state);
    this.captures = new CaptureCalls(state);
    this.memory = new MemoryCalls(state);
    this.modules = new ModuleCalls(state);
    this.graphs = new GraphCalls(state);
    this.ledger = new LockedLedger();
  }

  // ---- the funnel

  private <T> T call(DriverCall call, Supplier<String> arguments, Supplier<T> body) {
    return call(call, arguments, false, body);
  }

  private <T> T call(DriverCall call, Supplier<String> arguments, boolean query, Supplier<T> body) {
    enter(call, arguments);
    int status = 0;
    state.lock.lock();
    try {
      T result = body.get();
      state.engine.afterCall(query);
      return result;
    } catch (CudaDriverException e) {
      status = e.status();
      throw e;
    } catch (UndefinedBehaviorException e) {
      status = CuResult.UNKNOWN;
      throw e;
    } finally {
      state.lock.unlock();
      calls.record(call, arguments, status);
    }
  }

  private void run(DriverCall call, Supplier<String> arguments, Runnable body) {
    call(
        call,
        arguments,
        () -> {
          body.run();
          return null;
        });
  }

  /** A call that waits: checks under the lock, waits without it, then reports a sticky error. */
  private void waitCall(
      DriverCall call,
      Supplier<String> arguments,
      Supplier<Completion> prepare,
      Supplier<SimContext> context) {
    enter(call, arguments);
    int status = 0;
    try {
      Completion completion;
      SimContext ctx;
      state.lock.lock();
      try {
        completion = prepare.get();
        ctx = context.get();
      } finally {
        state.lock.unlock();
      }
      state.engine.await(completion);
      state.checkSticky(ctx, call);
    } catch (CudaDriverException e) {
      status = e.status();
      throw e;
    } catch (UndefinedBehaviorException e) {
      status = CuResult.UNKNOWN;
      throw e;
    } finally {
      calls.record(call, arguments, status);
    }
  }

  private void enter(DriverCall call, Supplier<String> arguments) {
    if (state.inHostFunction.get()) {
      calls.record(call, arguments, CuResult.NOT_PERMITTED);
      throw new CudaDriverException(
          CuResult.NOT_PERMITTED, call, "host functions must not call the CUDA driver");
    }
    int injected = faults.check(call);
    if (injected != 0) {
      calls.record(call, arguments, injected);
      throw new CudaDriverException(injected, call, "injected fault");
    }
  }

  private static String hex(long value) {
    return "0x" + Long.toHexString(value);
  }

  // ---- instruments

  @Override
  public SimulatorSettings settings() {
    return state.settings;
  }

  @Override
  public HandleLedger handles() {
    return ledger;
  }

  @Override
  public CallLog calls() {
    return calls;
  }

  @Override
  public FaultInjector faults() {
    return faults;
  }

  /** The ledger, read under the simulator lock. */
  private final class LockedLedger implements HandleLedger {
    @Override
    public long created(HandleKind kind) {
      return state.handles.created(kind);
    }

    @Override
    public long destroyed(HandleKind kind) {
      return state.handles.destroyed(kind);
    }

    @Override
    public Map<HandleKind, Long> liveCounts() {
      state.lock.lock();
      try {
        return state.handles.liveCounts();
      } finally {
        state.lock.unlock();
      }
    }

    @Override
    public List<CuHandle> liveHandles(HandleKind kind) {
      state.lock.lock();
      try {
        return state.handles.liveHandles(kind);
      } finally {
        state.lock.unlock();
      }
    }
  }

  // ---- initialization, versions, errors

  @Override
  public void init(int flags) {
    run(DriverCall.INIT, () -> "flags=" + flags, () -> devices.init(flags));
  }

  @Override
  public int driverGetVersion() {
    return call(DriverCall.DRIVER_GET_VERSION, () -> "", () -> DeviceCalls.DRIVER_VERSION);
  }

  @Override
  public Optional<String> getErrorName(int status) {
    return CuResult.nameOf(status);
  }

  @Override
  public Optional<String> getErrorString(int status) {
    return CuResult.descriptionOf(status);
  }

  // ---- devices and contexts

  @Override
  public int deviceGetCount() {
    return call(DriverCall.DEVICE_GET_COUNT, () -> "", devices::deviceGetCount);
  }

  @Override
  public int deviceGet(int ordinal) {
    return call(
        DriverCall.DEVICE_GET, () -> "ordinal=" + ordinal, () -> devices.deviceGet(ordinal));
  }

  @Override
  public String deviceGetName(int device) {
    return call(
        DriverCall.DEVICE_GET_NAME, () -> "device=" + device, () -> devices.deviceGetName(device));
  }

  @Override
  public int deviceGetAttribute(int attribute, int device) {
    return call(
        DriverCall.DEVICE_GET_ATTRIBUTE,
        () -> "attribute=" + attribute + ", device=" + device,
        () -> devices.deviceGetAttribute(attribute, device));
  }

  @Override
  public long deviceTotalMem(int device) {
    return call(
        DriverCall.DEVICE_TOTAL_MEM,
        () -> "device=" + device,
        () -> devices.deviceTotalMem(device));
  }

  @Override
  public CuContext devicePrimaryCtxRetain(int device) {
    return call(
        DriverCall.DEVICE_PRIMARY_CTX_RETAIN,
        () -> "device=" + device,
        () -> devices.primaryCtxRetain(device));
  }

  @Override
  public void devicePrimaryCtxRelease(int device) {
    run(
        DriverCall.DEVICE_PRIMARY_CTX_RELEASE,
        () -> "device=" + device,
        () -> devices.primaryCtxRelease(device));
  }

  @Override
  public void ctxSetCurrent(@Nullable CuContext context) {
    run(
        DriverCall.CTX_SET_CURRENT,
        () -> String.valueOf(context),
        () -> devices.ctxSetCurrent(context));
  }

  @Override
  public @Nullable CuContext ctxGetCurrent() {
    return call(DriverCall.CTX_GET_CURRENT, () -> "", devices::ctxGetCurrent);
  }

  // ---- streams

  @Override
  public CuStream streamCreate(int flags) {
    return call(DriverCall.STREAM_CREATE, () -> "flags=" + flags, () -> streams.create(flags));
  }

  @Override
  public void streamDestroy(CuStream stream) {
    run(DriverCall.STREAM_DESTROY, stream::toString, () -> streams.destroy(stream));
  }

  @Override
  public void streamSynchronize(CuStream stream) {
    DriverCall call = DriverCall.STREAM_SYNCHRONIZE;
    SimContext[] context = new SimContext[1];
    waitCall(
        call,
        stream::toString,
        () -> {
          Completion c = streams.prepareWait(stream, call);
          context[0] = state.stream(stream, call).context;
          return c;
        },
        () -> context[0]);
  }

  @Override
  public boolean streamQuery(CuStream stream) {
    DriverCall call = DriverCall.STREAM_QUERY;
    return call(call, stream::toString, true, () -> streams.query(stream));
  }

  @Override
  public void streamWaitEvent(CuStream stream, CuEvent event, int flags) {
    run(
        DriverCall.STREAM_WAIT_EVENT,
        () -> stream + ", " + event + ", flags=" + flags,
        () -> events.streamWaitEvent(stream, event, flags));
  }

  @Override
  public void launchHostFunc(CuStream stream, HostFunction function) {
    run(
        DriverCall.LAUNCH_HOST_FUNC,
        stream::toString,
        () -> streams.launchHostFunc(stream, function));
  }

  // ---- capture

  @Override
  public void streamBeginCapture(CuStream stream, CaptureMode mode) {
    run(
        DriverCall.STREAM_BEGIN_CAPTURE,
        () -> stream + ", " + mode,
        () -> captures.begin(stream, mode));
  }

  @Override
  public @Nullable CuGraph streamEndCapture(CuStream stream) {
    return call(DriverCall.STREAM_END_CAPTURE, stream::toString, () -> captures.end(stream));
  }

  @Override
  public CaptureStatus streamIsCapturing(CuStream stream) {
    return call(
        DriverCall.STREAM_IS_CAPTURING, stream::toString, () -> captures.isCapturing(stream));
  }

  @Override
  public CaptureInfo streamGetCaptureInfo(CuStream stream) {
    return call(DriverCall.STREAM_GET_CAPTURE_INFO, stream::toString, () -> captures.info(stream));
  }

  @Override
  public CaptureMode threadExchangeStreamCaptureMode(CaptureMode mode) {
    return call(
        DriverCall.THREAD_EXCHANGE_STREAM_CAPTURE_MODE,
        mode::toString,
        () -> captures.exchangeMode(mode));
  }

  // ---- events

  @Override
  public CuEvent eventCreate(int flags) {
    return call(DriverCall.EVENT_CREATE, () -> "flags=" + flags, () -> events.create(flags));
  }

  @Override
  public void eventDestroy(CuEvent event) {
    run(DriverCall.EVENT_DESTROY, event::toString, () -> events.destroy(event));
  }

  @Override
  public void eventRecord(CuEvent event, CuStream stream) {
    run(
        DriverCall.EVENT_RECORD,
        () -> event + ", " + stream,
        () -> events.record(event, stream, 0, DriverCall.EVENT_RECORD));
  }

  @Override
  public void eventRecordWithFlags(CuEvent event, CuStream stream, int flags) {
    run(
        DriverCall.EVENT_RECORD_WITH_FLAGS,
        () -> event + ", " + stream + ", flags=" + flags,
        () -> events.record(event, stream, flags, DriverCall.EVENT_RECORD_WITH_FLAGS));
  }

  @Override
  public boolean eventQuery(CuEvent event) {
    DriverCall call = DriverCall.EVENT_QUERY;
    return call(call, event::toString, true, () -> events.query(event));
  }

  @Override
  public void eventSynchronize(CuEvent event) {
    DriverCall call = DriverCall.EVENT_SYNCHRONIZE;
    SimContext[] context = new SimContext[1];
    waitCall(
        call,
        event::toString,
        () -> {
          Completion c = events.prepareWait(event, call);
          context[0] = state.resolve(event, SimEvent.class, call).context;
          return c;
        },
        () -> context[0]);
  }

  @Override
  public float eventElapsedTime(CuEvent start, CuEvent end) {
    return call(
        DriverCall.EVENT_ELAPSED_TIME,
        () -> start + ", " + end,
        true,
        () -> events.elapsedTime(start, end));
  }

  // ---- memory

  @Override
  public long memAlloc(long bytes) {
    return call(DriverCall.MEM_ALLOC, () -> "bytes=" + bytes, () -> memory.alloc(bytes));
  }

  @Override
  public void memFree(long devicePointer) {
    run(DriverCall.MEM_FREE, () -> hex(devicePointer), () -> memory.free(devicePointer));
  }

  @Override
  public long memAllocAsync(long bytes, CuStream stream) {
    return call(
        DriverCall.MEM_ALLOC_ASYNC,
        () -> "bytes=" + bytes + ", " + stream,
        () -> memory.allocAsync(bytes, stream));
  }

  @Override
  public void memFreeAsync(long devicePointer, CuStream stream) {
    run(
        DriverCall.MEM_FREE_ASYNC,
        () -> hex(devicePointer) + ", " + stream,
        () -> memory.freeAsync(devicePointer, stream));
  }

  @Override
  public MemorySegment memAllocHost(long bytes) {
    return call(DriverCall.MEM_ALLOC_HOST, () -> "bytes=" + bytes, () -> memory.allocHost(bytes));
  }

  @Override
  public void memFreeHost(MemorySegment hostMemory) {
    run(
        DriverCall.MEM_FREE_HOST,
        () -> hex(hostMemory.address()),
        () -> memory.freeHost(hostMemory));
  }

  @Override
  public MemoryInfo memGetInfo() {
    return call(DriverCall.MEM_GET_INFO, () -> "", memory::info);
  }

  @Override
  public void memcpyHtoD(long dst, MemorySegment src, long bytes) {
    DriverCall call = DriverCall.MEMCPY_HTOD;
    SimContext[] context = new SimContext[1];
    waitCall(
        call,
        () -> hex(dst) + ", " + hex(src.address()) + ", " + bytes,
        () -> {
          SimState.checkHost(src, bytes, call);
          state.currentContext(call);
          state.checkDevice(dst, bytes, call);
          context[0] = state.current.get();
          return memory.copySync(new Op.HostToDevice(dst, src, bytes), call);
        },
        () -> context[0]);
  }

  @Override
  public void memcpyDtoH(MemorySegment dst, long src, long bytes) {
    DriverCall call = DriverCall.MEMCPY_DTOH;
    SimContext[] context = new SimContext[1];
    waitCall(
        call,
        () -> hex(dst.address()) + ", " + hex(src) + ", " + bytes,
        () -> {
          SimState.checkHost(dst, bytes, call);
          state.currentContext(call);
          state.checkDevice(src, bytes, call);
          context[0] = state.current.get();
          return memory.copySync(new Op.DeviceToHost(dst, src, bytes), call);
        },
        () -> context[0]);
  }

  @Override
  public void memcpyHtoDAsync(long dst, MemorySegment src, long bytes, CuStream stream) {
    DriverCall call = DriverCall.MEMCPY_HTOD_ASYNC;
    run(
        call,
        () -> hex(dst) + ", " + hex(src.address()) + ", " + bytes + ", " + stream,
        () -> {
          SimState.checkHost(src, bytes, call);
          state.requireInit(call);
          state.checkDevice(dst, bytes, call);
          memory.copyAsync(new Op.HostToDevice(dst, src, bytes), stream, call);
        });
  }

  @Override
  public void memcpyDtoHAsync(MemorySegment dst, long src, long bytes, CuStream stream) {
    DriverCall call = DriverCall.MEMCPY_DTOH_ASYNC;
    run(
        call,
        () -> hex(dst.address()) + ", " + hex(src) + ", " + bytes + ", " + stream,
        () -> {
          SimState.checkHost(dst, bytes, call);
          state.requireInit(call);
          state.checkDevice(src, bytes, call);
          memory.copyAsync(new Op.DeviceToHost(dst, src, bytes), stream, call);
        });
  }

  @Override
  public void memcpyDtoDAsync(long dst, long src, long bytes, CuStream stream) {
    DriverCall call = DriverCall.MEMCPY_DTOD_ASYNC;
    run(
        call,
        () -> hex(dst) + ", " + hex(src) + ", " + bytes + ", " + stream,
        () -> {
          state.requireInit(call);
          state.checkDevice(dst, bytes, call);
          state.checkDevice(src, bytes, call);
          memory.copyAsync(new Op.DeviceToDevice(dst, src, bytes), stream, call);
        });
  }

  @Override
  public void memsetD8Async(long dst, byte value, long count, CuStream stream) {
    DriverCall call = DriverCall.MEMSET_D8_ASYNC;
    run(
        call,
        () -> hex(dst) + ", " + value + ", " + count + ", " + stream,
        () -> memory.memsetAsync(dst, count, value & 0xff, 1, count, 1, stream, call));
  }

  @Override
  public void memsetD16Async(long dst, short value, long count, CuStream stream) {
    DriverCall call = DriverCall.MEMSET_D16_ASYNC;
    run(
        call,
        () -> hex(dst) + ", " + value + ", " + count + ", " + stream,
        () -> memory.memsetAsync(dst, count * 2, value & 0xffff, 2, count, 1, stream, call));
  }

  @Override
  public void memsetD32Async(long dst, int value, long count, CuStream stream) {
    DriverCall call = DriverCall.MEMSET_D32_ASYNC;
    run(
        call,
        () -> hex(dst) + ", " + value + ", " + count + ", " + stream,
        () -> memory.memsetAsync(dst, count * 4, value, 4, count, 1, stream, call));
  }

  @Override
  public void memsetD2D32Async(
      long dst, long pitch, int value, long width, long height, CuStream stream) {
    DriverCall call = DriverCall.MEMSET_D2D32_ASYNC;
    run(
        call,
        () ->
            hex(dst)
                + ", pitch "
                + pitch
                + ", "
                + value
                + ", "
                + width
                + " x "
                + height
                + ", "
                + stream,
        () -> memory.memsetAsync(dst, pitch, value, 4, width, height, stream, call));
  }

  // ---- modules and kernels

  @Override
  public Optional<RuntimeCompiler> runtimeCompiler() {
    return Optional.of(compiler);
  }

  @Override
  public CuModule moduleLoadData(ModuleImage image) {
    return call(DriverCall.MODULE_LOAD_DATA, image::toString, () -> modules.load(image));
  }

  @Override
  public void moduleUnload(CuModule module) {
    run(DriverCall.MODULE_UNLOAD, module::toString, () -> modules.unload(module));
  }

  @Override
  public CuFunction moduleGetFunction(CuModule module, String name) {
    return call(
        DriverCall.MODULE_GET_FUNCTION,
        () -> module + ", " + name,
        () -> modules.function(module, name));
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
    Dim3 grid = new Dim3(gridX, gridY, gridZ);
    Dim3 block = new Dim3(blockX, blockY, blockZ);
    run(
        DriverCall.LAUNCH_KERNEL,
        () ->
            function
                + ", grid "
                + grid
                + ", block "
                + block
                + ", smem "
                + sharedMemBytes
                + ", "
                + stream,
        () -> modules.launch(function, grid, block, sharedMemBytes, stream, arguments));
  }

  // ---- graphs

  @Override
  public CuGraph graphCreate(int flags) {
    return call(DriverCall.GRAPH_CREATE, () -> "flags=" + flags, () -> graphs.create(flags));
  }

  @Override
  public void graphDestroy(CuGraph graph) {
    run(DriverCall.GRAPH_DESTROY, graph::toString, () -> graphs.destroy(graph));
  }

  @Override
  public CuGraphExec graphInstantiate(CuGraph graph, long flags) {
    return call(
        DriverCall.GRAPH_INSTANTIATE,
        () -> graph + ", flags=" + flags,
        () -> graphs.instantiate(graph, flags));
  }

  @Override
  public void graphUpload(CuGraphExec exec, CuStream stream) {
    run(DriverCall.GRAPH_UPLOAD, () -> exec + ", " + stream, () -> graphs.upload(exec, stream));
  }

  @Override
  public void graphLaunch(CuGraphExec exec, CuStream stream) {
    run(DriverCall.GRAPH_LAUNCH, () -> exec + ", " + stream, () -> graphs.launch(exec, stream));
  }

  @Override
  public void graphExecDestroy(CuGraphExec exec) {
    run(DriverCall.GRAPH_EXEC_DESTROY, exec::toString, () -> graphs.destroyExec(exec));
  }

  @Override
  public void graphExecUpdate(CuGraphExec exec, CuGraph graph) {
    run(DriverCall.GRAPH_EXEC_UPDATE, () -> exec + ", " + graph, () -> graphs.update(exec, graph));
  }

  @Override
  public List<CuGraphNode> graphGetNodes(CuGraph graph) {
    return call(DriverCall.GRAPH_GET_NODES, graph::toString, () -> graphs.nodes(graph));
  }

  @Override
  public GraphNodeType graphNodeGetType(CuGraphNode node) {
    return call(DriverCall.GRAPH_NODE_GET_TYPE, node::toString, () -> graphs.nodeType(node));
  }

  @Override
  public void graphDebugDotPrint(CuGraph graph, Path path, int flags) {
    run(
        DriverCall.GRAPH_DEBUG_DOT_PRINT,
        () -> graph + ", " + path,
        () -> graphs.dot(graph, path, flags));
  }

  @Override
  public void close() {
    state.lock.lock();
    try {
      if (!state.closed) {
        state.closed = true;
        state.engine.shutdown();
      }
    } finally {
      state.lock.unlock();
    }
  }

  @Override
  public String toString() {
    return "SimulatedDriver" + state.settings;
  }
}
