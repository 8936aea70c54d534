// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 the cuda-graph authors
package cuda.graph.simulator.internal;

import cuda.graph.simulator.SimulatedDriver;
import cuda.graph.simulator.SimulatorSettings;
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
import cuda.graph.spi.CuModule;
import cuda.graph.spi.CuResult;
import cuda.graph.spi.CuStream;
import cuda.graph.spi.CudaDriverException;
import cuda.graph.spi.Dim3;
import cuda.graph.spi.DriverCall;
import cuda.graph.spi.GraphMemAttribute;
import cuda.graph.spi.GraphNodeType;
import cuda.graph.spi.HostFunction;
import cuda.graph.spi.KernelArguments;
import cuda.graph.spi.MemoryInfo;
import cuda.graph.spi.ModuleImage;
import cuda.graph.spi.ParamInfo;
import cuda.graph.spi.RuntimeCompiler;
import java.lang.foreign.MemorySegment;
import java.nio.file.Path;
import java.util.List;
import java.util.Optional;
import java.util.function.Supplier;
import org.jspecify.annotations.Nullable;

/**
 * The simulated driver: each SPI call goes through one funnel that refuses calls from host
 * functions, takes the simulator lock and lets the engine progress. The behaviour of each call
 * lives in the {@code *Calls} classes. Call logs, fault injection and live-handle accounting are
 * not the model's: they decorate any driver ({@code cuda.graph.testkit.InstrumentedDriver}).
 */
public final class SimDriver implements SimulatedDriver {

