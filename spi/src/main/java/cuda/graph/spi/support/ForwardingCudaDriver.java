// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 the cuda-graph authors
package cuda.graph.spi.support;

import static org.apiguardian.api.API.Status.EXPERIMENTAL;

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
import cuda.graph.spi.CuStream;
import cuda.graph.spi.CudaDriver;
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
import java.util.Objects;
import java.util.Optional;
import org.apiguardian.api.API;
import org.jspecify.annotations.Nullable;

/**
 * A {@link CudaDriver} that forwards every call to another driver: the base of driver decorators
 * (error translation, call logs, fault injection, handle accounting), so that a decorator overrides
 * only what it intercepts.
 *
 * <p>Every entry point runs {@link #before(DriverCall, Object[])} with its {@link DriverCall} on
 * the calling thread, then calls the delegate with the same arguments, and passes a {@link
 * RuntimeException} the delegate throws (usually a {@link cuda.graph.spi.CudaDriverException})
 * through {@link #failed(DriverCall, RuntimeException)}, whose result it throws. An {@link Error}
 * the delegate throws, and anything {@code before} throws, propagate unchanged, without {@code
 * failed}. The hooks do nothing by default, so a decorator that overrides none behaves exactly like
 * its delegate. {@link #runtimeCompiler()} and {@link #close()} are forwarded without hooks.
 *
 * <p>There is deliberately no hook after a successful call: a decorator that needs a result (a
 * handle to count) overrides that entry point, calls {@code super}, and reads what it returns.
 *
 * <p>Thread-safe when the delegate and the subclass's hooks are. The success path allocates
 * nothing, unless the decorator was made to {@linkplain #ForwardingCudaDriver(CudaDriver, boolean)
 * describe arguments}.
 *
 * @since 0.1.0
 */
@API(status = EXPERIMENTAL, since = "0.1.0")
public abstract class ForwardingCudaDriver implements CudaDriver {

  /** The arguments {@link #before(DriverCall, Object[])} receives when they are not described. */
  protected static final @Nullable Object[] NO_ARGUMENTS = {};

  private final CudaDriver delegate;
  private final boolean describesArguments;

  /**
   * Makes a decorator whose hooks receive no arguments.
   *
   * @param delegate the driver every call is forwarded to
   */
  protected ForwardingCudaDriver(CudaDriver delegate) {
    this(delegate, false);
  }

  /**
   * Makes a decorator of {@code delegate}. When {@code describesArguments}, every entry point
   * passes its arguments to {@link #before(DriverCall, Object[])} in an array made for that call,
   * in declaration order with primitives boxed; otherwise it passes {@link #NO_ARGUMENTS}.
   *
   * @param delegate the driver every call is forwarded to
   * @param describesArguments whether the hooks receive each call's arguments
   */
  protected ForwardingCudaDriver(CudaDriver delegate, boolean describesArguments) {
    this.delegate = Objects.requireNonNull(delegate, "delegate");
    this.describesArguments = describesArguments;
  }

  /** {@return the driver every call is forwarded to} */
  protected final CudaDriver delegate() {
    return delegate;
  }

  /**
   * Runs before every forwarded entry point; what it throws is thrown by the call, and the delegate
   * is not called. By default runs {@link #before(DriverCall)}.
   *
   * @param call the entry point about to be forwarded
   * @param arguments the call's arguments, or {@link #NO_ARGUMENTS} unless this decorator describes
   *     arguments; the array is the hook's to keep
   */
  protected void before(DriverCall call, @Nullable Object[] arguments) {
    before(call);
  }

  /**
   * Runs before every forwarded entry point, unless the hook with arguments is overridden.
   *
   * @param call the entry point about to be forwarded
   */
  protected void before(DriverCall call) {}

  /**
   * {@return what entry point {@code call} throws when its delegate threw {@code failure}}; by
   * default {@code failure} itself. Runs on the calling thread, for every {@link RuntimeException}
   * the delegate throws, whichever call a {@link cuda.graph.spi.CudaDriverException} names.
   *
   * @param call the entry point that was forwarded
   * @param failure what the delegate threw
   */
  protected RuntimeException failed(DriverCall call, RuntimeException failure) {
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
    before(DriverCall.INIT, describesArguments ? new Object[] {flags} : NO_ARGUMENTS);
    try {
      delegate.init(flags);
    } catch (RuntimeException e) {
      throw failed(DriverCall.INIT, e);
    }
  }

  @Override
  public int driverGetVersion() {
    before(DriverCall.DRIVER_GET_VERSION, NO_ARGUMENTS);
    try {
      return delegate.driverGetVersion();
    } catch (RuntimeException e) {
      throw failed(DriverCall.DRIVER_GET_VERSION, e);
    }
  }

  @Override
  public Optional<String> getErrorName(int status) {
    before(DriverCall.GET_ERROR_NAME, describesArguments ? new Object[] {status} : NO_ARGUMENTS);
    try {
      return delegate.getErrorName(status);
    } catch (RuntimeException e) {
      throw failed(DriverCall.GET_ERROR_NAME, e);
    }
  }

