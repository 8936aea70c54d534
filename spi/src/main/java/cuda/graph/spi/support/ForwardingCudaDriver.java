package cuda.graph.spi.support;

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
import cuda.graph.spi.CuStream;
import cuda.graph.spi.CudaDriver;
import cuda.graph.spi.CudaDriverException;
import cuda.graph.spi.DriverCall;
import cuda.graph.spi.GraphNodeType;
import cuda.graph.spi.HostFunction;
import cuda.graph.spi.KernelArguments;
import cuda.graph.spi.MemoryInfo;
import cuda.graph.spi.ModuleImage;
import cuda.graph.spi.RuntimeCompiler;
import java.lang.foreign.MemorySegment;
import java.nio.file.Path;
import java.util.List;
import java.util.Objects;
import java.util.Optional;
import org.jspecify.annotations.Nullable;

/**
 * A {@link CudaDriver} that forwards every call to another driver: the base of driver decorators
 * (error translation, call logs, fault injection, handle accounting), so that a decorator overrides
 * only what it intercepts.
 *
 * <p>Every entry point runs {@link #before(DriverCall)} with its {@link DriverCall}, then calls the
 * delegate, and passes a {@link CudaDriverException} the delegate throws through {@link
 * #failed(CudaDriverException)}, whose result it throws. Both hooks do nothing by default, so a
 * decorator that overrides neither behaves exactly like its delegate. {@link #runtimeCompiler()}
 * and {@link #close()} are forwarded without hooks.
 *
 * <p>Thread-safe when the delegate and the subclass's hooks are; the success path allocates nothing.
 */
public abstract class ForwardingCudaDriver implements CudaDriver {

  private final CudaDriver delegate;

  /** Makes a decorator of {@code delegate}. */
  protected ForwardingCudaDriver(CudaDriver delegate) {
    this.delegate = Objects.requireNonNull(delegate, "delegate");
  }

  /** {@return the driver every call is forwarded to} */
  protected final CudaDriver delegate() {
    return delegate;
  }

  /**
   * Runs before every forwarded entry point; what it throws is thrown by the call, and the
   * delegate is not called. Does nothing by default.
   */
  protected void before(DriverCall call) {}

  /**
   * {@return what a call throws when its delegate failed with {@code failure}}; by default {@code
   * failure} itself
   */
  protected RuntimeException failed(CudaDriverException failure) {
    return failure;
  }

  @Override
  public Optional<RuntimeCompiler> runtimeCompiler() {
    return delegate.runtimeCompiler();
  }

  @Override
  public void close() {
    delegate.close();
  }

  @Override
  public void init(int flags) {
    before(DriverCall.INIT);
    try {
      delegate.init(flags);
    } catch (CudaDriverException e) {
      throw failed(e);
    }
  }

  @Override
  public int driverGetVersion() {
    before(DriverCall.DRIVER_GET_VERSION);
    try {
      return delegate.driverGetVersion();
    } catch (CudaDriverException e) {
      throw failed(e);
    }
  }

  @Override
  public Optional<String> getErrorName(int status) {
    before(DriverCall.GET_ERROR_NAME);
    try {
      return delegate.getErrorName(status);
    } catch (CudaDriverException e) {
      throw failed(e);
    }
  }

  @Override
  public Optional<String> getErrorString(int status) {
    before(DriverCall.GET_ERROR_STRING);
    try {
      return delegate.getErrorString(status);
    } catch (CudaDriverException e) {
      throw failed(e);
    }
  }

  @Override
  public int deviceGetCount() {
    before(DriverCall.DEVICE_GET_COUNT);
    try {
      return delegate.deviceGetCount();
    } catch (CudaDriverException e) {
      throw failed(e);
    }
  }

  @Override
  public int deviceGet(int ordinal) {
    before(DriverCall.DEVICE_GET);
    try {
      return delegate.deviceGet(ordinal);
    } catch (CudaDriverException e) {
      throw failed(e);
    }
  }