  private final SimState state;
  private final DeviceCalls devices;
  private final StreamCalls streams;
  private final EventCalls events;
  private final CaptureCalls captures;
  private final MemoryCalls memory;
  private final ModuleCalls modules;
  private final GraphCalls graphs;
  private final ConditionalCalls conditionals;
  private final ExecNodeCalls execNodes;
  private final ChildGraphCalls children;
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
    this.conditionals = new ConditionalCalls(state);
    this.execNodes = new ExecNodeCalls(state);
    this.children = new ChildGraphCalls(state);
  }

  // ---- the funnel

  private <T> T call(DriverCall call, Supplier<T> body) {
    return call(call, false, body);
  }

  private <T> T call(DriverCall call, boolean query, Supplier<T> body) {
    enter(call);
    state.lock.lock();
    try {
      T result = body.get();
      state.engine.afterCall(query);
      return result;
    } finally {
      state.lock.unlock();
    }
  }

  private void run(DriverCall call, Runnable body) {
    call(
        call,
        () -> {
          body.run();
          return null;
        });
  }

  /** A call that waits: checks under the lock, waits without it, then reports a sticky error. */
  private void waitCall(
      DriverCall call, Supplier<Completion> prepare, Supplier<SimContext> context) {
    enter(call);
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
  }

  private void enter(DriverCall call) {
    if (state.inHostFunction.get()) {
      throw new CudaDriverException(
          CuResult.NOT_PERMITTED, call, "host functions must not call the CUDA driver");
    }
  }

  @Override
  public SimulatorSettings settings() {
    return state.settings;
  }

  // ---- initialization, versions, errors

  @Override
  public void init(int flags) {
    run(DriverCall.INIT, () -> devices.init(flags));
  }

  @Override
  public int driverGetVersion() {
    return call(DriverCall.DRIVER_GET_VERSION, () -> DeviceCalls.DRIVER_VERSION);
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
    return call(DriverCall.DEVICE_GET_COUNT, devices::deviceGetCount);
  }

  @Override
  public int deviceGet(int ordinal) {
    return call(DriverCall.DEVICE_GET, () -> devices.deviceGet(ordinal));
  }

  @Override
  public String deviceGetName(int device) {
    return call(DriverCall.DEVICE_GET_NAME, () -> devices.deviceGetName(device));
  }

  @Override
  public int deviceGetAttribute(int attribute, int device) {
    return call(
        DriverCall.DEVICE_GET_ATTRIBUTE, () -> devices.deviceGetAttribute(attribute, device));
  }

  @Override
  public long deviceTotalMem(int device) {
    return call(DriverCall.DEVICE_TOTAL_MEM, () -> devices.deviceTotalMem(device));
  }

  @Override
  public CuContext devicePrimaryCtxRetain(int device) {
    return call(DriverCall.DEVICE_PRIMARY_CTX_RETAIN, () -> devices.primaryCtxRetain(device));
  }

  @Override
  public void devicePrimaryCtxRelease(int device) {
    run(DriverCall.DEVICE_PRIMARY_CTX_RELEASE, () -> devices.primaryCtxRelease(device));
  }

  @Override
  public void ctxSetCurrent(@Nullable CuContext context) {
    run(DriverCall.CTX_SET_CURRENT, () -> devices.ctxSetCurrent(context));
  }

  @Override
  public @Nullable CuContext ctxGetCurrent() {
    return call(DriverCall.CTX_GET_CURRENT, devices::ctxGetCurrent);
  }

  // ---- graph memory of a device

  @Override
  public long deviceGetGraphMemAttribute(int device, GraphMemAttribute attribute) {
    return call(
        DriverCall.DEVICE_GET_GRAPH_MEM_ATTRIBUTE,
        () -> devices.graphMemAttribute(device, attribute));
  }

  @Override
  public void deviceSetGraphMemAttribute(int device, GraphMemAttribute attribute, long value) {
    run(
        DriverCall.DEVICE_SET_GRAPH_MEM_ATTRIBUTE,
        () -> devices.setGraphMemAttribute(device, attribute, value));
  }

  @Override
  public void deviceGraphMemTrim(int device) {
    run(DriverCall.DEVICE_GRAPH_MEM_TRIM, () -> devices.graphMemTrim(device));
  }

  // ---- streams

  @Override
  public CuStream streamCreate(int flags) {
    return call(DriverCall.STREAM_CREATE, () -> streams.create(flags));
  }

  @Override
  public void streamDestroy(CuStream stream) {
    run(DriverCall.STREAM_DESTROY, () -> streams.destroy(stream));
  }

  @Override
  public void streamSynchronize(CuStream stream) {
    DriverCall call = DriverCall.STREAM_SYNCHRONIZE;
    SimContext[] context = new SimContext[1];
    waitCall(
        call,
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
    return call(call, true, () -> streams.query(stream));
  }

  @Override
  public void streamWaitEvent(CuStream stream, CuEvent event, int flags) {
    run(DriverCall.STREAM_WAIT_EVENT, () -> events.streamWaitEvent(stream, event, flags));
  }

  @Override
  public void launchHostFunc(CuStream stream, HostFunction function) {
    run(DriverCall.LAUNCH_HOST_FUNC, () -> streams.launchHostFunc(stream, function));
  }

  // ---- capture

  @Override
  public void streamBeginCapture(CuStream stream, CaptureMode mode) {
    run(DriverCall.STREAM_BEGIN_CAPTURE, () -> captures.begin(stream, mode));
  }

  @Override
  public @Nullable CuGraph streamEndCapture(CuStream stream) {
    return call(DriverCall.STREAM_END_CAPTURE, () -> captures.end(stream));
  }

  @Override
  public CaptureStatus streamIsCapturing(CuStream stream) {
    return call(DriverCall.STREAM_IS_CAPTURING, () -> captures.isCapturing(stream));
  }

  @Override
  public CaptureInfo streamGetCaptureInfo(CuStream stream) {
    return call(DriverCall.STREAM_GET_CAPTURE_INFO, () -> captures.info(stream));
  }

  @Override
  public void streamBeginCaptureToGraph(
      CuStream stream, CuGraph graph, List<CuGraphNode> dependencies, CaptureMode mode) {
    run(
        DriverCall.STREAM_BEGIN_CAPTURE_TO_GRAPH,
        () -> captures.beginToGraph(stream, graph, dependencies, mode));
  }

  @Override
  public void streamUpdateCaptureDependencies(
      CuStream stream, List<CuGraphNode> dependencies, int flags) {
    run(
        DriverCall.STREAM_UPDATE_CAPTURE_DEPENDENCIES,
        () -> captures.updateDependencies(stream, dependencies, flags));
  }

  @Override
  public CaptureMode threadExchangeStreamCaptureMode(CaptureMode mode) {
    return call(DriverCall.THREAD_EXCHANGE_STREAM_CAPTURE_MODE, () -> captures.exchangeMode(mode));
  }

  // ---- events

  @Override
  public CuEvent eventCreate(int flags) {
    return call(DriverCall.EVENT_CREATE, () -> events.create(flags));
  }

  @Override
  public void eventDestroy(CuEvent event) {
    run(DriverCall.EVENT_DESTROY, () -> events.destroy(event));
  }

  @Override
  public void eventRecord(CuEvent event, CuStream stream) {
    run(DriverCall.EVENT_RECORD, () -> events.record(event, stream, 0, DriverCall.EVENT_RECORD));
  }

  @Override
  public void eventRecordWithFlags(CuEvent event, CuStream stream, int flags) {
    run(
        DriverCall.EVENT_RECORD_WITH_FLAGS,
        () -> events.record(event, stream, flags, DriverCall.EVENT_RECORD_WITH_FLAGS));
  }

  @Override
  public boolean eventQuery(CuEvent event) {
    DriverCall call = DriverCall.EVENT_QUERY;
    return call(call, true, () -> events.query(event));
  }

  @Override
  public void eventSynchronize(CuEvent event) {
    DriverCall call = DriverCall.EVENT_SYNCHRONIZE;
    SimContext[] context = new SimContext[1];
    waitCall(
        call,
        () -> {
          Completion c = events.prepareWait(event, call);
          context[0] = state.resolve(event, SimEvent.class, call).context;
          return c;
        },
        () -> context[0]);
  }

  @Override
  public float eventElapsedTime(CuEvent start, CuEvent end) {
    return call(DriverCall.EVENT_ELAPSED_TIME, true, () -> events.elapsedTime(start, end));
  }

  // ---- memory

  @Override
  public long memAlloc(long bytes) {
    return call(DriverCall.MEM_ALLOC, () -> memory.alloc(bytes));
  }

  @Override
  public void memFree(long devicePointer) {
    run(DriverCall.MEM_FREE, () -> memory.free(devicePointer));
  }

  @Override
  public long memAllocAsync(long bytes, CuStream stream) {
    return call(DriverCall.MEM_ALLOC_ASYNC, () -> memory.allocAsync(bytes, stream));
  }

  @Override
  public void memFreeAsync(long devicePointer, CuStream stream) {
    run(DriverCall.MEM_FREE_ASYNC, () -> memory.freeAsync(devicePointer, stream));
  }

  @Override
  public MemorySegment memAllocHost(long bytes) {
    return call(DriverCall.MEM_ALLOC_HOST, () -> memory.allocHost(bytes));
  }

  @Override
  public void memFreeHost(MemorySegment hostMemory) {
    run(DriverCall.MEM_FREE_HOST, () -> memory.freeHost(hostMemory));
  }

  @Override
  public MemorySegment memHostAlloc(long bytes, int flags) {
    return call(DriverCall.MEM_HOST_ALLOC, () -> memory.hostAlloc(bytes, flags));
  }

  @Override
  public long memHostGetDevicePointer(MemorySegment hostMemory, int flags) {
    return call(
        DriverCall.MEM_HOST_GET_DEVICE_POINTER,
        () -> memory.hostGetDevicePointer(hostMemory, flags));
  }

  @Override
  public MemoryInfo memGetInfo() {
    return call(DriverCall.MEM_GET_INFO, memory::info);
  }

  @Override
  public void memcpyHtoD(long dst, MemorySegment src, long bytes) {
    DriverCall call = DriverCall.MEMCPY_HTOD;
    SimContext[] context = new SimContext[1];
    waitCall(
        call,
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
    run(call, () -> memory.memsetAsync(dst, count, value & 0xff, 1, count, 1, stream, call));
  }

  @Override
  public void memsetD16Async(long dst, short value, long count, CuStream stream) {
    DriverCall call = DriverCall.MEMSET_D16_ASYNC;
    run(call, () -> memory.memsetAsync(dst, count * 2, value & 0xffff, 2, count, 1, stream, call));
  }

  @Override
  public void memsetD32Async(long dst, int value, long count, CuStream stream) {
    DriverCall call = DriverCall.MEMSET_D32_ASYNC;
    run(call, () -> memory.memsetAsync(dst, count * 4, value, 4, count, 1, stream, call));
  }

  @Override
  public void memsetD2D32Async(
      long dst, long pitch, int value, long width, long height, CuStream stream) {
    DriverCall call = DriverCall.MEMSET_D2D32_ASYNC;
    run(call, () -> memory.memsetAsync(dst, pitch, value, 4, width, height, stream, call));
  }

  // ---- modules and kernels

  @Override
  public Optional<RuntimeCompiler> runtimeCompiler() {
    return Optional.of(compiler);
  }

  @Override
  public CuModule moduleLoadData(ModuleImage image) {
    return call(DriverCall.MODULE_LOAD_DATA, () -> modules.load(image));
  }

  @Override
  public void moduleUnload(CuModule module) {
    run(DriverCall.MODULE_UNLOAD, () -> modules.unload(module));
  }

  @Override
  public CuFunction moduleGetFunction(CuModule module, String name) {
    return call(DriverCall.MODULE_GET_FUNCTION, () -> modules.function(module, name));
  }

  @Override
  public Optional<ParamInfo> funcGetParamInfo(CuFunction function, int index) {
    return call(DriverCall.FUNC_GET_PARAM_INFO, () -> modules.paramInfo(function, index));
  }

  @Override
  public int funcGetAttribute(CuFunction function, int attribute) {
    return call(DriverCall.FUNC_GET_ATTRIBUTE, () -> modules.getAttribute(function, attribute));
  }

  @Override
  public void funcSetAttribute(CuFunction function, int attribute, int value) {
    run(DriverCall.FUNC_SET_ATTRIBUTE, () -> modules.setAttribute(function, attribute, value));
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
    launch(
        false,
        function,
        gridX,
        gridY,
        gridZ,
        blockX,
        blockY,
        blockZ,
        sharedMemBytes,
        stream,
        arguments);
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
    launch(
        true,
        function,
        gridX,
        gridY,
        gridZ,
        blockX,
        blockY,
        blockZ,
        sharedMemBytes,
        stream,
        arguments);
  }

  private void launch(
      boolean programmatic,
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
        programmatic ? DriverCall.LAUNCH_KERNEL_EX : DriverCall.LAUNCH_KERNEL,
        () ->
            modules.launch(function, grid, block, sharedMemBytes, stream, arguments, programmatic));
  }

  // ---- graphs

  @Override
  public CuGraph graphCreate(int flags) {
    return call(DriverCall.GRAPH_CREATE, () -> graphs.create(flags));
  }

  @Override
  public void graphDestroy(CuGraph graph) {
    run(DriverCall.GRAPH_DESTROY, () -> graphs.destroy(graph));
  }

  @Override
  public CuGraphExec graphInstantiate(CuGraph graph, long flags) {
    return call(DriverCall.GRAPH_INSTANTIATE, () -> graphs.instantiate(graph, flags));
  }

  @Override
  public void graphUpload(CuGraphExec exec, CuStream stream) {
    run(DriverCall.GRAPH_UPLOAD, () -> graphs.upload(exec, stream));
  }

  @Override
  public void graphLaunch(CuGraphExec exec, CuStream stream) {
    run(DriverCall.GRAPH_LAUNCH, () -> graphs.launch(exec, stream));
  }

  @Override
  public void graphExecDestroy(CuGraphExec exec) {
    run(DriverCall.GRAPH_EXEC_DESTROY, () -> graphs.destroyExec(exec));
  }

  @Override
  public void graphExecUpdate(CuGraphExec exec, CuGraph graph) {
    run(DriverCall.GRAPH_EXEC_UPDATE, () -> graphs.update(exec, graph));
  }

  @Override
  public List<CuGraphNode> graphGetNodes(CuGraph graph) {
    return call(DriverCall.GRAPH_GET_NODES, () -> graphs.nodes(graph));
  }

  @Override
  public GraphNodeType graphNodeGetType(CuGraphNode node) {
    return call(DriverCall.GRAPH_NODE_GET_TYPE, () -> graphs.nodeType(node));
  }

  @Override
  public void graphDebugDotPrint(CuGraph graph, Path path, int flags) {
    run(DriverCall.GRAPH_DEBUG_DOT_PRINT, () -> graphs.dot(graph, path, flags));
  }

  // ---- per-node updates of an exec

  @Override
  public void graphExecKernelNodeSetParams(
      CuGraphExec exec,
      CuGraphNode node,
      CuFunction function,
      Dim3 grid,
      Dim3 block,
      int sharedMemBytes,
      KernelArguments arguments) {
    run(
        DriverCall.GRAPH_EXEC_KERNEL_NODE_SET_PARAMS,
        () ->
            execNodes.setKernelParams(
                exec, node, function, grid, block, sharedMemBytes, arguments));
  }

  @Override
  public void graphExecMemcpyNodeSetParams(
      CuGraphExec exec,
      CuGraphNode node,
      CopyEndpoint destination,
      CopyEndpoint source,
      long bytes) {
    run(
        DriverCall.GRAPH_EXEC_MEMCPY_NODE_SET_PARAMS,
        () -> execNodes.setMemcpyParams(exec, node, destination, source, bytes));
  }

  @Override
  public void graphExecMemsetNodeSetParams(
      CuGraphExec exec,
      CuGraphNode node,
      long destination,
      int elementSize,
      int value,
      long count) {
    run(
        DriverCall.GRAPH_EXEC_MEMSET_NODE_SET_PARAMS,
        () -> execNodes.setMemsetParams(exec, node, destination, elementSize, value, count));
  }

  @Override
  public void graphNodeSetEnabled(CuGraphExec exec, CuGraphNode node, boolean enabled) {
    run(DriverCall.GRAPH_NODE_SET_ENABLED, () -> execNodes.setEnabled(exec, node, enabled));
  }

  @Override
  public boolean graphNodeGetEnabled(CuGraphExec exec, CuGraphNode node) {
    return call(DriverCall.GRAPH_NODE_GET_ENABLED, () -> execNodes.isEnabled(exec, node));
  }

  // ---- child-graph nodes

  @Override
  public CuGraphNode graphAddChildGraphNode(
      CuGraph graph, List<CuGraphNode> dependencies, CuGraph child) {
    return call(
        DriverCall.GRAPH_ADD_CHILD_GRAPH_NODE, () -> children.add(graph, dependencies, child));
  }

  @Override
  public void graphExecChildGraphNodeSetParams(CuGraphExec exec, CuGraphNode node, CuGraph child) {
    run(
        DriverCall.GRAPH_EXEC_CHILD_GRAPH_NODE_SET_PARAMS,
        () -> execNodes.setChildGraphParams(exec, node, child));
  }

  // ---- conditional nodes

  @Override
  public ConditionalHandle graphConditionalHandleCreate(
      CuGraph graph, int defaultLaunchValue, int flags) {
    return call(
        DriverCall.GRAPH_CONDITIONAL_HANDLE_CREATE,
        () -> conditionals.createHandle(graph, defaultLaunchValue, flags));
  }

  @Override
  public ConditionalNode graphAddConditionalNode(
      CuGraph graph,
      List<CuGraphNode> dependencies,
      ConditionalHandle handle,
      ConditionalType type,
      int size) {
    return call(
        DriverCall.GRAPH_ADD_NODE,
        () -> conditionals.addNode(graph, dependencies, handle, type, size));
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