  @Override
  public Optional<String> getErrorString(int status) {
    before(DriverCall.GET_ERROR_STRING, describesArguments ? new Object[] {status} : NO_ARGUMENTS);
    try {
      return delegate.getErrorString(status);
    } catch (RuntimeException e) {
      throw failed(DriverCall.GET_ERROR_STRING, e);
    }
  }

  @Override
  public int deviceGetCount() {
    before(DriverCall.DEVICE_GET_COUNT, NO_ARGUMENTS);
    try {
      return delegate.deviceGetCount();
    } catch (RuntimeException e) {
      throw failed(DriverCall.DEVICE_GET_COUNT, e);
    }
  }

  @Override
  public int deviceGet(int ordinal) {
    before(DriverCall.DEVICE_GET, describesArguments ? new Object[] {ordinal} : NO_ARGUMENTS);
    try {
      return delegate.deviceGet(ordinal);
    } catch (RuntimeException e) {
      throw failed(DriverCall.DEVICE_GET, e);
    }
  }

  @Override
  public String deviceGetName(int device) {
    before(DriverCall.DEVICE_GET_NAME, describesArguments ? new Object[] {device} : NO_ARGUMENTS);
    try {
      return delegate.deviceGetName(device);
    } catch (RuntimeException e) {
      throw failed(DriverCall.DEVICE_GET_NAME, e);
    }
  }

  @Override
  public int deviceGetAttribute(int attribute, int device) {
    before(
        DriverCall.DEVICE_GET_ATTRIBUTE,
        describesArguments ? new Object[] {attribute, device} : NO_ARGUMENTS);
    try {
      return delegate.deviceGetAttribute(attribute, device);
    } catch (RuntimeException e) {
      throw failed(DriverCall.DEVICE_GET_ATTRIBUTE, e);
    }
  }

  @Override
  public long deviceTotalMem(int device) {
    before(DriverCall.DEVICE_TOTAL_MEM, describesArguments ? new Object[] {device} : NO_ARGUMENTS);
    try {
      return delegate.deviceTotalMem(device);
    } catch (RuntimeException e) {
      throw failed(DriverCall.DEVICE_TOTAL_MEM, e);
    }
  }

  @Override
  public CuContext devicePrimaryCtxRetain(int device) {
    before(
        DriverCall.DEVICE_PRIMARY_CTX_RETAIN,
        describesArguments ? new Object[] {device} : NO_ARGUMENTS);
    try {
      return delegate.devicePrimaryCtxRetain(device);
    } catch (RuntimeException e) {
      throw failed(DriverCall.DEVICE_PRIMARY_CTX_RETAIN, e);
    }
  }

  @Override
  public void devicePrimaryCtxRelease(int device) {
    before(
        DriverCall.DEVICE_PRIMARY_CTX_RELEASE,
        describesArguments ? new Object[] {device} : NO_ARGUMENTS);
    try {
      delegate.devicePrimaryCtxRelease(device);
    } catch (RuntimeException e) {
      throw failed(DriverCall.DEVICE_PRIMARY_CTX_RELEASE, e);
    }
  }

  @Override
  public void ctxSetCurrent(@Nullable CuContext context) {
    before(DriverCall.CTX_SET_CURRENT, describesArguments ? new Object[] {context} : NO_ARGUMENTS);
    try {
      delegate.ctxSetCurrent(context);
    } catch (RuntimeException e) {
      throw failed(DriverCall.CTX_SET_CURRENT, e);
    }
  }

  @Override
  public @Nullable CuContext ctxGetCurrent() {
    before(DriverCall.CTX_GET_CURRENT, NO_ARGUMENTS);
    try {
      return delegate.ctxGetCurrent();
    } catch (RuntimeException e) {
      throw failed(DriverCall.CTX_GET_CURRENT, e);
    }
  }

  @Override
  public long deviceGetGraphMemAttribute(int device, GraphMemAttribute attribute) {
    before(
        DriverCall.DEVICE_GET_GRAPH_MEM_ATTRIBUTE,
        describesArguments ? new Object[] {device, attribute} : NO_ARGUMENTS);
    try {
      return delegate.deviceGetGraphMemAttribute(device, attribute);
    } catch (RuntimeException e) {
      throw failed(DriverCall.DEVICE_GET_GRAPH_MEM_ATTRIBUTE, e);
    }
  }

  @Override
  public void deviceSetGraphMemAttribute(int device, GraphMemAttribute attribute, long value) {
    before(
        DriverCall.DEVICE_SET_GRAPH_MEM_ATTRIBUTE,
        describesArguments ? new Object[] {device, attribute, value} : NO_ARGUMENTS);
    try {
      delegate.deviceSetGraphMemAttribute(device, attribute, value);
    } catch (RuntimeException e) {
      throw failed(DriverCall.DEVICE_SET_GRAPH_MEM_ATTRIBUTE, e);
    }
  }