  @Override
  public String deviceGetName(int device) {
    before(DriverCall.DEVICE_GET_NAME);
    try {
      return delegate.deviceGetName(device);
    } catch (CudaDriverException e) {
      throw failed(e);
    }
  }

  @Override
  public int deviceGetAttribute(int attribute, int device) {
    before(DriverCall.DEVICE_GET_ATTRIBUTE);
    try {
      return delegate.deviceGetAttribute(attribute, device);
    } catch (CudaDriverException e) {
      throw failed(e);
    }
  }

  @Override
  public long deviceTotalMem(int device) {
    before(DriverCall.DEVICE_TOTAL_MEM);
    try {
      return delegate.deviceTotalMem(device);
    } catch (CudaDriverException e) {
      throw failed(e);
    }
  }

  @Override
  public CuContext devicePrimaryCtxRetain(int device) {
    before(DriverCall.DEVICE_PRIMARY_CTX_RETAIN);
    try {
      return delegate.devicePrimaryCtxRetain(device);
    } catch (CudaDriverException e) {
      throw failed(e);
    }
  }

  @Override
  public void devicePrimaryCtxRelease(int device) {
    before(DriverCall.DEVICE_PRIMARY_CTX_RELEASE);
    try {
      delegate.devicePrimaryCtxRelease(device);
    } catch (CudaDriverException e) {
      throw failed(e);
    }
  }

  @Override
  public void ctxSetCurrent(@Nullable CuContext context) {
    before(DriverCall.CTX_SET_CURRENT);
    try {
      delegate.ctxSetCurrent(context);
    } catch (CudaDriverException e) {
      throw failed(e);
    }
  }

  @Override
  public @Nullable CuContext ctxGetCurrent() {
    before(DriverCall.CTX_GET_CURRENT);
    try {
      return delegate.ctxGetCurrent();
    } catch (CudaDriverException e) {
      throw failed(e);
    }
  }

  @Override
  public CuStream streamCreate(int flags) {
    before(DriverCall.STREAM_CREATE);
    try {
      return delegate.streamCreate(flags);
    } catch (CudaDriverException e) {
      throw failed(e);
    }
  }

  @Override
  public void streamDestroy(CuStream stream) {
    before(DriverCall.STREAM_DESTROY);
    try {
      delegate.streamDestroy(stream);
    } catch (CudaDriverException e) {
      throw failed(e);
    }
  }

  @Override
  public void streamSynchronize(CuStream stream) {
    before(DriverCall.STREAM_SYNCHRONIZE);
    try {
      delegate.streamSynchronize(stream);
    } catch (CudaDriverException e) {
      throw failed(e);
    }
  }

  @Override
  public boolean streamQuery(CuStream stream) {
    before(DriverCall.STREAM_QUERY);
    try {
      return delegate.streamQuery(stream);
    } catch (CudaDriverException e) {
      throw failed(e);
    }
  }

  @Override
  public void streamWaitEvent(CuStream stream, CuEvent event, int flags) {
    before(DriverCall.STREAM_WAIT_EVENT);
    try {
      delegate.streamWaitEvent(stream, event, flags);
    } catch (CudaDriverException e) {
      throw failed(e);
    }
  }

  @Override
  public void launchHostFunc(CuStream stream, HostFunction function) {
    before(DriverCall.LAUNCH_HOST_FUNC);
    try {
      delegate.launchHostFunc(stream, function);
    } catch (CudaDriverException e) {
      throw failed(e);
    }
  }

  @Override
  public void streamBeginCapture(CuStream stream, CaptureMode mode) {
    before(DriverCall.STREAM_BEGIN_CAPTURE);
    try {
      delegate.streamBeginCapture(stream, mode);
    } catch (CudaDriverException e) {
      throw failed(e);
    }
  }

