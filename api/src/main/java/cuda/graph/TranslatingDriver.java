package cuda.graph;

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
import cuda.graph.spi.GraphNodeType;
import cuda.graph.spi.HostFunction;
import cuda.graph.spi.KernelArguments;
import cuda.graph.spi.MemoryInfo;
import cuda.graph.spi.ModuleImage;
import cuda.graph.spi.RuntimeCompiler;
import java.lang.foreign.MemorySegment;
import java.nio.file.Path;
import java.util.List;
import java.util.Optional;
import org.jspecify.annotations.Nullable;

/**
 * The one place where driver failures become public exceptions: every call the library makes to
 * a provider goes through this wrapper, which turns {@link CudaDriverException} into {@link
 * CudaDriverError} (code, name, failing call and what to do). Nothing else in the library catches
 * the SPI's exception.
 */
final class TranslatingDriver implements CudaDriver {

  private final CudaDriver driver;

  TranslatingDriver(CudaDriver driver) {
    this.driver = driver;
  }

  /** {@return the provider's driver, for the rare caller that needs untranslated statuses} */
  CudaDriver unwrapped() {
    return driver;
  }

  private CudaDriverError translate(CudaDriverException e) {
    String name = CudaDriverError.nameOf(driver, e.status());
    return new CudaDriverError(e.status(), name, e.call().symbol(), e.detail(), e);
  }

  @Override
  public Optional<RuntimeCompiler> runtimeCompiler() {
    return driver.runtimeCompiler();
  }

  @Override
  public void close() {
    driver.close();
  }

  @Override
  public void init(int flags) {
    try {
      driver.init(flags);
    } catch (CudaDriverException e) {
      throw translate(e);
    }
  }

  @Override
  public int driverGetVersion() {
    try {
      return driver.driverGetVersion();
    } catch (CudaDriverException e) {
      throw translate(e);
    }
  }

  @Override
  public Optional<String> getErrorName(int status) {
    try {
      return driver.getErrorName(status);
    } catch (CudaDriverException e) {
      throw translate(e);
    }
  }

  @Override
  public Optional<String> getErrorString(int status) {
    try {
      return driver.getErrorString(status);
    } catch (CudaDriverException e) {
      throw translate(e);
    }
  }

  @Override
  public int deviceGetCount() {
    try {
      return driver.deviceGetCount();
    } catch (CudaDriverException e) {
      throw translate(e);
    }
  }

  @Override
  public int deviceGet(int ordinal) {
    try {
      return driver.deviceGet(ordinal);
    } catch (CudaDriverException e) {
      throw translate(e);
    }
  }

  @Override
  public String deviceGetName(int device) {
    try {
      return driver.deviceGetName(device);
    } catch (CudaDriverException e) {
      throw translate(e);
    }
  }

  @Override
  public int deviceGetAttribute(int attribute, int device) {
    try {
      return driver.deviceGetAttribute(attribute, device);
    } catch (CudaDriverException e) {
      throw translate(e);
    }
  }

  @Override
  public long deviceTotalMem(int device) {
    try {
      return driver.deviceTotalMem(device);
    } catch (CudaDriverException e) {
      throw translate(e);
    }
  }

  @Override
  public CuContext devicePrimaryCtxRetain(int device) {
    try {
      return driver.devicePrimaryCtxRetain(device);
    } catch (CudaDriverException e) {
      throw translate(e);
    }
  }

  @Override
  public void devicePrimaryCtxRelease(int device) {
    try {
      driver.devicePrimaryCtxRelease(device);
    } catch (CudaDriverException e) {
      throw translate(e);
    }
  }

  @Override
  public void ctxSetCurrent(@Nullable CuContext context) {
    try {
      driver.ctxSetCurrent(context);
    } catch (CudaDriverException e) {
      throw translate(e);
    }
  }

  @Override
  public @Nullable CuContext ctxGetCurrent() {
    try {
      return driver.ctxGetCurrent();
    } catch (CudaDriverException e) {
      throw translate(e);
    }
  }

  @Override
  public CuStream streamCreate(int flags) {
    try {
      return driver.streamCreate(flags);
    } catch (CudaDriverException e) {
      throw translate(e);
    }
  }

  @Override
  public void streamDestroy(CuStream stream) {
    try {
      driver.streamDestroy(stream);
    } catch (CudaDriverException e) {
      throw translate(e);
    }
  }

  @Override
  public void streamSynchronize(CuStream stream) {
    try {
      driver.streamSynchronize(stream);
    } catch (CudaDriverException e) {
      throw translate(e);
    }
  }

  @Override
  public boolean streamQuery(CuStream stream) {
    try {
      return driver.streamQuery(stream);
    } catch (CudaDriverException e) {
      throw translate(e);
    }
  }