  @Override
  public void deviceGraphMemTrim(int device) {
    before(
        DriverCall.DEVICE_GRAPH_MEM_TRIM,
        describesArguments ? new Object[] {device} : NO_ARGUMENTS);
    try {
      delegate.deviceGraphMemTrim(device);
    } catch (RuntimeException e) {
      throw failed(DriverCall.DEVICE_GRAPH_MEM_TRIM, e);
    }
  }

  @Override
  public CuStream streamCreate(int flags) {
    before(DriverCall.STREAM_CREATE, describesArguments ? new Object[] {flags} : NO_ARGUMENTS);
    try {
      return delegate.streamCreate(flags);
    } catch (RuntimeException e) {
      throw failed(DriverCall.STREAM_CREATE, e);
    }
  }

  @Override
  public void streamDestroy(CuStream stream) {
    before(DriverCall.STREAM_DESTROY, describesArguments ? new Object[] {stream} : NO_ARGUMENTS);
    try {
      delegate.streamDestroy(stream);
    } catch (RuntimeException e) {
      throw failed(DriverCall.STREAM_DESTROY, e);
    }
  }

  @Override
  public void streamSynchronize(CuStream stream) {
    before(
        DriverCall.STREAM_SYNCHRONIZE, describesArguments ? new Object[] {stream} : NO_ARGUMENTS);
    try {
      delegate.streamSynchronize(stream);
    } catch (RuntimeException e) {
      throw failed(DriverCall.STREAM_SYNCHRONIZE, e);
    }
  }

  @Override
  public boolean streamQuery(CuStream stream) {
    before(DriverCall.STREAM_QUERY, describesArguments ? new Object[] {stream} : NO_ARGUMENTS);
    try {
      return delegate.streamQuery(stream);
    } catch (RuntimeException e) {
      throw failed(DriverCall.STREAM_QUERY, e);
    }
  }

  @Override
  public void streamWaitEvent(CuStream stream, CuEvent event, int flags) {
    before(
        DriverCall.STREAM_WAIT_EVENT,
        describesArguments ? new Object[] {stream, event, flags} : NO_ARGUMENTS);
    try {
      delegate.streamWaitEvent(stream, event, flags);
    } catch (RuntimeException e) {
      throw failed(DriverCall.STREAM_WAIT_EVENT, e);
    }
  }

  @Override
  public void launchHostFunc(CuStream stream, HostFunction function) {
    before(
        DriverCall.LAUNCH_HOST_FUNC,
        describesArguments ? new Object[] {stream, function} : NO_ARGUMENTS);
    try {
      delegate.launchHostFunc(stream, function);
    } catch (RuntimeException e) {
      throw failed(DriverCall.LAUNCH_HOST_FUNC, e);
    }
  }

  @Override
  public void streamBeginCapture(CuStream stream, CaptureMode mode) {
    before(
        DriverCall.STREAM_BEGIN_CAPTURE,
        describesArguments ? new Object[] {stream, mode} : NO_ARGUMENTS);
    try {
      delegate.streamBeginCapture(stream, mode);
    } catch (RuntimeException e) {
      throw failed(DriverCall.STREAM_BEGIN_CAPTURE, e);
    }
  }

  @Override
  public @Nullable CuGraph streamEndCapture(CuStream stream) {
    before(
        DriverCall.STREAM_END_CAPTURE, describesArguments ? new Object[] {stream} : NO_ARGUMENTS);
    try {
      return delegate.streamEndCapture(stream);
    } catch (RuntimeException e) {
      throw failed(DriverCall.STREAM_END_CAPTURE, e);
    }
  }

  @Override
  public CaptureStatus streamIsCapturing(CuStream stream) {
    before(
        DriverCall.STREAM_IS_CAPTURING, describesArguments ? new Object[] {stream} : NO_ARGUMENTS);
    try {
      return delegate.streamIsCapturing(stream);
    } catch (RuntimeException e) {
      throw failed(DriverCall.STREAM_IS_CAPTURING, e);
    }
  }

  @Override
  public CaptureInfo streamGetCaptureInfo(CuStream stream) {
    before(
        DriverCall.STREAM_GET_CAPTURE_INFO,
        describesArguments ? new Object[] {stream} : NO_ARGUMENTS);
    try {
      return delegate.streamGetCaptureInfo(stream);
    } catch (RuntimeException e) {
      throw failed(DriverCall.STREAM_GET_CAPTURE_INFO, e);
    }
  }

  @Override
  public void streamBeginCaptureToGraph(
      CuStream stream, CuGraph graph, List<CuGraphNode> dependencies, CaptureMode mode) {
    before(
        DriverCall.STREAM_BEGIN_CAPTURE_TO_GRAPH,
        describesArguments ? new Object[] {stream, graph, dependencies, mode} : NO_ARGUMENTS);
    try {
      delegate.streamBeginCaptureToGraph(stream, graph, dependencies, mode);
    } catch (RuntimeException e) {
      throw failed(DriverCall.STREAM_BEGIN_CAPTURE_TO_GRAPH, e);
    }
  }