  @Override
  public @Nullable CuGraph streamEndCapture(CuStream stream) {
    before(DriverCall.STREAM_END_CAPTURE);
    try {
      return delegate.streamEndCapture(stream);
    } catch (CudaDriverException e) {
      throw failed(e);
    }
  }

  @Override
  public CaptureStatus streamIsCapturing(CuStream stream) {
    before(DriverCall.STREAM_IS_CAPTURING);
    try {
      return delegate.streamIsCapturing(stream);
    } catch (CudaDriverException e) {
      throw failed(e);
    }
  }

  @Override
  public CaptureInfo streamGetCaptureInfo(CuStream stream) {
    before(DriverCall.STREAM_GET_CAPTURE_INFO);
    try {
      return delegate.streamGetCaptureInfo(stream);
    } catch (CudaDriverException e) {
      throw failed(e);
    }
  }

  @Override
  public CaptureMode threadExchangeStreamCaptureMode(CaptureMode mode) {
    before(DriverCall.THREAD_EXCHANGE_STREAM_CAPTURE_MODE);
    try {
      return delegate.threadExchangeStreamCaptureMode(mode);
    } catch (CudaDriverException e) {
      throw failed(e);
    }
  }

  @Override
  public CuEvent eventCreate(int flags) {
    before(DriverCall.EVENT_CREATE);
    try {
      return delegate.eventCreate(flags);
    } catch (CudaDriverException e) {
      throw failed(e);
    }
  }

  @Override
  public void eventDestroy(CuEvent event) {
    before(DriverCall.EVENT_DESTROY);
    try {
      delegate.eventDestroy(event);
    } catch (CudaDriverException e) {
      throw failed(e);
    }
  }

  @Override
  public void eventRecord(CuEvent event, CuStream stream) {
    before(DriverCall.EVENT_RECORD);
    try {
      delegate.eventRecord(event, stream);
    } catch (CudaDriverException e) {
      throw failed(e);
    }
  }

  @Override
  public void eventRecordWithFlags(CuEvent event, CuStream stream, int flags) {
    before(DriverCall.EVENT_RECORD_WITH_FLAGS);
    try {
      delegate.eventRecordWithFlags(event, stream, flags);
    } catch (CudaDriverException e) {
      throw failed(e);
    }
  }

  @Override
  public boolean eventQuery(CuEvent event) {
    before(DriverCall.EVENT_QUERY);
    try {
      return delegate.eventQuery(event);
    } catch (CudaDriverException e) {
      throw failed(e);
    }
  }

  @Override
  public void eventSynchronize(CuEvent event) {
    before(DriverCall.EVENT_SYNCHRONIZE);
    try {
      delegate.eventSynchronize(event);
    } catch (CudaDriverException e) {
      throw failed(e);
    }
  }

  @Override
  public float eventElapsedTime(CuEvent start, CuEvent end) {
    before(DriverCall.EVENT_ELAPSED_TIME);
    try {
      return delegate.eventElapsedTime(start, end);
    } catch (CudaDriverException e) {
      throw failed(e);
    }
  }

  @Override
  public long memAlloc(long bytes) {
    before(DriverCall.MEM_ALLOC);
    try {
      return delegate.memAlloc(bytes);
    } catch (CudaDriverException e) {
      throw failed(e);
    }
  }

  @Override
  public void memFree(long devicePointer) {
    before(DriverCall.MEM_FREE);
    try {
      delegate.memFree(devicePointer);
    } catch (CudaDriverException e) {
      throw failed(e);
    }
  }

  @Override
  public long memAllocAsync(long bytes, CuStream stream) {
    before(DriverCall.MEM_ALLOC_ASYNC);
    try {
      return delegate.memAllocAsync(bytes, stream);
    } catch (CudaDriverException e) {
      throw failed(e);
    }
  }

  @Override
  public void memFreeAsync(long devicePointer, CuStream stream) {
    before(DriverCall.MEM_FREE_ASYNC);
    try {
      delegate.memFreeAsync(devicePointer, stream);
    } catch (CudaDriverException e) {
      throw failed(e);
    }
  }