  @Override
  public void streamWaitEvent(CuStream stream, CuEvent event, int flags) {
    try {
      driver.streamWaitEvent(stream, event, flags);
    } catch (CudaDriverException e) {
      throw translate(e);
    }
  }

  @Override
  public void launchHostFunc(CuStream stream, HostFunction function) {
    try {
      driver.launchHostFunc(stream, function);
    } catch (CudaDriverException e) {
      throw translate(e);
    }
  }

  @Override
  public void streamBeginCapture(CuStream stream, CaptureMode mode) {
    try {
      driver.streamBeginCapture(stream, mode);
    } catch (CudaDriverException e) {
      throw translate(e);
    }
  }

  @Override
  public @Nullable CuGraph streamEndCapture(CuStream stream) {
    try {
      return driver.streamEndCapture(stream);
    } catch (CudaDriverException e) {
      throw translate(e);
    }
  }

  @Override
  public CaptureStatus streamIsCapturing(CuStream stream) {
    try {
      return driver.streamIsCapturing(stream);
    } catch (CudaDriverException e) {
      throw translate(e);
    }
  }

  @Override
  public CaptureInfo streamGetCaptureInfo(CuStream stream) {
    try {
      return driver.streamGetCaptureInfo(stream);
    } catch (CudaDriverException e) {
      throw translate(e);
    }
  }

  @Override
  public CaptureMode threadExchangeStreamCaptureMode(CaptureMode mode) {
    try {
      return driver.threadExchangeStreamCaptureMode(mode);
    } catch (CudaDriverException e) {
      throw translate(e);
    }
  }

  @Override
  public CuEvent eventCreate(int flags) {
    try {
      return driver.eventCreate(flags);
    } catch (CudaDriverException e) {
      throw translate(e);
    }
  }

  @Override
  public void eventDestroy(CuEvent event) {
    try {
      driver.eventDestroy(event);
    } catch (CudaDriverException e) {
      throw translate(e);
    }
  }

  @Override
  public void eventRecord(CuEvent event, CuStream stream) {
    try {
      driver.eventRecord(event, stream);
    } catch (CudaDriverException e) {
      throw translate(e);
    }
  }

  @Override
  public void eventRecordWithFlags(CuEvent event, CuStream stream, int flags) {
    try {
      driver.eventRecordWithFlags(event, stream, flags);
    } catch (CudaDriverException e) {
      throw translate(e);
    }
  }

  @Override
  public boolean eventQuery(CuEvent event) {
    try {
      return driver.eventQuery(event);
    } catch (CudaDriverException e) {
      throw translate(e);
    }
  }

  @Override
  public void eventSynchronize(CuEvent event) {
    try {
      driver.eventSynchronize(event);
    } catch (CudaDriverException e) {
      throw translate(e);
    }
  }

  @Override
  public float eventElapsedTime(CuEvent start, CuEvent end) {
    try {
      return driver.eventElapsedTime(start, end);
    } catch (CudaDriverException e) {
      throw translate(e);
    }
  }

  @Override
  public long memAlloc(long bytes) {
    try {
      return driver.memAlloc(bytes);
    } catch (CudaDriverException e) {
      throw translate(e);
    }
  }

  @Override
  public void memFree(long devicePointer) {
    try {
      driver.memFree(devicePointer);
    } catch (CudaDriverException e) {
      throw translate(e);
    }
  }

  @Override
  public long memAllocAsync(long bytes, CuStream stream) {
    try {
      return driver.memAllocAsync(bytes, stream);
    } catch (CudaDriverException e) {
      throw translate(e);
    }
  }

  @Override
  public void memFreeAsync(long devicePointer, CuStream stream) {
    try {
      driver.memFreeAsync(devicePointer, stream);
    } catch (CudaDriverException e) {
      throw translate(e);
    }
  }

  @Override
  public MemorySegment memAllocHost(long bytes) {
    try {
      return driver.memAllocHost(bytes);
    } catch (CudaDriverException e) {
      throw translate(e);
    }
  }

  @Override
  public void memFreeHost(MemorySegment hostMemory) {
    try {
      driver.memFreeHost(hostMemory);
    } catch (CudaDriverException e) {
      throw translate(e);
    }
  }

  @Override
  public MemoryInfo memGetInfo() {
    try {
      return driver.memGetInfo();
    } catch (CudaDriverException e) {
      throw translate(e);
    }
  }

  @Override
  public void memcpyHtoD(long dst, MemorySegment src, long bytes) {
    try {
      driver.memcpyHtoD(dst, src, bytes);
    } catch (CudaDriverException e) {
      throw translate(e);
    }
  }

  @Override
  public void memcpyDtoH(MemorySegment dst, long src, long bytes) {
    try {
      driver.memcpyDtoH(dst, src, bytes);
    } catch (CudaDriverException e) {
      throw translate(e);
    }
  }