  @Override
  public void streamUpdateCaptureDependencies(
      CuStream stream, List<CuGraphNode> dependencies, int flags) {
    before(
        DriverCall.STREAM_UPDATE_CAPTURE_DEPENDENCIES,
        describesArguments ? new Object[] {stream, dependencies, flags} : NO_ARGUMENTS);
    try {
      delegate.streamUpdateCaptureDependencies(stream, dependencies, flags);
    } catch (RuntimeException e) {
      throw failed(DriverCall.STREAM_UPDATE_CAPTURE_DEPENDENCIES, e);
    }
  }

  @Override
  public CaptureMode threadExchangeStreamCaptureMode(CaptureMode mode) {
    before(
        DriverCall.THREAD_EXCHANGE_STREAM_CAPTURE_MODE,
        describesArguments ? new Object[] {mode} : NO_ARGUMENTS);
    try {
      return delegate.threadExchangeStreamCaptureMode(mode);
    } catch (RuntimeException e) {
      throw failed(DriverCall.THREAD_EXCHANGE_STREAM_CAPTURE_MODE, e);
    }
  }

  @Override
  public CuEvent eventCreate(int flags) {
    before(DriverCall.EVENT_CREATE, describesArguments ? new Object[] {flags} : NO_ARGUMENTS);
    try {
      return delegate.eventCreate(flags);
    } catch (RuntimeException e) {
      throw failed(DriverCall.EVENT_CREATE, e);
    }
  }

  @Override
  public void eventDestroy(CuEvent event) {
    before(DriverCall.EVENT_DESTROY, describesArguments ? new Object[] {event} : NO_ARGUMENTS);
    try {
      delegate.eventDestroy(event);
    } catch (RuntimeException e) {
      throw failed(DriverCall.EVENT_DESTROY, e);
    }
  }

  @Override
  public void eventRecord(CuEvent event, CuStream stream) {
    before(
        DriverCall.EVENT_RECORD, describesArguments ? new Object[] {event, stream} : NO_ARGUMENTS);
    try {
      delegate.eventRecord(event, stream);
    } catch (RuntimeException e) {
      throw failed(DriverCall.EVENT_RECORD, e);
    }
  }

  @Override
  public void eventRecordWithFlags(CuEvent event, CuStream stream, int flags) {
    before(
        DriverCall.EVENT_RECORD_WITH_FLAGS,
        describesArguments ? new Object[] {event, stream, flags} : NO_ARGUMENTS);
    try {
      delegate.eventRecordWithFlags(event, stream, flags);
    } catch (RuntimeException e) {
      throw failed(DriverCall.EVENT_RECORD_WITH_FLAGS, e);
    }
  }

  @Override
  public boolean eventQuery(CuEvent event) {
    before(DriverCall.EVENT_QUERY, describesArguments ? new Object[] {event} : NO_ARGUMENTS);
    try {
      return delegate.eventQuery(event);
    } catch (RuntimeException e) {
      throw failed(DriverCall.EVENT_QUERY, e);
    }
  }

  @Override
  public void eventSynchronize(CuEvent event) {
    before(DriverCall.EVENT_SYNCHRONIZE, describesArguments ? new Object[] {event} : NO_ARGUMENTS);
    try {
      delegate.eventSynchronize(event);
    } catch (RuntimeException e) {
      throw failed(DriverCall.EVENT_SYNCHRONIZE, e);
    }
  }

  @Override
  public float eventElapsedTime(CuEvent start, CuEvent end) {
    before(
        DriverCall.EVENT_ELAPSED_TIME,
        describesArguments ? new Object[] {start, end} : NO_ARGUMENTS);
    try {
      return delegate.eventElapsedTime(start, end);
    } catch (RuntimeException e) {
      throw failed(DriverCall.EVENT_ELAPSED_TIME, e);
    }
  }

  @Override
  public long memAlloc(long bytes) {
    before(DriverCall.MEM_ALLOC, describesArguments ? new Object[] {bytes} : NO_ARGUMENTS);
    try {
      return delegate.memAlloc(bytes);
    } catch (RuntimeException e) {
      throw failed(DriverCall.MEM_ALLOC, e);
    }
  }

  @Override
  public void memFree(long devicePointer) {
    before(DriverCall.MEM_FREE, describesArguments ? new Object[] {devicePointer} : NO_ARGUMENTS);
    try {
      delegate.memFree(devicePointer);
    } catch (RuntimeException e) {
      throw failed(DriverCall.MEM_FREE, e);
    }
  }

  @Override
  public long memAllocAsync(long bytes, CuStream stream) {
    before(
        DriverCall.MEM_ALLOC_ASYNC,
        describesArguments ? new Object[] {bytes, stream} : NO_ARGUMENTS);
    try {
      return delegate.memAllocAsync(bytes, stream);
    } catch (RuntimeException e) {
      throw failed(DriverCall.MEM_ALLOC_ASYNC, e);
    }
  }