  @Override
  public MemorySegment memAllocHost(long bytes) {
    before(DriverCall.MEM_ALLOC_HOST);
    try {
      return delegate.memAllocHost(bytes);
    } catch (CudaDriverException e) {
      throw failed(e);
    }
  }

  @Override
  public void memFreeHost(MemorySegment hostMemory) {
    before(DriverCall.MEM_FREE_HOST);
    try {
      delegate.memFreeHost(hostMemory);
    } catch (CudaDriverException e) {
      throw failed(e);
    }
  }

  @Override
  public MemoryInfo memGetInfo() {
    before(DriverCall.MEM_GET_INFO);
    try {
      return delegate.memGetInfo();
    } catch (CudaDriverException e) {
      throw failed(e);
    }
  }

  @Override
  public void memcpyHtoD(long dst, MemorySegment src, long bytes) {
    before(DriverCall.MEMCPY_HTOD);
    try {
      delegate.memcpyHtoD(dst, src, bytes);
    } catch (CudaDriverException e) {
      throw failed(e);
    }
  }

  @Override
  public void memcpyDtoH(MemorySegment dst, long src, long bytes) {
    before(DriverCall.MEMCPY_DTOH);
    try {
      delegate.memcpyDtoH(dst, src, bytes);
    } catch (CudaDriverException e) {
      throw failed(e);
    }
  }

  @Override
  public void memcpyHtoDAsync(long dst, MemorySegment src, long bytes, CuStream stream) {
    before(DriverCall.MEMCPY_HTOD_ASYNC);
    try {
      delegate.memcpyHtoDAsync(dst, src, bytes, stream);
    } catch (CudaDriverException e) {
      throw failed(e);
    }
  }

  @Override
  public void memcpyDtoHAsync(MemorySegment dst, long src, long bytes, CuStream stream) {
    before(DriverCall.MEMCPY_DTOH_ASYNC);
    try {
      delegate.memcpyDtoHAsync(dst, src, bytes, stream);
    } catch (CudaDriverException e) {
      throw failed(e);
    }
  }

  @Override
  public void memcpyDtoDAsync(long dst, long src, long bytes, CuStream stream) {
    before(DriverCall.MEMCPY_DTOD_ASYNC);
    try {
      delegate.memcpyDtoDAsync(dst, src, bytes, stream);
    } catch (CudaDriverException e) {
      throw failed(e);
    }
  }

  @Override
  public void memsetD8Async(long dst, byte value, long count, CuStream stream) {
    before(DriverCall.MEMSET_D8_ASYNC);
    try {
      delegate.memsetD8Async(dst, value, count, stream);
    } catch (CudaDriverException e) {
      throw failed(e);
    }
  }

  @Override
  public void memsetD16Async(long dst, short value, long count, CuStream stream) {
    before(DriverCall.MEMSET_D16_ASYNC);
    try {
      delegate.memsetD16Async(dst, value, count, stream);
    } catch (CudaDriverException e) {
      throw failed(e);
    }
  }

  @Override
  public void memsetD32Async(long dst, int value, long count, CuStream stream) {
    before(DriverCall.MEMSET_D32_ASYNC);
    try {
      delegate.memsetD32Async(dst, value, count, stream);
    } catch (CudaDriverException e) {
      throw failed(e);
    }
  }

  @Override
  public void memsetD2D32Async(long dst, long pitch, int value, long width, long height, CuStream stream) {
    before(DriverCall.MEMSET_D2D32_ASYNC);
    try {
      delegate.memsetD2D32Async(dst, pitch, value, width, height, stream);
    } catch (CudaDriverException e) {
      throw failed(e);
    }
  }

  @Override
  public CuModule moduleLoadData(ModuleImage image) {
    before(DriverCall.MODULE_LOAD_DATA);
    try {
      return delegate.moduleLoadData(image);
    } catch (CudaDriverException e) {
      throw failed(e);
    }
  }