  @Override
  public void memcpyHtoDAsync(long dst, MemorySegment src, long bytes, CuStream stream) {
    try {
      driver.memcpyHtoDAsync(dst, src, bytes, stream);
    } catch (CudaDriverException e) {
      throw translate(e);
    }
  }

  @Override
  public void memcpyDtoHAsync(MemorySegment dst, long src, long bytes, CuStream stream) {
    try {
      driver.memcpyDtoHAsync(dst, src, bytes, stream);
    } catch (CudaDriverException e) {
      throw translate(e);
    }
  }

  @Override
  public void memcpyDtoDAsync(long dst, long src, long bytes, CuStream stream) {
    try {
      driver.memcpyDtoDAsync(dst, src, bytes, stream);
    } catch (CudaDriverException e) {
      throw translate(e);
    }
  }

  @Override
  public void memsetD8Async(long dst, byte value, long count, CuStream stream) {
    try {
      driver.memsetD8Async(dst, value, count, stream);
    } catch (CudaDriverException e) {
      throw translate(e);
    }
  }

  @Override
  public void memsetD16Async(long dst, short value, long count, CuStream stream) {
    try {
      driver.memsetD16Async(dst, value, count, stream);
    } catch (CudaDriverException e) {
      throw translate(e);
    }
  }

  @Override
  public void memsetD32Async(long dst, int value, long count, CuStream stream) {
    try {
      driver.memsetD32Async(dst, value, count, stream);
    } catch (CudaDriverException e) {
      throw translate(e);
    }
  }

  @Override
  public void memsetD2D32Async(long dst, long pitch, int value, long width, long height, CuStream stream) {
    try {
      driver.memsetD2D32Async(dst, pitch, value, width, height, stream);
    } catch (CudaDriverException e) {
      throw translate(e);
    }
  }

  @Override
  public CuModule moduleLoadData(ModuleImage image) {
    try {
      return driver.moduleLoadData(image);
    } catch (CudaDriverException e) {
      throw translate(e);
    }
  }

  @Override
  public void moduleUnload(CuModule module) {
    try {
      driver.moduleUnload(module);
    } catch (CudaDriverException e) {
      throw translate(e);
    }
  }

  @Override
  public CuFunction moduleGetFunction(CuModule module, String name) {
    try {
      return driver.moduleGetFunction(module, name);
    } catch (CudaDriverException e) {
      throw translate(e);
    }
  }

  @Override
  public void launchKernel( CuFunction function, int gridX, int gridY, int gridZ, int blockX, int blockY, int blockZ, int sharedMemBytes, CuStream stream, KernelArguments arguments) {
    try {
      driver.launchKernel(function, gridX, gridY, gridZ, blockX, blockY, blockZ, sharedMemBytes, stream, arguments);
    } catch (CudaDriverException e) {
      throw translate(e);
    }
  }

  @Override
  public CuGraph graphCreate(int flags) {
    try {
      return driver.graphCreate(flags);
    } catch (CudaDriverException e) {
      throw translate(e);
    }
  }

  @Override
  public void graphDestroy(CuGraph graph) {
    try {
      driver.graphDestroy(graph);
    } catch (CudaDriverException e) {
      throw translate(e);
    }
  }

  @Override
  public CuGraphExec graphInstantiate(CuGraph graph, long flags) {
    try {
      return driver.graphInstantiate(graph, flags);
    } catch (CudaDriverException e) {
      throw translate(e);
    }
  }

  @Override
  public void graphUpload(CuGraphExec exec, CuStream stream) {
    try {
      driver.graphUpload(exec, stream);
    } catch (CudaDriverException e) {
      throw translate(e);
    }
  }

  @Override
  public void graphLaunch(CuGraphExec exec, CuStream stream) {
    try {
      driver.graphLaunch(exec, stream);
    } catch (CudaDriverException e) {
      throw translate(e);
    }
  }

  @Override
  public void graphExecDestroy(CuGraphExec exec) {
    try {
      driver.graphExecDestroy(exec);
    } catch (CudaDriverException e) {
      throw translate(e);
    }
  }

  @Override
  public void graphExecUpdate(CuGraphExec exec, CuGraph graph) {
    try {
      driver.graphExecUpdate(exec, graph);
    } catch (CudaDriverException e) {
      throw translate(e);
    }
  }

  @Override
  public List<CuGraphNode> graphGetNodes(CuGraph graph) {
    try {
      return driver.graphGetNodes(graph);
    } catch (CudaDriverException e) {
      throw translate(e);
    }
  }

  @Override
  public GraphNodeType graphNodeGetType(CuGraphNode node) {
    try {
      return driver.graphNodeGetType(node);
    } catch (CudaDriverException e) {
      throw translate(e);
    }
  }

  @Override
  public void graphDebugDotPrint(CuGraph graph, Path path, int flags) {
    try {
      driver.graphDebugDotPrint(graph, path, flags);
    } catch (CudaDriverException e) {
      throw translate(e);
    }
  }
}