  @Override
  public void memFreeAsync(long devicePointer, CuStream stream) {
    before(
        DriverCall.MEM_FREE_ASYNC,
        describesArguments ? new Object[] {devicePointer, stream} : NO_ARGUMENTS);
    try {
      delegate.memFreeAsync(devicePointer, stream);
    } catch (RuntimeException e) {
      throw failed(DriverCall.MEM_FREE_ASYNC, e);
    }
  }

  @Override
  public MemorySegment memAllocHost(long bytes) {
    before(DriverCall.MEM_ALLOC_HOST, describesArguments ? new Object[] {bytes} : NO_ARGUMENTS);
    try {
      return delegate.memAllocHost(bytes);
    } catch (RuntimeException e) {
      throw failed(DriverCall.MEM_ALLOC_HOST, e);
    }
  }

  @Override
  public void memFreeHost(MemorySegment hostMemory) {
    before(DriverCall.MEM_FREE_HOST, describesArguments ? new Object[] {hostMemory} : NO_ARGUMENTS);
    try {
      delegate.memFreeHost(hostMemory);
    } catch (RuntimeException e) {
      throw failed(DriverCall.MEM_FREE_HOST, e);
    }
  }

  @Override
  public MemorySegment memHostAlloc(long bytes, int flags) {
    before(
        DriverCall.MEM_HOST_ALLOC, describesArguments ? new Object[] {bytes, flags} : NO_ARGUMENTS);
    try {
      return delegate.memHostAlloc(bytes, flags);
    } catch (RuntimeException e) {
      throw failed(DriverCall.MEM_HOST_ALLOC, e);
    }
  }

  @Override
  public long memHostGetDevicePointer(MemorySegment hostMemory, int flags) {
    before(
        DriverCall.MEM_HOST_GET_DEVICE_POINTER,
        describesArguments ? new Object[] {hostMemory, flags} : NO_ARGUMENTS);
    try {
      return delegate.memHostGetDevicePointer(hostMemory, flags);
    } catch (RuntimeException e) {
      throw failed(DriverCall.MEM_HOST_GET_DEVICE_POINTER, e);
    }
  }

  @Override
  public MemoryInfo memGetInfo() {
    before(DriverCall.MEM_GET_INFO, NO_ARGUMENTS);
    try {
      return delegate.memGetInfo();
    } catch (RuntimeException e) {
      throw failed(DriverCall.MEM_GET_INFO, e);
    }
  }

  @Override
  public void memcpyHtoD(long dst, MemorySegment src, long bytes) {
    before(
        DriverCall.MEMCPY_HTOD, describesArguments ? new Object[] {dst, src, bytes} : NO_ARGUMENTS);
    try {
      delegate.memcpyHtoD(dst, src, bytes);
    } catch (RuntimeException e) {
      throw failed(DriverCall.MEMCPY_HTOD, e);
    }
  }

  @Override
  public void memcpyDtoH(MemorySegment dst, long src, long bytes) {
    before(
        DriverCall.MEMCPY_DTOH, describesArguments ? new Object[] {dst, src, bytes} : NO_ARGUMENTS);
    try {
      delegate.memcpyDtoH(dst, src, bytes);
    } catch (RuntimeException e) {
      throw failed(DriverCall.MEMCPY_DTOH, e);
    }
  }

  @Override
  public void memcpyHtoDAsync(long dst, MemorySegment src, long bytes, CuStream stream) {
    before(
        DriverCall.MEMCPY_HTOD_ASYNC,
        describesArguments ? new Object[] {dst, src, bytes, stream} : NO_ARGUMENTS);
    try {
      delegate.memcpyHtoDAsync(dst, src, bytes, stream);
    } catch (RuntimeException e) {
      throw failed(DriverCall.MEMCPY_HTOD_ASYNC, e);
    }
  }

  @Override
  public void memcpyDtoHAsync(MemorySegment dst, long src, long bytes, CuStream stream) {
    before(
        DriverCall.MEMCPY_DTOH_ASYNC,
        describesArguments ? new Object[] {dst, src, bytes, stream} : NO_ARGUMENTS);
    try {
      delegate.memcpyDtoHAsync(dst, src, bytes, stream);
    } catch (RuntimeException e) {
      throw failed(DriverCall.MEMCPY_DTOH_ASYNC, e);
    }
  }

  @Override
  public void memcpyDtoDAsync(long dst, long src, long bytes, CuStream stream) {
    before(
        DriverCall.MEMCPY_DTOD_ASYNC,
        describesArguments ? new Object[] {dst, src, bytes, stream} : NO_ARGUMENTS);
    try {
      delegate.memcpyDtoDAsync(dst, src, bytes, stream);
    } catch (RuntimeException e) {
      throw failed(DriverCall.MEMCPY_DTOD_ASYNC, e);
    }
  }