  @Override
  public void moduleUnload(CuModule module) {
    before(DriverCall.MODULE_UNLOAD);
    try {
      delegate.moduleUnload(module);
    } catch (CudaDriverException e) {
      throw failed(e);
    }
  }

  @Override
  public CuFunction moduleGetFunction(CuModule module, String name) {
    before(DriverCall.MODULE_GET_FUNCTION);
    try {
      return delegate.moduleGetFunction(module, name);
    } catch (CudaDriverException e) {
      throw failed(e);
    }
  }

  @Override
  public void launchKernel( CuFunction function, int gridX, int gridY, int gridZ, int blockX, int blockY, int blockZ, int sharedMemBytes, CuStream stream, KernelArguments arguments) {
    before(DriverCall.LAUNCH_KERNEL);
    try {
      delegate.launchKernel(function, gridX, gridY, gridZ, blockX, blockY, blockZ, sharedMemBytes, stream, arguments);
    } catch (CudaDriverException e) {
      throw failed(e);
    }
  }

  @Override
  public CuGraph graphCreate(int flags) {
    before(DriverCall.GRAPH_CREATE);
    try {
      return delegate.graphCreate(flags);
    } catch (CudaDriverException e) {
      throw failed(e);
    }
  }

  @Override
  public void graphDestroy(CuGraph graph) {
    before(DriverCall.GRAPH_DESTROY);
    try {
      delegate.graphDestroy(graph);
    } catch (CudaDriverException e) {
      throw failed(e);
    }
  }

  @Override
  public CuGraphExec graphInstantiate(CuGraph graph, long flags) {
    before(DriverCall.GRAPH_INSTANTIATE);
    try {
      return delegate.graphInstantiate(graph, flags);
    } catch (CudaDriverException e) {
      throw failed(e);
    }
  }

  @Override
  public void graphUpload(CuGraphExec exec, CuStream stream) {
    before(DriverCall.GRAPH_UPLOAD);
    try {
      delegate.graphUpload(exec, stream);
    } catch (CudaDriverException e) {
      throw failed(e);
    }
  }

  @Override
  public void graphLaunch(CuGraphExec exec, CuStream stream) {
    before(DriverCall.GRAPH_LAUNCH);
    try {
      delegate.graphLaunch(exec, stream);
    } catch (CudaDriverException e) {
      throw failed(e);
    }
  }

  @Override
  public void graphExecDestroy(CuGraphExec exec) {
    before(DriverCall.GRAPH_EXEC_DESTROY);
    try {
      delegate.graphExecDestroy(exec);
    } catch (CudaDriverException e) {
      throw failed(e);
    }
  }

  @Override
  public void graphExecUpdate(CuGraphExec exec, CuGraph graph) {
    before(DriverCall.GRAPH_EXEC_UPDATE);
    try {
      delegate.graphExecUpdate(exec, graph);
    } catch (CudaDriverException e) {
      throw failed(e);
    }
  }

  @Override
  public List<CuGraphNode> graphGetNodes(CuGraph graph) {
    before(DriverCall.GRAPH_GET_NODES);
    try {
      return delegate.graphGetNodes(graph);
    } catch (CudaDriverException e) {
      throw failed(e);
    }
  }

  @Override
  public GraphNodeType graphNodeGetType(CuGraphNode node) {
    before(DriverCall.GRAPH_NODE_GET_TYPE);
    try {
      return delegate.graphNodeGetType(node);
    } catch (CudaDriverException e) {
      throw failed(e);
    }
  }

  @Override
  public void graphDebugDotPrint(CuGraph graph, Path path, int flags) {
    before(DriverCall.GRAPH_DEBUG_DOT_PRINT);
    try {
      delegate.graphDebugDotPrint(graph, path, flags);
    } catch (CudaDriverException e) {
      throw failed(e);
    }
  }
}
