// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 the cuda-graph authors
package cuda.graph.driver.internal;

import static cuda.graph.driver.internal.Downcall.rethrow;
import static cuda.graph.driver.internal.Errors.check;
import static java.lang.foreign.ValueLayout.JAVA_FLOAT;
import static java.lang.foreign.ValueLayout.JAVA_INT;
import static java.lang.foreign.ValueLayout.JAVA_LONG;

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
import cuda.graph.spi.CudaDriver;
import cuda.graph.spi.CudaDriverException;
import cuda.graph.spi.Dim3;
import cuda.graph.spi.DriverCall;
import cuda.graph.spi.GraphExecUpdateException;
import cuda.graph.spi.GraphMemAttribute;
import cuda.graph.spi.GraphNodeType;
import cuda.graph.spi.HostFunction;
import cuda.graph.spi.KernelArguments;
import cuda.graph.spi.MemoryInfo;
import cuda.graph.spi.ModuleImage;
import cuda.graph.spi.ParamInfo;
import cuda.graph.spi.RuntimeCompiler;
import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.lang.invoke.MethodHandle;
import java.nio.file.FileSystems;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.Optional;
import java.util.concurrent.atomic.AtomicBoolean;
import org.jspecify.annotations.Nullable;

/**
 * {@link CudaDriver} over the real driver: each method marshals its arguments for one {@code
 * libcuda} entry point, invokes that {@link CuEntry}'s handle and has {@link Errors} check the
 * status against the same entry.
 *
 * <p><b>Allocation.</b> The hot paths ({@link #launchKernel}, {@link #graphLaunch}, {@link
 * #streamSynchronize}, {@link #streamQuery}, {@link #eventRecord}, {@link #eventQuery} and the
 * asynchronous copies and memsets) allocate nothing: handles travel as {@code long}s, host buffers
 * and kernel arguments as the caller's own native segments. Calls with out-parameters use the
 * thread's {@link Scratch}, and so do the node parameter structs ({@link DriverStructs}) of the
 * per-node updates; only calls that must pass variable-sized input (a module image, a kernel name,
 * a file path, a node array) take a confined arena for the duration of the call.
 *
 * <p><b>Newer calls.</b> An SPI call whose entry point is newer than the bound driver (conditional
 * nodes and capture into a graph need CUDA 12.3, {@code cuFuncGetParamInfo} 12.4) fails with {@code
 * CUDA_ERROR_NOT_SUPPORTED} before any native call, saying which driver it needs; the rest of the
 * driver works as before.
 *
 * <p><b>Handles.</b> The hot paths invoke {@link CuEntry#constantHandle()}s held in {@code static
 * final} fields, so the JIT folds each {@code invokeExact} into a direct call of the downcall stub;
 * holding them links nothing (each links on its first call). The other calls invoke their entry's
 * {@link CuEntry#handle()}, linked on first use.
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

  /** The segments of pinned host memory, invalidated when their memory is freed. */
  private final PinnedSegments pinned = new PinnedSegments();

  /** {@code CU_STREAM_CAPTURE_STATUS_ACTIVE}. */
  private static final int CAPTURE_ACTIVE = 1;

  // The launch path's handles, each named like its entry (a test checks the pairing). Only these:
  // a constant handle costs the JVM a few milliseconds per new signature shape when this class is
  // initialized, which the calls made once per stream, graph or program need not pay up front.
  private static final MethodHandle LAUNCH_KERNEL = CuEntry.LAUNCH_KERNEL.constantHandle();
  private static final MethodHandle LAUNCH_KERNEL_EX = CuEntry.LAUNCH_KERNEL_EX.constantHandle();
  private static final MethodHandle GRAPH_LAUNCH = CuEntry.GRAPH_LAUNCH.constantHandle();
  private static final MethodHandle STREAM_SYNCHRONIZE =
      CuEntry.STREAM_SYNCHRONIZE.constantHandle();
  private static final MethodHandle STREAM_QUERY = CuEntry.STREAM_QUERY.constantHandle();
  private static final MethodHandle EVENT_RECORD = CuEntry.EVENT_RECORD.constantHandle();
  private static final MethodHandle EVENT_QUERY = CuEntry.EVENT_QUERY.constantHandle();
  private static final MethodHandle STREAM_WAIT_EVENT = CuEntry.STREAM_WAIT_EVENT.constantHandle();
  private static final MethodHandle MEMCPY_HTOD_ASYNC = CuEntry.MEMCPY_HTOD_ASYNC.constantHandle();
  private static final MethodHandle MEMCPY_DTOH_ASYNC = CuEntry.MEMCPY_DTOH_ASYNC.constantHandle();
  private static final MethodHandle MEMCPY_DTOD_ASYNC = CuEntry.MEMCPY_DTOD_ASYNC.constantHandle();
  private static final MethodHandle MEMSET_D8_ASYNC = CuEntry.MEMSET_D8_ASYNC.constantHandle();
  private static final MethodHandle MEMSET_D16_ASYNC = CuEntry.MEMSET_D16_ASYNC.constantHandle();
  private static final MethodHandle MEMSET_D32_ASYNC = CuEntry.MEMSET_D32_ASYNC.constantHandle();
  private static final MethodHandle MEMSET_D2D32_ASYNC =
      CuEntry.MEMSET_D2D32_ASYNC.constantHandle();

  private final AtomicBoolean closed = new AtomicBoolean();

  /** Makes a driver view; touches no native code, so argument checks are testable without a GPU. */
  FfmCudaDriver() {}

  // Every call below has the same shape: marshal, invoke the entry's handle inside a try whose
  // catch only absorbs invokeExact's `throws Throwable` (see Downcall#rethrow), check the status.

  // ---- initialization, versions, errors

  @Override
  public void init(int flags) {
    try {
      check((int) CuEntry.INIT.handle().invokeExact(flags), CuEntry.INIT);
    } catch (Throwable t) {
      throw rethrow(t);
    }
  }

  @Override
  public int driverGetVersion() {
    MemorySegment out = Scratch.get().slot(0);
    try {
      check((int) CuEntry.DRIVER_GET_VERSION.handle().invokeExact(out), CuEntry.DRIVER_GET_VERSION);
    } catch (Throwable t) {
      throw rethrow(t);
    }
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
    try {
      check((int) CuEntry.DEVICE_GET_COUNT.handle().invokeExact(out), CuEntry.DEVICE_GET_COUNT);
    } catch (Throwable t) {
      throw rethrow(t);
    }
    return out.get(JAVA_INT, 0);
  }

  @Override
  public int deviceGet(int ordinal) {
    MemorySegment out = Scratch.get().slot(0);
    try {
      check((int) CuEntry.DEVICE_GET.handle().invokeExact(out, ordinal), CuEntry.DEVICE_GET);
    } catch (Throwable t) {
      throw rethrow(t);
    }
    return out.get(JAVA_INT, 0);
  }

  @Override
  public String deviceGetName(int device) {
    MemorySegment text = Scratch.get().text();
    try {
      int status =
          (int) CuEntry.DEVICE_GET_NAME.handle().invokeExact(text, (int) text.byteSize(), device);
      check(status, CuEntry.DEVICE_GET_NAME);
    } catch (Throwable t) {
      throw rethrow(t);
    }
    return text.getString(0);
  }

  @Override
  public int deviceGetAttribute(int attribute, int device) {
    MemorySegment out = Scratch.get().slot(0);
    try {
      int status = (int) CuEntry.DEVICE_GET_ATTRIBUTE.handle().invokeExact(out, attribute, device);
      check(status, CuEntry.DEVICE_GET_ATTRIBUTE);
    } catch (Throwable t) {
      throw rethrow(t);
    }
    return out.get(JAVA_INT, 0);
  }

  @Override
  public long deviceTotalMem(int device) {
    MemorySegment out = Scratch.get().slot(0);
    try {
      check(
          (int) CuEntry.DEVICE_TOTAL_MEM.handle().invokeExact(out, device),
          CuEntry.DEVICE_TOTAL_MEM);
    } catch (Throwable t) {
      throw rethrow(t);
    }
    return out.get(JAVA_LONG, 0);
  }

  @Override
  public CuContext devicePrimaryCtxRetain(int device) {
    MemorySegment out = Scratch.get().slot(0);
    try {
      int status = (int) CuEntry.DEVICE_PRIMARY_CTX_RETAIN.handle().invokeExact(out, device);
      check(status, CuEntry.DEVICE_PRIMARY_CTX_RETAIN);
    } catch (Throwable t) {
      throw rethrow(t);
    }
    return new CuContext(out.get(JAVA_LONG, 0));
  }

  @Override
  public void devicePrimaryCtxRelease(int device) {
    try {
      int status = (int) CuEntry.DEVICE_PRIMARY_CTX_RELEASE.handle().invokeExact(device);
      check(status, CuEntry.DEVICE_PRIMARY_CTX_RELEASE);
    } catch (Throwable t) {
      throw rethrow(t);
    }
  }

  @Override
  public void ctxSetCurrent(@Nullable CuContext context) {
    try {
      int status =
          (int)
              CuEntry.CTX_SET_CURRENT.handle().invokeExact(context == null ? 0 : context.address());
      check(status, CuEntry.CTX_SET_CURRENT);
    } catch (Throwable t) {
      throw rethrow(t);
    }
  }

  @Override
  public @Nullable CuContext ctxGetCurrent() {
    MemorySegment out = Scratch.get().slot(0);
    try {
      check((int) CuEntry.CTX_GET_CURRENT.handle().invokeExact(out), CuEntry.CTX_GET_CURRENT);
    } catch (Throwable t) {
      throw rethrow(t);
    }
    long context = out.get(JAVA_LONG, 0);
    return context == 0 ? null : new CuContext(context);
  }

  @Override
  public long deviceGetGraphMemAttribute(int device, GraphMemAttribute attribute) {
    MemorySegment out = Scratch.get().slot(0);
    try {
      int status =
          (int)
              CuEntry.DEVICE_GET_GRAPH_MEM_ATTRIBUTE
                  .handle()
                  .invokeExact(device, attribute.code(), out);
      check(status, CuEntry.DEVICE_GET_GRAPH_MEM_ATTRIBUTE);
    } catch (Throwable t) {
      throw rethrow(t);
    }
    return out.get(JAVA_LONG, 0); // a cuuint64_t; no device has 2^63 bytes
  }

  @Override
  public void deviceSetGraphMemAttribute(int device, GraphMemAttribute attribute, long value) {
    MemorySegment in = Scratch.get().slot(0);
    in.set(JAVA_LONG, 0, value);
    try {
      int status =
          (int)
              CuEntry.DEVICE_SET_GRAPH_MEM_ATTRIBUTE
                  .handle()
                  .invokeExact(device, attribute.code(), in);
      check(status, CuEntry.DEVICE_SET_GRAPH_MEM_ATTRIBUTE);
    } catch (Throwable t) {
      throw rethrow(t);
    }
  }

  @Override
  public void deviceGraphMemTrim(int device) {
    try {
      check(
          (int) CuEntry.DEVICE_GRAPH_MEM_TRIM.handle().invokeExact(device),
          CuEntry.DEVICE_GRAPH_MEM_TRIM);
    } catch (Throwable t) {
      throw rethrow(t);
    }
  }

  // ---- streams

  @Override
  public CuStream streamCreate(int flags) {
    MemorySegment out = Scratch.get().slot(0);
    try {
      check((int) CuEntry.STREAM_CREATE.handle().invokeExact(out, flags), CuEntry.STREAM_CREATE);
    } catch (Throwable t) {
      throw rethrow(t);
    }
    return new CuStream(out.get(JAVA_LONG, 0));
  }

  @Override
  public void streamDestroy(CuStream stream) {
    try {
      check(
          (int) CuEntry.STREAM_DESTROY.handle().invokeExact(stream.address()),
          CuEntry.STREAM_DESTROY);
    } catch (Throwable t) {
      throw rethrow(t);
    }
  }

  @Override
  public void streamSynchronize(CuStream stream) {
    try {
      check((int) STREAM_SYNCHRONIZE.invokeExact(stream.address()), CuEntry.STREAM_SYNCHRONIZE);
    } catch (Throwable t) {
      throw rethrow(t);
    }
  }

  @Override
  public boolean streamQuery(CuStream stream) {
    int status;
    try {
      status = (int) STREAM_QUERY.invokeExact(stream.address());
    } catch (Throwable t) {
      throw rethrow(t);
    }
    if (status == CuResult.NOT_READY) {
      return false;
    }
    check(status, CuEntry.STREAM_QUERY);
    return true;
  }

  @Override
  public void streamWaitEvent(CuStream stream, CuEvent event, int flags) {
    try {
      int status = (int) STREAM_WAIT_EVENT.invokeExact(stream.address(), event.address(), flags);
      check(status, CuEntry.STREAM_WAIT_EVENT);
    } catch (Throwable t) {
      throw rethrow(t);
    }
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
    int status;
    try {
      status =
          (int)
              CuEntry.LAUNCH_HOST_FUNC
                  .handle()
                  .invokeExact(stream.address(), HostFunctions.stub(), id);
    } catch (Throwable t) {
      throw rethrow(t);
    }
    if (status != CuResult.SUCCESS) {
      HostFunctions.unregister(id);
      throw Errors.failure(status, CuEntry.LAUNCH_HOST_FUNC, null);
    }
  }

  /**
   * Whether work issued to {@code stream} now is captured. A failing query (the legacy stream while
   * a blocking stream captures) counts as not capturing: the launch that follows then fails the
   * same way, and its registration is removed.
   */
  private static boolean isCapturing(CuStream stream) {
    MemorySegment out = Scratch.get().zeroedSlot(0);
    try {
      return (int) CuEntry.STREAM_IS_CAPTURING.handle().invokeExact(stream.address(), out)
              == CuResult.SUCCESS
          && out.get(JAVA_INT, 0) != 0;
    } catch (Throwable t) {
      throw rethrow(t);
    }
  }

  // ---- stream capture

  @Override
  public void streamBeginCapture(CuStream stream, CaptureMode mode) {
    try {
      int status =
          (int) CuEntry.STREAM_BEGIN_CAPTURE.handle().invokeExact(stream.address(), mode.code());
      check(status, CuEntry.STREAM_BEGIN_CAPTURE);
    } catch (Throwable t) {
      throw rethrow(t);
    }
  }

  @Override
  public @Nullable CuGraph streamEndCapture(CuStream stream) {
    MemorySegment out = Scratch.get().zeroedSlot(0);
    try {
      int status = (int) CuEntry.STREAM_END_CAPTURE.handle().invokeExact(stream.address(), out);
      check(status, CuEntry.STREAM_END_CAPTURE);
    } catch (Throwable t) {
      throw rethrow(t);
    }
    long graph = out.get(JAVA_LONG, 0);
    return graph == 0 ? null : new CuGraph(graph);
  }

  @Override
  public CaptureStatus streamIsCapturing(CuStream stream) {
    MemorySegment out = Scratch.get().zeroedSlot(0);
    try {
      int status = (int) CuEntry.STREAM_IS_CAPTURING.handle().invokeExact(stream.address(), out);
      check(status, CuEntry.STREAM_IS_CAPTURING);
    } catch (Throwable t) {
      throw rethrow(t);
    }
    return captureStatus(out.get(JAVA_INT, 0));
  }

  /**
   * {@inheritDoc}
   *
   * <p>An edge-data pointer is always passed: {@code _v3} answers {@code CUDA_ERROR_LOSSY_QUERY}
   * when it is NULL and an edge carries non-default data. The edge data itself is not reported. A
   * driver older than 12.3 gets {@code _v2}, which has no edge data.
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
    CuEntry bound = DriverAbi.CAPTURE_INFO;
    long h = stream.address();
    try {
      int result =
          bound == CuEntry.STREAM_GET_CAPTURE_INFO
              ? (int)
                  bound.handle().invokeExact(h, status, id, graph, dependencies, edgeData, count)
              : (int) bound.handle().invokeExact(h, status, id, graph, dependencies, count);
      check(result, bound);
    } catch (Throwable t) {
      throw rethrow(t);
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
    try {
      int status = (int) CuEntry.THREAD_EXCHANGE_STREAM_CAPTURE_MODE.handle().invokeExact(inOut);
      check(status, CuEntry.THREAD_EXCHANGE_STREAM_CAPTURE_MODE);
    } catch (Throwable t) {
      throw rethrow(t);
    }
    return CaptureMode.ofCode(inOut.get(JAVA_INT, 0));
  }

  /**
   * {@inheritDoc}
   *
   * <p>No edge data is passed: every dependency is a full-completion edge, the default. Needs a
   * CUDA 12.3 driver; on an older one fails with {@code CUDA_ERROR_NOT_SUPPORTED}.
   */
  @Override
  public void streamBeginCaptureToGraph(
      CuStream stream, CuGraph graph, List<CuGraphNode> dependencies, CaptureMode mode) {
    CuEntry entry = requireBound(CuEntry.STREAM_BEGIN_CAPTURE_TO_GRAPH);
    try (Arena arena = Arena.ofConfined()) {
      MemorySegment nodes = nodeArray(arena, dependencies);
      int status;
      try {
        status =
            (int)
                entry
                    .handle()
                    .invokeExact(
                        stream.address(),
                        graph.address(),
                        nodes,
                        MemorySegment.NULL,
                        (long) dependencies.size(),
                        mode.code());
      } catch (Throwable t) {
        throw rethrow(t);
      }
      check(status, entry);
    }
  }

  /**
   * {@inheritDoc}
   *
   * <p>No edge data is passed: every dependency is a full-completion edge, the default. Needs a
   * CUDA 12.3 driver; on an older one fails with {@code CUDA_ERROR_NOT_SUPPORTED}.
   */
  @Override
  public void streamUpdateCaptureDependencies(
      CuStream stream, List<CuGraphNode> dependencies, int flags) {
    CuEntry entry = requireBound(CuEntry.STREAM_UPDATE_CAPTURE_DEPENDENCIES);
    try (Arena arena = Arena.ofConfined()) {
      MemorySegment nodes = nodeArray(arena, dependencies);
      int status;
      try {
        status =
            (int)
                entry
                    .handle()
                    .invokeExact(
                        stream.address(),
                        nodes,
                        MemorySegment.NULL,
                        (long) dependencies.size(),
                        flags);
      } catch (Throwable t) {
        throw rethrow(t);
      }
      check(status, entry);
    }
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
    try {
      check((int) CuEntry.EVENT_CREATE.handle().invokeExact(out, flags), CuEntry.EVENT_CREATE);
    } catch (Throwable t) {
      throw rethrow(t);
    }
    return new CuEvent(out.get(JAVA_LONG, 0));
  }

  @Override
  public void eventDestroy(CuEvent event) {
    try {
      check(
          (int) CuEntry.EVENT_DESTROY.handle().invokeExact(event.address()), CuEntry.EVENT_DESTROY);
    } catch (Throwable t) {
      throw rethrow(t);
    }
  }

  @Override
  public void eventRecord(CuEvent event, CuStream stream) {
    try {
      int status = (int) EVENT_RECORD.invokeExact(event.address(), stream.address());
      check(status, CuEntry.EVENT_RECORD);
    } catch (Throwable t) {
      throw rethrow(t);
    }
  }

  @Override
  public void eventRecordWithFlags(CuEvent event, CuStream stream, int flags) {
    try {
      int status =
          (int)
              CuEntry.EVENT_RECORD_WITH_FLAGS
                  .handle()
                  .invokeExact(event.address(), stream.address(), flags);
      check(status, CuEntry.EVENT_RECORD_WITH_FLAGS);
    } catch (Throwable t) {
      throw rethrow(t);
    }
  }

  @Override
  public boolean eventQuery(CuEvent event) {
    int status;
    try {
      status = (int) EVENT_QUERY.invokeExact(event.address());
    } catch (Throwable t) {
      throw rethrow(t);
    }
    if (status == CuResult.NOT_READY) {
      return false;
    }
    check(status, CuEntry.EVENT_QUERY);
    return true;
  }

  @Override
  public void eventSynchronize(CuEvent event) {
    try {
      check(
          (int) CuEntry.EVENT_SYNCHRONIZE.handle().invokeExact(event.address()),
          CuEntry.EVENT_SYNCHRONIZE);
    } catch (Throwable t) {
      throw rethrow(t);
    }
  }

  /** {@inheritDoc} A driver older than 12.8 gets the original {@code cuEventElapsedTime}. */
  @Override
  public float eventElapsedTime(CuEvent start, CuEvent end) {
    MemorySegment out = Scratch.get().slot(0);
    CuEntry bound = DriverAbi.ELAPSED_TIME;
    try {
      // Both forms take the same arguments; only the symbol differs.
      check((int) bound.handle().invokeExact(out, start.address(), end.address()), bound);
    } catch (Throwable t) {
      throw rethrow(t);
    }
    return out.get(JAVA_FLOAT, 0);
  }

  // ---- memory

  @Override
  public long memAlloc(long bytes) {
    MemorySegment out = Scratch.get().slot(0);
    try {
      check((int) CuEntry.MEM_ALLOC.handle().invokeExact(out, bytes), CuEntry.MEM_ALLOC);
    } catch (Throwable t) {
      throw rethrow(t);
    }
    return out.get(JAVA_LONG, 0);
  }

  @Override
  public void memFree(long devicePointer) {
    try {
      check((int) CuEntry.MEM_FREE.handle().invokeExact(devicePointer), CuEntry.MEM_FREE);
    } catch (Throwable t) {
      throw rethrow(t);
    }
  }

  @Override
  public long memAllocAsync(long bytes, CuStream stream) {
    MemorySegment out = Scratch.get().slot(0);
    try {
      int status = (int) CuEntry.MEM_ALLOC_ASYNC.handle().invokeExact(out, bytes, stream.address());
      check(status, CuEntry.MEM_ALLOC_ASYNC);
    } catch (Throwable t) {
      throw rethrow(t);
    }
    return out.get(JAVA_LONG, 0);
  }

  @Override
  public void memFreeAsync(long devicePointer, CuStream stream) {
    try {
      int status =
          (int) CuEntry.MEM_FREE_ASYNC.handle().invokeExact(devicePointer, stream.address());
      check(status, CuEntry.MEM_FREE_ASYNC);
    } catch (Throwable t) {
      throw rethrow(t);
    }
  }

  /**
   * {@inheritDoc}
   *
   * <p>The segment, and every slice of it, is valid until {@link #memFreeHost} frees the memory:
   * from then on any access fails with {@link IllegalStateException} instead of touching freed
   * memory.
   */
  @Override
  public MemorySegment memAllocHost(long bytes) {
    MemorySegment out = Scratch.get().slot(0);
    try {
      check((int) CuEntry.MEM_ALLOC_HOST.handle().invokeExact(out, bytes), CuEntry.MEM_ALLOC_HOST);
    } catch (Throwable t) {
      throw rethrow(t);
    }
    return pinned.scoped(out.get(JAVA_LONG, 0), bytes);
  }

  @Override
  public void memFreeHost(MemorySegment hostMemory) {
    HostSegments.requireNative(hostMemory, DriverCall.MEM_FREE_HOST);
    // Invalidate first: whatever the driver answers, the caller is done with this memory.
    pinned.free(hostMemory.address());
    try {
      check(
          (int) CuEntry.MEM_FREE_HOST.handle().invokeExact(hostMemory.address()),
          CuEntry.MEM_FREE_HOST);
    } catch (Throwable t) {
      throw rethrow(t);
    }
  }

  /**
   * {@inheritDoc}
   *
   * <p>The segment, and every slice of it, is valid until {@link #memFreeHost} frees the memory, as
   * for {@link #memAllocHost}; kernels may still reach the memory through its device pointer, so
   * the caller frees it only once no queued work uses it.
   */
  @Override
  public MemorySegment memHostAlloc(long bytes, int flags) {
    MemorySegment out = Scratch.get().slot(0);
    try {
      int status = (int) CuEntry.MEM_HOST_ALLOC.handle().invokeExact(out, bytes, flags);
      check(status, CuEntry.MEM_HOST_ALLOC);
    } catch (Throwable t) {
      throw rethrow(t);
    }
    return pinned.scoped(out.get(JAVA_LONG, 0), bytes);
  }

  @Override
  public long memHostGetDevicePointer(MemorySegment hostMemory, int flags) {
    HostSegments.requireNative(hostMemory, DriverCall.MEM_HOST_GET_DEVICE_POINTER);
    MemorySegment out = Scratch.get().slot(0);
    try {
      int status =
          (int)
              CuEntry.MEM_HOST_GET_DEVICE_POINTER
                  .handle()
                  .invokeExact(out, hostMemory.address(), flags);
      check(status, CuEntry.MEM_HOST_GET_DEVICE_POINTER);
    } catch (Throwable t) {
      throw rethrow(t);
    }
    return out.get(JAVA_LONG, 0);
  }

  @Override
  public MemoryInfo memGetInfo() {
    Scratch scratch = Scratch.get();
    MemorySegment free = scratch.slot(0);
    MemorySegment total = scratch.slot(1);
    try {
      check((int) CuEntry.MEM_GET_INFO.handle().invokeExact(free, total), CuEntry.MEM_GET_INFO);
    } catch (Throwable t) {
      throw rethrow(t);
    }
    return new MemoryInfo(free.get(JAVA_LONG, 0), total.get(JAVA_LONG, 0));
  }

  @Override
  public void memcpyHtoD(long dst, MemorySegment src, long bytes) {
    HostSegments.requireNative(src, bytes, DriverCall.MEMCPY_HTOD);
    try {
      check((int) CuEntry.MEMCPY_HTOD.handle().invokeExact(dst, src, bytes), CuEntry.MEMCPY_HTOD);
    } catch (Throwable t) {
      throw rethrow(t);
    }
  }

  @Override
  public void memcpyDtoH(MemorySegment dst, long src, long bytes) {
    HostSegments.requireNative(dst, bytes, DriverCall.MEMCPY_DTOH);
    try {
      check((int) CuEntry.MEMCPY_DTOH.handle().invokeExact(dst, src, bytes), CuEntry.MEMCPY_DTOH);
    } catch (Throwable t) {
      throw rethrow(t);
    }
  }

  @Override
  public void memcpyHtoDAsync(long dst, MemorySegment src, long bytes, CuStream stream) {
    HostSegments.requireNative(src, bytes, DriverCall.MEMCPY_HTOD_ASYNC);
    try {
      int status = (int) MEMCPY_HTOD_ASYNC.invokeExact(dst, src, bytes, stream.address());
      check(status, CuEntry.MEMCPY_HTOD_ASYNC);
    } catch (Throwable t) {
      throw rethrow(t);
    }
  }

  @Override
  public void memcpyDtoHAsync(MemorySegment dst, long src, long bytes, CuStream stream) {
    HostSegments.requireNative(dst, bytes, DriverCall.MEMCPY_DTOH_ASYNC);
    try {
      int status = (int) MEMCPY_DTOH_ASYNC.invokeExact(dst, src, bytes, stream.address());
      check(status, CuEntry.MEMCPY_DTOH_ASYNC);
    } catch (Throwable t) {
      throw rethrow(t);
    }
  }

  @Override
  public void memcpyDtoDAsync(long dst, long src, long bytes, CuStream stream) {
    try {
      int status = (int) MEMCPY_DTOD_ASYNC.invokeExact(dst, src, bytes, stream.address());
      check(status, CuEntry.MEMCPY_DTOD_ASYNC);
    } catch (Throwable t) {
      throw rethrow(t);
    }
  }

  @Override
  public void memsetD8Async(long dst, byte value, long count, CuStream stream) {
    try {
      int status = (int) MEMSET_D8_ASYNC.invokeExact(dst, value, count, stream.address());
      check(status, CuEntry.MEMSET_D8_ASYNC);
    } catch (Throwable t) {
      throw rethrow(t);
    }
  }

  @Override
  public void memsetD16Async(long dst, short value, long count, CuStream stream) {
    try {
      int status = (int) MEMSET_D16_ASYNC.invokeExact(dst, value, count, stream.address());
      check(status, CuEntry.MEMSET_D16_ASYNC);
    } catch (Throwable t) {
      throw rethrow(t);
    }
  }

  @Override
  public void memsetD32Async(long dst, int value, long count, CuStream stream) {
    try {
      int status = (int) MEMSET_D32_ASYNC.invokeExact(dst, value, count, stream.address());
      check(status, CuEntry.MEMSET_D32_ASYNC);
    } catch (Throwable t) {
      throw rethrow(t);
    }
  }

  @Override
  public void memsetD2D32Async(
      long dst, long pitch, int value, long width, long height, CuStream stream) {
    try {
      int status =
          (int) MEMSET_D2D32_ASYNC.invokeExact(dst, pitch, value, width, height, stream.address());
      check(status, CuEntry.MEMSET_D2D32_ASYNC);
    } catch (Throwable t) {
      throw rethrow(t);
    }
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
      int status;
      try {
        status =
            (int)
                CuEntry.MODULE_LOAD_DATA
                    .handle()
                    .invokeExact(
                        out,
                        bytes,
                        ModuleImages.ErrorLog.COUNT,
                        errorLog.options(),
                        errorLog.values());
      } catch (Throwable t) {
        throw rethrow(t);
      }
      if (status != CuResult.SUCCESS) {
        throw Errors.failure(
            status,
            CuEntry.MODULE_LOAD_DATA,
            ModuleImages.failureDetail(status, image.format(), errorLog.log()));
      }
      return new CuModule(out.get(JAVA_LONG, 0));
    }
  }

  @Override
  public void moduleUnload(CuModule module) {
    try {
      check(
          (int) CuEntry.MODULE_UNLOAD.handle().invokeExact(module.address()),
          CuEntry.MODULE_UNLOAD);
    } catch (Throwable t) {
      throw rethrow(t);
    }
  }

  @Override
  public CuFunction moduleGetFunction(CuModule module, String name) {
    try (Arena arena = Arena.ofConfined()) {
      MemorySegment cName = arena.allocateFrom(name);
      MemorySegment out = Scratch.get().slot(0);
      int status;
      try {
        status =
            (int) CuEntry.MODULE_GET_FUNCTION.handle().invokeExact(out, module.address(), cName);
      } catch (Throwable t) {
        throw rethrow(t);
      }
      if (status != CuResult.SUCCESS) {
        throw Errors.failure(status, CuEntry.MODULE_GET_FUNCTION, "kernel \"" + name + "\"");
      }
      return new CuFunction(out.get(JAVA_LONG, 0));
    }
  }

  /**
   * {@inheritDoc}
   *
   * <p>On a driver older than CUDA 12.4, which does not export {@code cuFuncGetParamInfo}, fails
   * with {@code CUDA_ERROR_NOT_SUPPORTED} without calling the driver.
   */
  @Override
  public Optional<ParamInfo> funcGetParamInfo(CuFunction function, int index) {
    if (!DriverAbi.HAS_PARAM_INFO) {
      throw Errors.notSupported(CuEntry.FUNC_GET_PARAM_INFO, DriverAbi.VERSION);
    }
    if (index < 0) {
      return Optional.empty();
    }
    Scratch scratch = Scratch.get();
    MemorySegment offset = scratch.slot(0);
    MemorySegment size = scratch.slot(1);
    int status;
    try {
      status =
          (int)
              CuEntry.FUNC_GET_PARAM_INFO
                  .handle()
                  .invokeExact(function.address(), (long) index, offset, size);
    } catch (Throwable t) {
      throw rethrow(t);
    }
    if (status == CuResult.INVALID_VALUE) {
      return Optional.empty(); // the index is past the last parameter
    }
    check(status, CuEntry.FUNC_GET_PARAM_INFO);
    return Optional.of(new ParamInfo(offset.get(JAVA_LONG, 0), size.get(JAVA_LONG, 0)));
  }

  @Override
  public int funcGetAttribute(CuFunction function, int attribute) {
    MemorySegment out = Scratch.get().slot(0);
    try {
      int status =
          (int) CuEntry.FUNC_GET_ATTRIBUTE.handle().invokeExact(out, attribute, function.address());
      check(status, CuEntry.FUNC_GET_ATTRIBUTE);
    } catch (Throwable t) {
      throw rethrow(t);
    }
    return out.get(JAVA_INT, 0);
  }

  @Override
  public void funcSetAttribute(CuFunction function, int attribute, int value) {
    try {
      int status =
          (int)
              CuEntry.FUNC_SET_ATTRIBUTE.handle().invokeExact(function.address(), attribute, value);
      check(status, CuEntry.FUNC_SET_ATTRIBUTE);
    } catch (Throwable t) {
      throw rethrow(t);
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
    try {
      int status =
          (int)
              LAUNCH_KERNEL.invokeExact(
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
      check(status, CuEntry.LAUNCH_KERNEL);
    } catch (Throwable t) {
      throw rethrow(t);
    }
  }

  /**
   * {@inheritDoc}
   *
   * <p>The launch configuration and its attribute are written into the thread's scratch struct
   * area, so the call allocates nothing.
   */
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
    MemorySegment config = Scratch.get().zeroedStruct();
    DriverStructs.writeProgrammaticLaunch(
        config, gridX, gridY, gridZ, blockX, blockY, blockZ, sharedMemBytes, stream.address());
    try {
      int status =
          (int)
              LAUNCH_KERNEL_EX.invokeExact(
                  config, function.address(), arguments.pointerArray(), MemorySegment.NULL);
      check(status, CuEntry.LAUNCH_KERNEL_EX);
    } catch (Throwable t) {
      throw rethrow(t);
    }
  }

  // ---- graphs

  @Override
  public CuGraph graphCreate(int flags) {
    MemorySegment out = Scratch.get().slot(0);
    try {
      check((int) CuEntry.GRAPH_CREATE.handle().invokeExact(out, flags), CuEntry.GRAPH_CREATE);
    } catch (Throwable t) {
      throw rethrow(t);
    }
    return new CuGraph(out.get(JAVA_LONG, 0));
  }

  @Override
  public void graphDestroy(CuGraph graph) {
    try {
      check(
          (int) CuEntry.GRAPH_DESTROY.handle().invokeExact(graph.address()), CuEntry.GRAPH_DESTROY);
    } catch (Throwable t) {
      throw rethrow(t);
    }
  }

  @Override
  public CuGraphExec graphInstantiate(CuGraph graph, long flags) {
    MemorySegment out = Scratch.get().slot(0);
    try {
      int status =
          (int) CuEntry.GRAPH_INSTANTIATE.handle().invokeExact(out, graph.address(), flags);
      check(status, CuEntry.GRAPH_INSTANTIATE);
    } catch (Throwable t) {
      throw rethrow(t);
    }
    return new CuGraphExec(out.get(JAVA_LONG, 0));
  }

  @Override
  public void graphUpload(CuGraphExec exec, CuStream stream) {
    try {
      int status =
          (int) CuEntry.GRAPH_UPLOAD.handle().invokeExact(exec.address(), stream.address());
      check(status, CuEntry.GRAPH_UPLOAD);
    } catch (Throwable t) {
      throw rethrow(t);
    }
  }

  @Override
  public void graphLaunch(CuGraphExec exec, CuStream stream) {
    try {
      int status = (int) GRAPH_LAUNCH.invokeExact(exec.address(), stream.address());
      check(status, CuEntry.GRAPH_LAUNCH);
    } catch (Throwable t) {
      throw rethrow(t);
    }
  }

  @Override
  public void graphExecDestroy(CuGraphExec exec) {
    try {
      check(
          (int) CuEntry.GRAPH_EXEC_DESTROY.handle().invokeExact(exec.address()),
          CuEntry.GRAPH_EXEC_DESTROY);
    } catch (Throwable t) {
      throw rethrow(t);
    }
  }

  @Override
  public void graphExecUpdate(CuGraphExec exec, CuGraph graph) {
    // CUgraphExecUpdateResultInfo, 24 bytes: int result @0, CUgraphNode errorNode @8,
    // CUgraphNode errorFromNode @16. Slot 0 spans the whole slot area, so it holds the struct.
    MemorySegment info = Scratch.get().zeroedSlot(0);
    int status;
    try {
      status =
          (int)
              CuEntry.GRAPH_EXEC_UPDATE.handle().invokeExact(exec.address(), graph.address(), info);
    } catch (Throwable t) {
      throw rethrow(t);
    }
    if (status == CuResult.GRAPH_EXEC_UPDATE_FAILURE) {
      long errorNode = info.get(JAVA_LONG, 8);
      throw new GraphExecUpdateException(
          info.get(JAVA_INT, 0), errorNode == 0 ? null : new CuGraphNode(errorNode));
    }
    check(status, CuEntry.GRAPH_EXEC_UPDATE);
  }

  @Override
  public List<CuGraphNode> graphGetNodes(CuGraph graph) {
    MemorySegment count = Scratch.get().slot(0);
    count.set(JAVA_LONG, 0, 0);
    try {
      int status =
          (int)
              CuEntry.GRAPH_GET_NODES
                  .handle()
                  .invokeExact(graph.address(), MemorySegment.NULL, count);
      check(status, CuEntry.GRAPH_GET_NODES);
      long n = count.get(JAVA_LONG, 0);
      if (n == 0) {
        return List.of();
      }
      try (Arena arena = Arena.ofConfined()) {
        MemorySegment nodes = arena.allocate(JAVA_LONG, n);
        count.set(JAVA_LONG, 0, n);
        status = (int) CuEntry.GRAPH_GET_NODES.handle().invokeExact(graph.address(), nodes, count);
        check(status, CuEntry.GRAPH_GET_NODES);
        // The driver writes back how many it returned; never read past what was allocated.
        long returned = Math.min(n, count.get(JAVA_LONG, 0));
        List<CuGraphNode> list = new ArrayList<>((int) returned);
        for (long i = 0; i < returned; i++) {
          list.add(new CuGraphNode(nodes.getAtIndex(JAVA_LONG, i)));
        }
        return List.copyOf(list);
      }
    } catch (Throwable t) {
      throw rethrow(t);
    }
  }

  @Override
  public GraphNodeType graphNodeGetType(CuGraphNode node) {
    MemorySegment out = Scratch.get().slot(0);
    try {
      int status = (int) CuEntry.GRAPH_NODE_GET_TYPE.handle().invokeExact(node.address(), out);
      check(status, CuEntry.GRAPH_NODE_GET_TYPE);
    } catch (Throwable t) {
      throw rethrow(t);
    }
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
      int status;
      try {
        status =
            (int) CuEntry.GRAPH_DEBUG_DOT_PRINT.handle().invokeExact(graph.address(), cPath, flags);
      } catch (Throwable t) {
        throw rethrow(t);
      }
      if (status != CuResult.SUCCESS) {
        throw Errors.failure(status, CuEntry.GRAPH_DEBUG_DOT_PRINT, "path " + path);
      }
    }
  }

  // ---- per-node updates of an exec

  /** {@inheritDoc} The parameter struct is the thread's scratch: nothing is allocated. */
  @Override
  public void graphExecKernelNodeSetParams(
      CuGraphExec exec,
      CuGraphNode node,
      CuFunction function,
      Dim3 grid,
      Dim3 block,
      int sharedMemBytes,
      KernelArguments arguments) {
    MemorySegment params = Scratch.get().zeroedStruct();
    DriverStructs.writeKernelNodeParams(
        params, function.address(), grid, block, sharedMemBytes, arguments.pointerArray());
    try {
      int status =
          (int)
              CuEntry.GRAPH_EXEC_KERNEL_NODE_SET_PARAMS
                  .handle()
                  .invokeExact(exec.address(), node.address(), params);
      check(status, CuEntry.GRAPH_EXEC_KERNEL_NODE_SET_PARAMS);
    } catch (Throwable t) {
      throw rethrow(t);
    }
  }

  /**
   * {@inheritDoc}
   *
   * <p>A host endpoint must be native memory of at least {@code bytes} bytes, checked before the
   * call. The node runs in the calling thread's current context, which must be the node's.
   */
  @Override
  public void graphExecMemcpyNodeSetParams(
      CuGraphExec exec,
      CuGraphNode node,
      CopyEndpoint destination,
      CopyEndpoint source,
      long bytes) {
    requireNativeEndpoint(destination, bytes);
    requireNativeEndpoint(source, bytes);
    long context = currentContext();
    MemorySegment params = Scratch.get().zeroedStruct();
    DriverStructs.writeMemcpy1D(params, destination, source, bytes);
    try {
      int status =
          (int)
              CuEntry.GRAPH_EXEC_MEMCPY_NODE_SET_PARAMS
                  .handle()
                  .invokeExact(exec.address(), node.address(), params, context);
      check(status, CuEntry.GRAPH_EXEC_MEMCPY_NODE_SET_PARAMS);
    } catch (Throwable t) {
      throw rethrow(t);
    }
  }

  private static void requireNativeEndpoint(CopyEndpoint endpoint, long bytes) {
    if (endpoint instanceof CopyEndpoint.Host host) {
      HostSegments.requireNative(
          host.memory(), bytes, DriverCall.GRAPH_EXEC_MEMCPY_NODE_SET_PARAMS);
    }
  }

  /**
   * {@inheritDoc}
   *
   * <p>Only the low {@code elementSize} bytes of {@code value} reach the driver. The node runs in
   * the calling thread's current context, which must be the node's.
   */
  @Override
  public void graphExecMemsetNodeSetParams(
      CuGraphExec exec,
      CuGraphNode node,
      long destination,
      int elementSize,
      int value,
      long count) {
    long context = currentContext();
    MemorySegment params = Scratch.get().zeroedStruct();
    DriverStructs.writeMemset1D(params, destination, elementSize, value, count);
    try {
      int status =
          (int)
              CuEntry.GRAPH_EXEC_MEMSET_NODE_SET_PARAMS
                  .handle()
                  .invokeExact(exec.address(), node.address(), params, context);
      check(status, CuEntry.GRAPH_EXEC_MEMSET_NODE_SET_PARAMS);
    } catch (Throwable t) {
      throw rethrow(t);
    }
  }

  @Override
  public void graphNodeSetEnabled(CuGraphExec exec, CuGraphNode node, boolean enabled) {
    try {
      int status =
          (int)
              CuEntry.GRAPH_NODE_SET_ENABLED
                  .handle()
                  .invokeExact(exec.address(), node.address(), enabled ? 1 : 0);
      check(status, CuEntry.GRAPH_NODE_SET_ENABLED);
    } catch (Throwable t) {
      throw rethrow(t);
    }
  }

  @Override
  public boolean graphNodeGetEnabled(CuGraphExec exec, CuGraphNode node) {
    MemorySegment out = Scratch.get().zeroedSlot(0);
    try {
      int status =
          (int)
              CuEntry.GRAPH_NODE_GET_ENABLED
                  .handle()
                  .invokeExact(exec.address(), node.address(), out);
      check(status, CuEntry.GRAPH_NODE_GET_ENABLED);
    } catch (Throwable t) {
      throw rethrow(t);
    }
    return out.get(JAVA_INT, 0) != 0;
  }

  // ---- child-graph nodes

  /**
   * {@inheritDoc}
   *
   * <p>The dependencies are passed in a native array made for the call; the driver clones the child
   * during the call.
   */
  @Override
  public CuGraphNode graphAddChildGraphNode(
      CuGraph graph, List<CuGraphNode> dependencies, CuGraph child) {
    MemorySegment out = Scratch.get().slot(0);
    try (Arena arena = Arena.ofConfined()) {
      MemorySegment nodes = nodeArray(arena, dependencies);
      int status;
      try {
        status =
            (int)
                CuEntry.GRAPH_ADD_CHILD_GRAPH_NODE
                    .handle()
                    .invokeExact(
                        out, graph.address(), nodes, (long) dependencies.size(), child.address());
      } catch (Throwable t) {
        throw rethrow(t);
      }
      check(status, CuEntry.GRAPH_ADD_CHILD_GRAPH_NODE);
    }
    return new CuGraphNode(out.get(JAVA_LONG, 0));
  }

  @Override
  public void graphExecChildGraphNodeSetParams(CuGraphExec exec, CuGraphNode node, CuGraph child) {
    try {
      int status =
          (int)
              CuEntry.GRAPH_EXEC_CHILD_GRAPH_NODE_SET_PARAMS
                  .handle()
                  .invokeExact(exec.address(), node.address(), child.address());
      check(status, CuEntry.GRAPH_EXEC_CHILD_GRAPH_NODE_SET_PARAMS);
    } catch (Throwable t) {
      throw rethrow(t);
    }
  }

  // ---- conditional nodes

  /**
   * {@inheritDoc}
   *
   * <p>Needs a CUDA 12.3 driver; on an older one fails with {@code CUDA_ERROR_NOT_SUPPORTED}.
   */
  @Override
  public ConditionalHandle graphConditionalHandleCreate(
      CuGraph graph, int defaultLaunchValue, int flags) {
    CuEntry entry = requireBound(CuEntry.GRAPH_CONDITIONAL_HANDLE_CREATE);
    long context = currentContext();
    MemorySegment out = Scratch.get().slot(0);
    int status;
    try {
      status =
          (int)
              entry.handle().invokeExact(out, graph.address(), context, defaultLaunchValue, flags);
    } catch (Throwable t) {
      throw rethrow(t);
    }
    if (status != CuResult.SUCCESS) {
      throw Errors.failure(status, entry, noContextNote(context));
    }
    return new ConditionalHandle(out.get(JAVA_LONG, 0));
  }

  /**
   * {@inheritDoc}
   *
   * <p>The node's parameters are the thread's scratch; the bodies are read from the driver-owned
   * array the driver writes into them. No edge data is passed: every dependency is a
   * full-completion edge. Needs a CUDA 12.3 driver; on an older one fails with {@code
   * CUDA_ERROR_NOT_SUPPORTED}.
   */
  @Override
  public ConditionalNode graphAddConditionalNode(
      CuGraph graph,
      List<CuGraphNode> dependencies,
      ConditionalHandle handle,
      ConditionalType type,
      int size) {
    CuEntry entry = requireBound(CuEntry.GRAPH_ADD_NODE);
    long context = currentContext();
    Scratch scratch = Scratch.get();
    MemorySegment params = scratch.zeroedStruct();
    DriverStructs.writeConditionalNodeParams(params, handle.value(), type.code(), size, context);
    MemorySegment out = scratch.slot(0);
    try (Arena arena = Arena.ofConfined()) {
      MemorySegment nodes = nodeArray(arena, dependencies);
      int status;
      try {
        status =
            (int)
                entry
                    .handle()
                    .invokeExact(
                        out,
                        graph.address(),
                        nodes,
                        MemorySegment.NULL,
                        (long) dependencies.size(),
                        params);
      } catch (Throwable t) {
        throw rethrow(t);
      }
      if (status != CuResult.SUCCESS) {
        throw Errors.failure(status, entry, noContextNote(context));
      }
    }
    // The driver accepted `size` bodies, so its array holds that many graphs.
    MemorySegment bodies =
        Ffm.view(
            DriverStructs.conditionalBodies(params), Integer.toUnsignedLong(size) * Long.BYTES);
    List<CuGraph> graphs = new ArrayList<>(size);
    for (int i = 0; i < size; i++) {
      graphs.add(new CuGraph(bodies.getAtIndex(JAVA_LONG, i)));
    }
    return new ConditionalNode(new CuGraphNode(out.get(JAVA_LONG, 0)), graphs);
  }

  /**
   * {@return {@code entry}, when the bound driver exports it}
   *
   * @throws CudaDriverException with {@code CUDA_ERROR_NOT_SUPPORTED} and the driver version it
   *     needs, without a native call, when the driver is older than the entry point
   */
  private static CuEntry requireBound(CuEntry entry) {
    if (!DriverAbi.binds(entry)) {
      throw Errors.notSupported(entry, DriverAbi.VERSION);
    }
    return entry;
  }

  /**
   * {@return the calling thread's current context, or 0 when none is}: for the calls whose node
   * runs in a context passed explicitly. A failure is reported as {@code cuCtxGetCurrent}'s.
   */
  private long currentContext() {
    CuContext context = ctxGetCurrent();
    return context == null ? 0 : context.address();
  }

  /** {@return what a failure adds when no context was current, else null} */
  private static @Nullable String noContextNote(long context) {
    return context == 0
        ? "no context is current on the calling thread: bind the graph's context with"
            + " ctxSetCurrent first"
        : null;
  }

  /** {@return the nodes as a native {@code CUgraphNode} array in {@code arena}; NULL when none} */
  private static MemorySegment nodeArray(Arena arena, List<CuGraphNode> nodes) {
    if (nodes.isEmpty()) {
      return MemorySegment.NULL;
    }
    MemorySegment array = arena.allocate(JAVA_LONG, nodes.size());
    for (int i = 0; i < nodes.size(); i++) {
      array.setAtIndex(JAVA_LONG, i, nodes.get(i).address());
    }
    return array;
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