  @Override
  public void memsetD8Async(long dst, byte value, long count, CuStream stream) {
    before(
        DriverCall.MEMSET_D8_ASYNC,
        describesArguments ? new Object[] {dst, value, count, stream} : NO_ARGUMENTS);
    try {
      delegate.memsetD8Async(dst, value, count, stream);
    } catch (RuntimeException e) {
      throw failed(DriverCall.MEMSET_D8_ASYNC, e);
    }
  }

  @Override
  public void memsetD16Async(long dst, short value, long count, CuStream stream) {
    before(
        DriverCall.MEMSET_D16_ASYNC,
        describesArguments ? new Object[] {dst, value, count, stream} : NO_ARGUMENTS);
    try {
      delegate.memsetD16Async(dst, value, count, stream);
    } catch (RuntimeException e) {
      throw failed(DriverCall.MEMSET_D16_ASYNC, e);
    }
  }

  @Override
  public void memsetD32Async(long dst, int value, long count, CuStream stream) {
    before(
        DriverCall.MEMSET_D32_ASYNC,
        describesArguments ? new Object[] {dst, value, count, stream} : NO_ARGUMENTS);
    try {
      delegate.memsetD32Async(dst, value, count, stream);
    } catch (RuntimeException e) {
      throw failed(DriverCall.MEMSET_D32_ASYNC, e);
    }
  }

  @Override
  public void memsetD2D32Async(
      long dst, long pitch, int value, long width, long height, CuStream stream) {
    before(
        DriverCall.MEMSET_D2D32_ASYNC,
        describesArguments
            ? new Object[] {dst, pitch, value, width, height, stream}
            : NO_ARGUMENTS);
    try {
      delegate.memsetD2D32Async(dst, pitch, value, width, height, stream);
    } catch (RuntimeException e) {
      throw failed(DriverCall.MEMSET_D2D32_ASYNC, e);
    }
  }

  @Override
  public CuModule moduleLoadData(ModuleImage image) {
    before(DriverCall.MODULE_LOAD_DATA, describesArguments ? new Object[] {image} : NO_ARGUMENTS);
    try {
      return delegate.moduleLoadData(image);
    } catch (RuntimeException e) {
      throw failed(DriverCall.MODULE_LOAD_DATA, e);
    }
  }

  @Override
  public void moduleUnload(CuModule module) {
    before(DriverCall.MODULE_UNLOAD, describesArguments ? new Object[] {module} : NO_ARGUMENTS);
    try {
      delegate.moduleUnload(module);
    } catch (RuntimeException e) {
      throw failed(DriverCall.MODULE_UNLOAD, e);
    }
  }

  @Override
  public CuFunction moduleGetFunction(CuModule module, String name) {
    before(
        DriverCall.MODULE_GET_FUNCTION,
        describesArguments ? new Object[] {module, name} : NO_ARGUMENTS);
    try {
      return delegate.moduleGetFunction(module, name);
    } catch (RuntimeException e) {
      throw failed(DriverCall.MODULE_GET_FUNCTION, e);
    }
  }

  @Override
  public Optional<ParamInfo> funcGetParamInfo(CuFunction function, int index) {
    before(
        DriverCall.FUNC_GET_PARAM_INFO,
        describesArguments ? new Object[] {function, index} : NO_ARGUMENTS);
    try {
      return delegate.funcGetParamInfo(function, index);
    } catch (RuntimeException e) {
      throw failed(DriverCall.FUNC_GET_PARAM_INFO, e);
    }
  }

  /**
   * {@inheritDoc}
   *
   * @since 0.2.0
   */
  @Override
  public int funcGetAttribute(CuFunction function, int attribute) {
    before(
        DriverCall.FUNC_GET_ATTRIBUTE,
        describesArguments ? new Object[] {function, attribute} : NO_ARGUMENTS);
    try {
      return delegate.funcGetAttribute(function, attribute);
    } catch (RuntimeException e) {
      throw failed(DriverCall.FUNC_GET_ATTRIBUTE, e);
    }
  }

