package cuda.graph.simulator.internal;

import cuda.graph.simulator.*;
import cuda.graph.spi.*;
import java.lang.foreign.MemorySegment;
import java.nio.file.Path;
import java.util.*;
import org.jspecify.annotations.Nullable;

/** Temporary placeholder while the simulator is written. */
public final class SimDriver implements SimulatedDriver {
  private final SimulatorSettings settings;
  public SimDriver(SimulatorSettings settings) { this.settings = settings; }
  @Override public SimulatorSettings settings() { return settings; }
  @Override public HandleLedger handles() { throw new IllegalStateException("placeholder"); }
  @Override public CallLog calls() { throw new IllegalStateException("placeholder"); }
  @Override public FaultInjector faults() { throw new IllegalStateException("placeholder"); }
  @Override public void init(int flags) { throw new IllegalStateException("placeholder"); }
  @Override public int driverGetVersion() { throw new IllegalStateException("placeholder"); }
  @Override public Optional<String> getErrorName(int status) { throw new IllegalStateException("placeholder"); }
  @Override public Optional<String> getErrorString(int status) { throw new IllegalStateException("placeholder"); }
  @Override public int deviceGetCount() { throw new IllegalStateException("placeholder"); }
  @Override public int deviceGet(int ordinal) { throw new IllegalStateException("placeholder"); }
  @Override public String deviceGetName(int device) { throw new IllegalStateException("placeholder"); }
  @Override public int deviceGetAttribute(int attribute, int device) { throw new IllegalStateException("placeholder"); }
  @Override public long deviceTotalMem(int device) { throw new IllegalStateException("placeholder"); }
  @Override public CuContext devicePrimaryCtxRetain(int device) { throw new IllegalStateException("placeholder"); }
  @Override public void devicePrimaryCtxRelease(int device) { throw new IllegalStateException("placeholder"); }
  @Override public void ctxSetCurrent(@Nullable CuContext context) { throw new IllegalStateException("placeholder"); }
  @Override public @Nullable CuContext ctxGetCurrent() { throw new IllegalStateException("placeholder"); }
  @Override public CuStream streamCreate(int flags) { throw new IllegalStateException("placeholder"); }
  @Override public void streamDestroy(CuStream stream) { throw new IllegalStateException("placeholder"); }
  @Override public void streamSynchronize(CuStream stream) { throw new IllegalStateException("placeholder"); }
  @Override public boolean streamQuery(CuStream stream) { throw new IllegalStateException("placeholder"); }
  @Override public void streamWaitEvent(CuStream stream, CuEvent event, int flags) { throw new IllegalStateException("placeholder"); }
  @Override public void launchHostFunc(CuStream stream, HostFunction function) { throw new IllegalStateException("placeholder"); }
  @Override public void streamBeginCapture(CuStream stream, CaptureMode mode) { throw new IllegalStateException("placeholder"); }
  @Override public @Nullable CuGraph streamEndCapture(CuStream stream) { throw new IllegalStateException("placeholder"); }
  @Override public CaptureStatus streamIsCapturing(CuStream stream) { throw new IllegalStateException("placeholder"); }
  @Override public CaptureInfo streamGetCaptureInfo(CuStream stream) { throw new IllegalStateException("placeholder"); }
  @Override public CaptureMode threadExchangeStreamCaptureMode(CaptureMode mode) { throw new IllegalStateException("placeholder"); }
  @Override public CuEvent eventCreate(int flags) { throw new IllegalStateException("placeholder"); }
  @Override public void eventDestroy(CuEvent event) { throw new IllegalStateException("placeholder"); }
  @Override public void eventRecord(CuEvent event, CuStream stream) { throw new IllegalStateException("placeholder"); }
  @Override public void eventRecordWithFlags(CuEvent event, CuStream stream, int flags) { throw new IllegalStateException("placeholder"); }
  @Override public boolean eventQuery(CuEvent event) { throw new IllegalStateException("placeholder"); }
  @Override public void eventSynchronize(CuEvent event) { throw new IllegalStateException("placeholder"); }
  @Override public float eventElapsedTime(CuEvent start, CuEvent end) { throw new IllegalStateException("placeholder"); }
  @Override public long memAlloc(long bytes) { throw new IllegalStateException("placeholder"); }
  @Override public void memFree(long devicePointer) { throw new IllegalStateException("placeholder"); }
  @Override public long memAllocAsync(long bytes, CuStream stream) { throw new IllegalStateException("placeholder"); }
  @Override public void memFreeAsync(long devicePointer, CuStream stream) { throw new IllegalStateException("placeholder"); }
  @Override public MemorySegment memAllocHost(long bytes) { throw new IllegalStateException("placeholder"); }
  @Override public void memFreeHost(MemorySegment hostMemory) { throw new IllegalStateException("placeholder"); }
  @Override public MemoryInfo memGetInfo() { throw new IllegalStateException("placeholder"); }
  @Override public void memcpyHtoD(long dst, MemorySegment src, long bytes) { throw new IllegalStateException("placeholder"); }
  @Override public void memcpyDtoH(MemorySegment dst, long src, long bytes) { throw new IllegalStateException("placeholder"); }
  @Override public void memcpyHtoDAsync(long dst, MemorySegment src, long bytes, CuStream stream) { throw new IllegalStateException("placeholder"); }
  @Override public void memcpyDtoHAsync(MemorySegment dst, long src, long bytes, CuStream stream) { throw new IllegalStateException("placeholder"); }
  @Override public void memcpyDtoDAsync(long dst, long src, long bytes, CuStream stream) { throw new IllegalStateException("placeholder"); }
  @Override public void memsetD8Async(long dst, byte value, long count, CuStream stream) { throw new IllegalStateException("placeholder"); }
  @Override public void memsetD32Async(long dst, int value, long count, CuStream stream) { throw new IllegalStateException("placeholder"); }
  @Override public CuModule moduleLoadData(ModuleImage image) { throw new IllegalStateException("placeholder"); }
  @Override public void moduleUnload(CuModule module) { throw new IllegalStateException("placeholder"); }
  @Override public CuFunction moduleGetFunction(CuModule module, String name) { throw new IllegalStateException("placeholder"); }
  @Override public void launchKernel( CuFunction function, int gridX, int gridY, int gridZ, int blockX, int blockY, int blockZ, int sharedMemBytes, CuStream stream, KernelArguments arguments) { throw new IllegalStateException("placeholder"); }
  @Override public CuGraph graphCreate(int flags) { throw new IllegalStateException("placeholder"); }
  @Override public void graphDestroy(CuGraph graph) { throw new IllegalStateException("placeholder"); }
  @Override public CuGraphExec graphInstantiate(CuGraph graph, long flags) { throw new IllegalStateException("placeholder"); }
  @Override public void graphUpload(CuGraphExec exec, CuStream stream) { throw new IllegalStateException("placeholder"); }
  @Override public void graphLaunch(CuGraphExec exec, CuStream stream) { throw new IllegalStateException("placeholder"); }
  @Override public void graphExecDestroy(CuGraphExec exec) { throw new IllegalStateException("placeholder"); }
  @Override public void graphExecUpdate(CuGraphExec exec, CuGraph graph) { throw new IllegalStateException("placeholder"); }
  @Override public List<CuGraphNode> graphGetNodes(CuGraph graph) { throw new IllegalStateException("placeholder"); }
  @Override public GraphNodeType graphNodeGetType(CuGraphNode node) { throw new IllegalStateException("placeholder"); }
  @Override public void graphDebugDotPrint(CuGraph graph, Path path, int flags) { throw new IllegalStateException("placeholder"); }
  @Override public void close() { throw new IllegalStateException("placeholder"); }
}