  @Override
  public void funcSetAttribute(CuFunction function, int attribute, int value) {
    before(
        DriverCall.FUNC_SET_ATTRIBUTE,
        describesArguments ? new Object[] {function, attribute, value} : NO_ARGUMENTS);
    try {
      delegate.funcSetAttribute(function, attribute, value);
    } catch (RuntimeException e) {
      throw failed(DriverCall.FUNC_SET_ATTRIBUTE, e);
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
    before(
        DriverCall.LAUNCH_KERNEL,
        describesArguments
            ? new Object[] {
              function,
              gridX,
              gridY,
              gridZ,
              blockX,
              blockY,
              blockZ,
              sharedMemBytes,
              stream,
              arguments
            }
            : NO_ARGUMENTS);
    try {
      delegate.launchKernel(
          function, gridX, gridY, gridZ, blockX, blockY, blockZ, sharedMemBytes, stream, arguments);
    } catch (RuntimeException e) {
      throw failed(DriverCall.LAUNCH_KERNEL, e);
    }
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
    before(
        DriverCall.LAUNCH_KERNEL_EX,
        describesArguments
            ? new Object[] {
              function,
              gridX,
              gridY,
              gridZ,
              blockX,
              blockY,
              blockZ,
              sharedMemBytes,
              stream,
              arguments
            }
            : NO_ARGUMENTS);
    try {
      delegate.launchKernelProgrammatic(
          function, gridX, gridY, gridZ, blockX, blockY, blockZ, sharedMemBytes, stream, arguments);
    } catch (RuntimeException e) {
      throw failed(DriverCall.LAUNCH_KERNEL_EX, e);
    }
  }

  @Override
  public CuGraph graphCreate(int flags) {
    before(DriverCall.GRAPH_CREATE, describesArguments ? new Object[] {flags} : NO_ARGUMENTS);
    try {
      return delegate.graphCreate(flags);
    } catch (RuntimeException e) {
      throw failed(DriverCall.GRAPH_CREATE, e);
    }
  }

  @Override
  public void graphDestroy(CuGraph graph) {
    before(DriverCall.GRAPH_DESTROY, describesArguments ? new Object[] {graph} : NO_ARGUMENTS);
    try {
      delegate.graphDestroy(graph);
    } catch (RuntimeException e) {
      throw failed(DriverCall.GRAPH_DESTROY, e);
    }
  }

  @Override
  public CuGraphExec graphInstantiate(CuGraph graph, long flags) {
    before(
        DriverCall.GRAPH_INSTANTIATE,
        describesArguments ? new Object[] {graph, flags} : NO_ARGUMENTS);
    try {
      return delegate.graphInstantiate(graph, flags);
    } catch (RuntimeException e) {
      throw failed(DriverCall.GRAPH_INSTANTIATE, e);
    }
  }

  @Override
  public void graphUpload(CuGraphExec exec, CuStream stream) {
    before(
        DriverCall.GRAPH_UPLOAD, describesArguments ? new Object[] {exec, stream} : NO_ARGUMENTS);
    try {
      delegate.graphUpload(exec, stream);
    } catch (RuntimeException e) {
      throw failed(DriverCall.GRAPH_UPLOAD, e);
    }
  }

  @Override
  public void graphLaunch(CuGraphExec exec, CuStream stream) {
    before(
        DriverCall.GRAPH_LAUNCH, describesArguments ? new Object[] {exec, stream} : NO_ARGUMENTS);
    try {
      delegate.graphLaunch(exec, stream);
    } catch (RuntimeException e) {
      throw failed(DriverCall.GRAPH_LAUNCH, e);
    }
  }

  @Override
  public void graphExecDestroy(CuGraphExec exec) {
    before(DriverCall.GRAPH_EXEC_DESTROY, describesArguments ? new Object[] {exec} : NO_ARGUMENTS);
    try {
      delegate.graphExecDestroy(exec);
    } catch (RuntimeException e) {
      throw failed(DriverCall.GRAPH_EXEC_DESTROY, e);
    }
  }

  @Override
  public void graphExecUpdate(CuGraphExec exec, CuGraph graph) {
    before(
        DriverCall.GRAPH_EXEC_UPDATE,
        describesArguments ? new Object[] {exec, graph} : NO_ARGUMENTS);
    try {
      delegate.graphExecUpdate(exec, graph);
    } catch (RuntimeException e) {
      throw failed(DriverCall.GRAPH_EXEC_UPDATE, e);
    }
  }

  @Override
  public List<CuGraphNode> graphGetNodes(CuGraph graph) {
    before(DriverCall.GRAPH_GET_NODES, describesArguments ? new Object[] {graph} : NO_ARGUMENTS);
    try {
      return delegate.graphGetNodes(graph);
    } catch (RuntimeException e) {
      throw failed(DriverCall.GRAPH_GET_NODES, e);
    }
  }

  @Override
  public GraphNodeType graphNodeGetType(CuGraphNode node) {
    before(DriverCall.GRAPH_NODE_GET_TYPE, describesArguments ? new Object[] {node} : NO_ARGUMENTS);
    try {
      return delegate.graphNodeGetType(node);
    } catch (RuntimeException e) {
      throw failed(DriverCall.GRAPH_NODE_GET_TYPE, e);
    }
  }

  @Override
  public void graphDebugDotPrint(CuGraph graph, Path path, int flags) {
    before(
        DriverCall.GRAPH_DEBUG_DOT_PRINT,
        describesArguments ? new Object[] {graph, path, flags} : NO_ARGUMENTS);
    try {
      delegate.graphDebugDotPrint(graph, path, flags);
    } catch (RuntimeException e) {
      throw failed(DriverCall.GRAPH_DEBUG_DOT_PRINT, e);
    }
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
    before(
        DriverCall.GRAPH_EXEC_KERNEL_NODE_SET_PARAMS,
        describesArguments
            ? new Object[] {exec, node, function, grid, block, sharedMemBytes, arguments}
            : NO_ARGUMENTS);
    try {
      delegate.graphExecKernelNodeSetParams(
          exec, node, function, grid, block, sharedMemBytes, arguments);
    } catch (RuntimeException e) {
      throw failed(DriverCall.GRAPH_EXEC_KERNEL_NODE_SET_PARAMS, e);
    }
  }

  @Override
  public void graphExecMemcpyNodeSetParams(
      CuGraphExec exec,
      CuGraphNode node,
      CopyEndpoint destination,
      CopyEndpoint source,
      long bytes) {
    before(
        DriverCall.GRAPH_EXEC_MEMCPY_NODE_SET_PARAMS,
        describesArguments ? new Object[] {exec, node, destination, source, bytes} : NO_ARGUMENTS);
    try {
      delegate.graphExecMemcpyNodeSetParams(exec, node, destination, source, bytes);
    } catch (RuntimeException e) {
      throw failed(DriverCall.GRAPH_EXEC_MEMCPY_NODE_SET_PARAMS, e);
    }
  }

  @Override
  public void graphExecMemsetNodeSetParams(
      CuGraphExec exec,
      CuGraphNode node,
      long destination,
      int elementSize,
      int value,
      long count) {
    before(
        DriverCall.GRAPH_EXEC_MEMSET_NODE_SET_PARAMS,
        describesArguments
            ? new Object[] {exec, node, destination, elementSize, value, count}
            : NO_ARGUMENTS);
    try {
      delegate.graphExecMemsetNodeSetParams(exec, node, destination, elementSize, value, count);
    } catch (RuntimeException e) {
      throw failed(DriverCall.GRAPH_EXEC_MEMSET_NODE_SET_PARAMS, e);
    }
  }

  @Override
  public void graphNodeSetEnabled(CuGraphExec exec, CuGraphNode node, boolean enabled) {
    before(
        DriverCall.GRAPH_NODE_SET_ENABLED,
        describesArguments ? new Object[] {exec, node, enabled} : NO_ARGUMENTS);
    try {
      delegate.graphNodeSetEnabled(exec, node, enabled);
    } catch (RuntimeException e) {
      throw failed(DriverCall.GRAPH_NODE_SET_ENABLED, e);
    }
  }

  @Override
  public boolean graphNodeGetEnabled(CuGraphExec exec, CuGraphNode node) {
    before(
        DriverCall.GRAPH_NODE_GET_ENABLED,
        describesArguments ? new Object[] {exec, node} : NO_ARGUMENTS);
    try {
      return delegate.graphNodeGetEnabled(exec, node);
    } catch (RuntimeException e) {
      throw failed(DriverCall.GRAPH_NODE_GET_ENABLED, e);
    }
  }

  @Override
  public CuGraphNode graphAddChildGraphNode(
      CuGraph graph, List<CuGraphNode> dependencies, CuGraph child) {
    before(
        DriverCall.GRAPH_ADD_CHILD_GRAPH_NODE,
        describesArguments ? new Object[] {graph, dependencies, child} : NO_ARGUMENTS);
    try {
      return delegate.graphAddChildGraphNode(graph, dependencies, child);
    } catch (RuntimeException e) {
      throw failed(DriverCall.GRAPH_ADD_CHILD_GRAPH_NODE, e);
    }
  }

  @Override
  public void graphExecChildGraphNodeSetParams(CuGraphExec exec, CuGraphNode node, CuGraph child) {
    before(
        DriverCall.GRAPH_EXEC_CHILD_GRAPH_NODE_SET_PARAMS,
        describesArguments ? new Object[] {exec, node, child} : NO_ARGUMENTS);
    try {
      delegate.graphExecChildGraphNodeSetParams(exec, node, child);
    } catch (RuntimeException e) {
      throw failed(DriverCall.GRAPH_EXEC_CHILD_GRAPH_NODE_SET_PARAMS, e);
    }
  }

  @Override
  public ConditionalHandle graphConditionalHandleCreate(
      CuGraph graph, int defaultLaunchValue, int flags) {
    before(
        DriverCall.GRAPH_CONDITIONAL_HANDLE_CREATE,
        describesArguments ? new Object[] {graph, defaultLaunchValue, flags} : NO_ARGUMENTS);
    try {
      return delegate.graphConditionalHandleCreate(graph, defaultLaunchValue, flags);
    } catch (RuntimeException e) {
      throw failed(DriverCall.GRAPH_CONDITIONAL_HANDLE_CREATE, e);
    }
  }

  @Override
  public ConditionalNode graphAddConditionalNode(
      CuGraph graph,
      List<CuGraphNode> dependencies,
      ConditionalHandle handle,
      ConditionalType type,
      int size) {
    before(
        DriverCall.GRAPH_ADD_NODE,
        describesArguments ? new Object[] {graph, dependencies, handle, type, size} : NO_ARGUMENTS);
    try {
      return delegate.graphAddConditionalNode(graph, dependencies, handle, type, size);
    } catch (RuntimeException e) {
      throw failed(DriverCall.GRAPH_ADD_NODE, e);
    }
  }
}
