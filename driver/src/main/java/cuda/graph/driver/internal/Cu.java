package cuda.graph.driver.internal;

import java.lang.foreign.Arena;
import java.lang.foreign.FunctionDescriptor;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.lang.invoke.MethodHandle;

/**
 * The {@code libcuda} entry points: one static method per bound symbol, named and shaped like the C
 * function (the prototype is in each method's documentation), in the style jextract generates.
 *
 * <p>Each method invokes a downcall handle held in a static final of its own nested holder class.
 * The JVM initializes a holder on the method's first call, which is when its symbol is looked up
 * and linked; the JIT then treats the handle as a constant. Holders are only reached after {@link
 * CudaProvider#availability()} bound the library and checked every symbol exists.
 *
 * <p>ABI choices: opaque handles ({@code CUstream}, {@code CUevent}, ...), device pointers and
 * {@code size_t} are passed as {@code long}, which x86-64 passes exactly like a pointer and which
 * costs no {@link MemorySegment} per call; out-parameters and host buffers are segments. Methods
 * return the raw {@code CUresult}: {@link Errors} turns it into an exception.
 */
final class Cu {

  private static final ValueLayout.OfInt C_INT = ValueLayout.JAVA_INT;
  private static final ValueLayout.OfLong C_LONG = ValueLayout.JAVA_LONG;
  private static final ValueLayout.OfByte C_CHAR = ValueLayout.JAVA_BYTE;
  private static final ValueLayout.OfShort C_SHORT = ValueLayout.JAVA_SHORT;
  private static final ValueLayout C_POINTER = ValueLayout.ADDRESS;

  private Cu() {}

  /** {@return the bound driver's {@code cuDriverGetVersion}, read once} */
  static int driverVersion() {
    return DriverVersion.VALUE;
  }

  /**
   * {@code cuStreamGetCaptureInfo} in the ABI the driver's version selects: {@code _v3} from 12.3,
   * else {@code _v2}, which has no edge data ({@code edgeData} is then left untouched).
   */
  static int cuStreamGetCaptureInfo(
      long hStream,
      MemorySegment captureStatus,
      MemorySegment id,
      MemorySegment graph,
      MemorySegment dependencies,
      MemorySegment edgeData,
      MemorySegment numDependencies) {
    return Abi.CAPTURE_INFO_V3
        ? cuStreamGetCaptureInfo_v3(
            hStream, captureStatus, id, graph, dependencies, edgeData, numDependencies)
        : cuStreamGetCaptureInfo_v2(
            hStream, captureStatus, id, graph, dependencies, numDependencies);
  }

  /** {@code cuEventElapsedTime} in the ABI the driver's version selects: {@code _v2} from 12.8. */
  static int cuEventElapsedTimeBound(MemorySegment pMilliseconds, long hStart, long hEnd) {
    return Abi.ELAPSED_TIME_V2
        ? cuEventElapsedTime_v2(pMilliseconds, hStart, hEnd)
        : cuEventElapsedTime(pMilliseconds, hStart, hEnd);
  }

  /** {@return the bound symbol for {@code cuStreamGetCaptureInfo} on this driver} */
  static CuSymbol captureInfoSymbol() {
    return Abi.CAPTURE_INFO_V3
        ? CuSymbol.cuStreamGetCaptureInfo_v3
        : CuSymbol.cuStreamGetCaptureInfo_v2;
  }

  /** {@return the bound symbol for {@code cuEventElapsedTime} on this driver} */
  static CuSymbol elapsedTimeSymbol() {
    return Abi.ELAPSED_TIME_V2 ? CuSymbol.cuEventElapsedTime_v2 : CuSymbol.cuEventElapsedTime;
  }

  private static final class DriverVersion {
    static final int VALUE = read();

    private static int read() {
      try (Arena arena = Arena.ofConfined()) {
        MemorySegment version = arena.allocate(C_INT);
        int status = cuDriverGetVersion(version);
        if (status != 0) {
          // Availability already read the version successfully, so this cannot happen; fail loudly.
          throw new IllegalStateException("cuDriverGetVersion returned " + status);
        }
        return version.get(C_INT, 0);
      }
    }
  }

  private static final class Abi {
    static final boolean CAPTURE_INFO_V3 =
        CuSymbol.cuStreamGetCaptureInfo_v3.usedWith(driverVersion());
    static final boolean ELAPSED_TIME_V2 = CuSymbol.cuEventElapsedTime_v2.usedWith(driverVersion());
  }

  /**
   * Rethrows what a downcall threw. A downcall itself throws nothing, but its arguments can be
   * refused before the call: a segment of a closed arena ({@link IllegalStateException}), one
   * confined to another thread ({@link WrongThreadException}); those propagate unchanged.
   */
  private static RuntimeException rethrow(Throwable thrown) {
    if (thrown instanceof RuntimeException e) {
      return e;
    }
    if (thrown instanceof Error e) {
      throw e;
    }
    throw new AssertionError("a downcall threw a checked exception", thrown);
  }

  /**
   * Calls {@code cuInit}:
   *
   * {@snippet lang=c :
   * CUresult cuInit(unsigned int Flags);
   * }
   */
  static int cuInit(int flags) {
    try {
      return (int) cuInit.MH.invokeExact(flags);
    } catch (Throwable t) {
      throw rethrow(t);
    }
  }

  private static final class cuInit {
    static final MethodHandle MH =
        CudaLibrary.downcall(CuSymbol.cuInit, FunctionDescriptor.of(C_INT, C_INT));
  }

  /**
   * Calls {@code cuDriverGetVersion}:
   *
   * {@snippet lang=c :
   * CUresult cuDriverGetVersion(int *driverVersion);
   * }
   */
  static int cuDriverGetVersion(MemorySegment driverVersion) {
    try {
      return (int) cuDriverGetVersion.MH.invokeExact(driverVersion);
    } catch (Throwable t) {
      throw rethrow(t);
    }
  }

  private static final class cuDriverGetVersion {
    static final MethodHandle MH =
        CudaLibrary.downcall(CuSymbol.cuDriverGetVersion, FunctionDescriptor.of(C_INT, C_POINTER));
  }

  /**
   * Calls {@code cuGetErrorName}:
   *
   * {@snippet lang=c :
   * CUresult cuGetErrorName(CUresult error, const char **pStr);
   * }
   */
  static int cuGetErrorName(int error, MemorySegment pStr) {
    try {
      return (int) cuGetErrorName.MH.invokeExact(error, pStr);
    } catch (Throwable t) {
      throw rethrow(t);
    }
  }

  private static final class cuGetErrorName {
    static final MethodHandle MH =
        CudaLibrary.downcall(
            CuSymbol.cuGetErrorName, FunctionDescriptor.of(C_INT, C_INT, C_POINTER));
  }

  /**
   * Calls {@code cuGetErrorString}:
   *
   * {@snippet lang=c :
   * CUresult cuGetErrorString(CUresult error, const char **pStr);
   * }
   */
  static int cuGetErrorString(int error, MemorySegment pStr) {
    try {
      return (int) cuGetErrorString.MH.invokeExact(error, pStr);
    } catch (Throwable t) {
      throw rethrow(t);
    }
  }

  private static final class cuGetErrorString {
    static final MethodHandle MH =
        CudaLibrary.downcall(
            CuSymbol.cuGetErrorString, FunctionDescriptor.of(C_INT, C_INT, C_POINTER));
  }

  /**
   * Calls {@code cuGetProcAddress_v2}:
   *
   * {@snippet lang=c :
   * CUresult cuGetProcAddress_v2(const char *symbol, void **pfn, int cudaVersion, cuuint64_t flags,
   *     CUdriverProcAddressQueryResult *symbolStatus);
   * }
   */
  static int cuGetProcAddress_v2(
      MemorySegment symbol,
      MemorySegment pfn,
      int cudaVersion,
      long flags,
      MemorySegment symbolStatus) {
    try {
      return (int)
          cuGetProcAddress_v2.MH.invokeExact(symbol, pfn, cudaVersion, flags, symbolStatus);
    } catch (Throwable t) {
      throw rethrow(t);
    }
  }

  private static final class cuGetProcAddress_v2 {
    static final MethodHandle MH =
        CudaLibrary.downcall(
            CuSymbol.cuGetProcAddress_v2,
            FunctionDescriptor.of(C_INT, C_POINTER, C_POINTER, C_INT, C_LONG, C_POINTER));
  }

  /**
   * Calls {@code cuDeviceGetCount}:
   *
   * {@snippet lang=c :
   * CUresult cuDeviceGetCount(int *count);
   * }
   */
  static int cuDeviceGetCount(MemorySegment count) {
    try {
      return (int) cuDeviceGetCount.MH.invokeExact(count);
    } catch (Throwable t) {
      throw rethrow(t);
    }
  }

  private static final class cuDeviceGetCount {
    static final MethodHandle MH =
        CudaLibrary.downcall(CuSymbol.cuDeviceGetCount, FunctionDescriptor.of(C_INT, C_POINTER));
  }

  /**
   * Calls {@code cuDeviceGet}:
   *
   * {@snippet lang=c :
   * CUresult cuDeviceGet(CUdevice *device, int ordinal);
   * }
   */
  static int cuDeviceGet(MemorySegment device, int ordinal) {
    try {
      return (int) cuDeviceGet.MH.invokeExact(device, ordinal);
    } catch (Throwable t) {
      throw rethrow(t);
    }
  }

  private static final class cuDeviceGet {
    static final MethodHandle MH =
        CudaLibrary.downcall(CuSymbol.cuDeviceGet, FunctionDescriptor.of(C_INT, C_POINTER, C_INT));
  }

  /**
   * Calls {@code cuDeviceGetName}:
   *
   * {@snippet lang=c :
   * CUresult cuDeviceGetName(char *name, int len, CUdevice dev);
   * }
   */
  static int cuDeviceGetName(MemorySegment name, int len, int dev) {
    try {
      return (int) cuDeviceGetName.MH.invokeExact(name, len, dev);
    } catch (Throwable t) {
      throw rethrow(t);
    }
  }

  private static final class cuDeviceGetName {
    static final MethodHandle MH =
        CudaLibrary.downcall(
            CuSymbol.cuDeviceGetName, FunctionDescriptor.of(C_INT, C_POINTER, C_INT, C_INT));
  }

  /**
   * Calls {@code cuDeviceGetAttribute}:
   *
   * {@snippet lang=c :
   * CUresult cuDeviceGetAttribute(int *pi, CUdevice_attribute attrib, CUdevice dev);
   * }
   */
  static int cuDeviceGetAttribute(MemorySegment pi, int attrib, int dev) {
    try {
      return (int) cuDeviceGetAttribute.MH.invokeExact(pi, attrib, dev);
    } catch (Throwable t) {
      throw rethrow(t);
    }
  }

  private static final class cuDeviceGetAttribute {
    static final MethodHandle MH =
        CudaLibrary.downcall(
            CuSymbol.cuDeviceGetAttribute, FunctionDescriptor.of(C_INT, C_POINTER, C_INT, C_INT));
  }

  /**
   * Calls {@code cuDeviceTotalMem_v2}:
   *
   * {@snippet lang=c :
   * CUresult cuDeviceTotalMem_v2(size_t *bytes, CUdevice dev);
   * }
   */
  static int cuDeviceTotalMem_v2(MemorySegment bytes, int dev) {
    try {
      return (int) cuDeviceTotalMem_v2.MH.invokeExact(bytes, dev);
    } catch (Throwable t) {
      throw rethrow(t);
    }
  }

  private static final class cuDeviceTotalMem_v2 {
    static final MethodHandle MH =
        CudaLibrary.downcall(
            CuSymbol.cuDeviceTotalMem_v2, FunctionDescriptor.of(C_INT, C_POINTER, C_INT));
  }

  /**
   * Calls {@code cuDevicePrimaryCtxRetain}:
   *
   * {@snippet lang=c :
   * CUresult cuDevicePrimaryCtxRetain(CUcontext *pctx, CUdevice dev);
   * }
   */
  static int cuDevicePrimaryCtxRetain(MemorySegment pctx, int dev) {
    try {
      return (int) cuDevicePrimaryCtxRetain.MH.invokeExact(pctx, dev);
    } catch (Throwable t) {
      throw rethrow(t);
    }
  }

  private static final class cuDevicePrimaryCtxRetain {
    static final MethodHandle MH =
        CudaLibrary.downcall(
            CuSymbol.cuDevicePrimaryCtxRetain, FunctionDescriptor.of(C_INT, C_POINTER, C_INT));
  }

  /**
   * Calls {@code cuDevicePrimaryCtxRelease_v2}:
   *
   * {@snippet lang=c :
   * CUresult cuDevicePrimaryCtxRelease_v2(CUdevice dev);
   * }
   */
  static int cuDevicePrimaryCtxRelease_v2(int dev) {
    try {
      return (int) cuDevicePrimaryCtxRelease_v2.MH.invokeExact(dev);
    } catch (Throwable t) {
      throw rethrow(t);
    }
  }

  private static final class cuDevicePrimaryCtxRelease_v2 {
    static final MethodHandle MH =
        CudaLibrary.downcall(
            CuSymbol.cuDevicePrimaryCtxRelease_v2, FunctionDescriptor.of(C_INT, C_INT));
  }

  /**
   * Calls {@code cuCtxSetCurrent}:
   *
   * {@snippet lang=c :
   * CUresult cuCtxSetCurrent(CUcontext ctx);
   * }
   */
  static int cuCtxSetCurrent(long ctx) {
    try {
      return (int) cuCtxSetCurrent.MH.invokeExact(ctx);
    } catch (Throwable t) {
      throw rethrow(t);
    }
  }

  private static final class cuCtxSetCurrent {
    static final MethodHandle MH =
        CudaLibrary.downcall(CuSymbol.cuCtxSetCurrent, FunctionDescriptor.of(C_INT, C_LONG));
  }

  /**
   * Calls {@code cuCtxGetCurrent}:
   *
   * {@snippet lang=c :
   * CUresult cuCtxGetCurrent(CUcontext *pctx);
   * }
   */
  static int cuCtxGetCurrent(MemorySegment pctx) {
    try {
      return (int) cuCtxGetCurrent.MH.invokeExact(pctx);
    } catch (Throwable t) {
      throw rethrow(t);
    }
  }

  private static final class cuCtxGetCurrent {
    static final MethodHandle MH =
        CudaLibrary.downcall(CuSymbol.cuCtxGetCurrent, FunctionDescriptor.of(C_INT, C_POINTER));
  }

  /**
   * Calls {@code cuStreamCreate}:
   *
   * {@snippet lang=c :
   * CUresult cuStreamCreate(CUstream *phStream, unsigned int Flags);
   * }
   */
  static int cuStreamCreate(MemorySegment phStream, int flags) {
    try {
      return (int) cuStreamCreate.MH.invokeExact(phStream, flags);
    } catch (Throwable t) {
      throw rethrow(t);
    }
  }

  private static final class cuStreamCreate {
    static final MethodHandle MH =
        CudaLibrary.downcall(
            CuSymbol.cuStreamCreate, FunctionDescriptor.of(C_INT, C_POINTER, C_INT));
  }

  /**
   * Calls {@code cuStreamDestroy_v2}:
   *
   * {@snippet lang=c :
   * CUresult cuStreamDestroy_v2(CUstream hStream);
   * }
   */
  static int cuStreamDestroy_v2(long hStream) {
    try {
      return (int) cuStreamDestroy_v2.MH.invokeExact(hStream);
    } catch (Throwable t) {
      throw rethrow(t);
    }
  }

  private static final class cuStreamDestroy_v2 {
    static final MethodHandle MH =
        CudaLibrary.downcall(CuSymbol.cuStreamDestroy_v2, FunctionDescriptor.of(C_INT, C_LONG));
  }

  /**
   * Calls {@code cuStreamSynchronize}:
   *
   * {@snippet lang=c :
   * CUresult cuStreamSynchronize(CUstream hStream);
   * }
   */
  static int cuStreamSynchronize(long hStream) {
    try {
      return (int) cuStreamSynchronize.MH.invokeExact(hStream);
    } catch (Throwable t) {
      throw rethrow(t);
    }
  }

  private static final class cuStreamSynchronize {
    static final MethodHandle MH =
        CudaLibrary.downcall(CuSymbol.cuStreamSynchronize, FunctionDescriptor.of(C_INT, C_LONG));
  }

  /**
   * Calls {@code cuStreamQuery}:
   *
   * {@snippet lang=c :
   * CUresult cuStreamQuery(CUstream hStream);
   * }
   */
  static int cuStreamQuery(long hStream) {
    try {
      return (int) cuStreamQuery.MH.invokeExact(hStream);
    } catch (Throwable t) {
      throw rethrow(t);
    }
  }

  private static final class cuStreamQuery {
    static final MethodHandle MH =
        CudaLibrary.downcall(CuSymbol.cuStreamQuery, FunctionDescriptor.of(C_INT, C_LONG));
  }

  /**
   * Calls {@code cuStreamWaitEvent}:
   *
   * {@snippet lang=c :
   * CUresult cuStreamWaitEvent(CUstream hStream, CUevent hEvent, unsigned int Flags);
   * }
   */
  static int cuStreamWaitEvent(long hStream, long hEvent, int flags) {
    try {
      return (int) cuStreamWaitEvent.MH.invokeExact(hStream, hEvent, flags);
    } catch (Throwable t) {
      throw rethrow(t);
    }
  }

  private static final class cuStreamWaitEvent {
    static final MethodHandle MH =
        CudaLibrary.downcall(
            CuSymbol.cuStreamWaitEvent, FunctionDescriptor.of(C_INT, C_LONG, C_LONG, C_INT));
  }

  /**
   * Calls {@code cuLaunchHostFunc}:
   *
   * {@snippet lang=c :
   * CUresult cuLaunchHostFunc(CUstream hStream, CUhostFn fn, void *userData);
   * }
   */
  static int cuLaunchHostFunc(long hStream, MemorySegment fn, long userData) {
    try {
      return (int) cuLaunchHostFunc.MH.invokeExact(hStream, fn, userData);
    } catch (Throwable t) {
      throw rethrow(t);
    }
  }

  private static final class cuLaunchHostFunc {
    static final MethodHandle MH =
        CudaLibrary.downcall(
            CuSymbol.cuLaunchHostFunc, FunctionDescriptor.of(C_INT, C_LONG, C_POINTER, C_LONG));
  }

  /**
   * Calls {@code cuStreamBeginCapture_v2}:
   *
   * {@snippet lang=c :
   * CUresult cuStreamBeginCapture_v2(CUstream hStream, CUstreamCaptureMode mode);
   * }
   */
  static int cuStreamBeginCapture_v2(long hStream, int mode) {
    try {
      return (int) cuStreamBeginCapture_v2.MH.invokeExact(hStream, mode);
    } catch (Throwable t) {
      throw rethrow(t);
    }
  }

  private static final class cuStreamBeginCapture_v2 {
    static final MethodHandle MH =
        CudaLibrary.downcall(
            CuSymbol.cuStreamBeginCapture_v2, FunctionDescriptor.of(C_INT, C_LONG, C_INT));
  }

  /**
   * Calls {@code cuStreamEndCapture}:
   *
   * {@snippet lang=c :
   * CUresult cuStreamEndCapture(CUstream hStream, CUgraph *phGraph);
   * }
   */
  static int cuStreamEndCapture(long hStream, MemorySegment phGraph) {
    try {
      return (int) cuStreamEndCapture.MH.invokeExact(hStream, phGraph);
    } catch (Throwable t) {
      throw rethrow(t);
    }
  }

  private static final class cuStreamEndCapture {
    static final MethodHandle MH =
        CudaLibrary.downcall(
            CuSymbol.cuStreamEndCapture, FunctionDescriptor.of(C_INT, C_LONG, C_POINTER));
  }

  /**
   * Calls {@code cuStreamIsCapturing}:
   *
   * {@snippet lang=c :
   * CUresult cuStreamIsCapturing(CUstream hStream, CUstreamCaptureStatus *captureStatus);
   * }
   */
  static int cuStreamIsCapturing(long hStream, MemorySegment captureStatus) {
    try {
      return (int) cuStreamIsCapturing.MH.invokeExact(hStream, captureStatus);
    } catch (Throwable t) {
      throw rethrow(t);
    }
  }

  private static final class cuStreamIsCapturing {
    static final MethodHandle MH =
        CudaLibrary.downcall(
            CuSymbol.cuStreamIsCapturing, FunctionDescriptor.of(C_INT, C_LONG, C_POINTER));
  }

  /**
   * Calls {@code cuStreamGetCaptureInfo_v3}:
   *
   * {@snippet lang=c :
   * CUresult cuStreamGetCaptureInfo_v3(CUstream hStream, CUstreamCaptureStatus *captureStatus_out,
   *     cuuint64_t *id_out, CUgraph *graph_out, const CUgraphNode **dependencies_out,
   *     const CUgraphEdgeData **edgeData_out, size_t *numDependencies_out);
   * }
   */
  static int cuStreamGetCaptureInfo_v3(
      long hStream,
      MemorySegment captureStatus,
      MemorySegment id,
      MemorySegment graph,
      MemorySegment dependencies,
      MemorySegment edgeData,
      MemorySegment numDependencies) {
    try {
      return (int)
          cuStreamGetCaptureInfo_v3.MH.invokeExact(
              hStream, captureStatus, id, graph, dependencies, edgeData, numDependencies);
    } catch (Throwable t) {
      throw rethrow(t);
    }
  }

  private static final class cuStreamGetCaptureInfo_v3 {
    static final MethodHandle MH =
        CudaLibrary.downcall(
            CuSymbol.cuStreamGetCaptureInfo_v3,
            FunctionDescriptor.of(
                C_INT, C_LONG, C_POINTER, C_POINTER, C_POINTER, C_POINTER, C_POINTER, C_POINTER));
  }

  /**
   * Calls {@code cuStreamGetCaptureInfo_v2}:
   *
   * {@snippet lang=c :
   * CUresult cuStreamGetCaptureInfo_v2(CUstream hStream, CUstreamCaptureStatus *captureStatus_out,
   *     cuuint64_t *id_out, CUgraph *graph_out, const CUgraphNode **dependencies_out,
   *     size_t *numDependencies_out);
   * }
   */
  static int cuStreamGetCaptureInfo_v2(
      long hStream,
      MemorySegment captureStatus,
      MemorySegment id,
      MemorySegment graph,
      MemorySegment dependencies,
      MemorySegment numDependencies) {
    try {
      return (int)
          cuStreamGetCaptureInfo_v2.MH.invokeExact(
              hStream, captureStatus, id, graph, dependencies, numDependencies);
    } catch (Throwable t) {
      throw rethrow(t);
    }
  }

  private static final class cuStreamGetCaptureInfo_v2 {
    static final MethodHandle MH =
        CudaLibrary.downcall(
            CuSymbol.cuStreamGetCaptureInfo_v2,
            FunctionDescriptor.of(
                C_INT, C_LONG, C_POINTER, C_POINTER, C_POINTER, C_POINTER, C_POINTER));
  }

  /**
   * Calls {@code cuThreadExchangeStreamCaptureMode}:
   *
   * {@snippet lang=c :
   * CUresult cuThreadExchangeStreamCaptureMode(CUstreamCaptureMode *mode);
   * }
   */
  static int cuThreadExchangeStreamCaptureMode(MemorySegment mode) {
    try {
      return (int) cuThreadExchangeStreamCaptureMode.MH.invokeExact(mode);
    } catch (Throwable t) {
      throw rethrow(t);
    }
  }

  private static final class cuThreadExchangeStreamCaptureMode {
    static final MethodHandle MH =
        CudaLibrary.downcall(
            CuSymbol.cuThreadExchangeStreamCaptureMode, FunctionDescriptor.of(C_INT, C_POINTER));
  }

  /**
   * Calls {@code cuEventCreate}:
   *
   * {@snippet lang=c :
   * CUresult cuEventCreate(CUevent *phEvent, unsigned int Flags);
   * }
   */
  static int cuEventCreate(MemorySegment phEvent, int flags) {
    try {
      return (int) cuEventCreate.MH.invokeExact(phEvent, flags);
    } catch (Throwable t) {
      throw rethrow(t);
    }
  }

  private static final class cuEventCreate {
    static final MethodHandle MH =
        CudaLibrary.downcall(
            CuSymbol.cuEventCreate, FunctionDescriptor.of(C_INT, C_POINTER, C_INT));
  }

  /**
   * Calls {@code cuEventDestroy_v2}:
   *
   * {@snippet lang=c :
   * CUresult cuEventDestroy_v2(CUevent hEvent);
   * }
   */
  static int cuEventDestroy_v2(long hEvent) {
    try {
      return (int) cuEventDestroy_v2.MH.invokeExact(hEvent);
    } catch (Throwable t) {
      throw rethrow(t);
    }
  }

  private static final class cuEventDestroy_v2 {
    static final MethodHandle MH =
        CudaLibrary.downcall(CuSymbol.cuEventDestroy_v2, FunctionDescriptor.of(C_INT, C_LONG));
  }

  /**
   * Calls {@code cuEventRecord}:
   *
   * {@snippet lang=c :
   * CUresult cuEventRecord(CUevent hEvent, CUstream hStream);
   * }
   */
  static int cuEventRecord(long hEvent, long hStream) {
    try {
      return (int) cuEventRecord.MH.invokeExact(hEvent, hStream);
    } catch (Throwable t) {
      throw rethrow(t);
    }
  }

  private static final class cuEventRecord {
    static final MethodHandle MH =
        CudaLibrary.downcall(CuSymbol.cuEventRecord, FunctionDescriptor.of(C_INT, C_LONG, C_LONG));
  }

  /**
   * Calls {@code cuEventRecordWithFlags}:
   *
   * {@snippet lang=c :
   * CUresult cuEventRecordWithFlags(CUevent hEvent, CUstream hStream, unsigned int flags);
   * }
   */
  static int cuEventRecordWithFlags(long hEvent, long hStream, int flags) {
    try {
      return (int) cuEventRecordWithFlags.MH.invokeExact(hEvent, hStream, flags);
    } catch (Throwable t) {
      throw rethrow(t);
    }
  }

  private static final class cuEventRecordWithFlags {
    static final MethodHandle MH =
        CudaLibrary.downcall(
            CuSymbol.cuEventRecordWithFlags, FunctionDescriptor.of(C_INT, C_LONG, C_LONG, C_INT));
  }

  /**
   * Calls {@code cuEventQuery}:
   *
   * {@snippet lang=c :
   * CUresult cuEventQuery(CUevent hEvent);
   * }
   */
  static int cuEventQuery(long hEvent) {
    try {
      return (int) cuEventQuery.MH.invokeExact(hEvent);
    } catch (Throwable t) {
      throw rethrow(t);
    }
  }

  private static final class cuEventQuery {
    static final MethodHandle MH =
        CudaLibrary.downcall(CuSymbol.cuEventQuery, FunctionDescriptor.of(C_INT, C_LONG));
  }

  /**
   * Calls {@code cuEventSynchronize}:
   *
   * {@snippet lang=c :
   * CUresult cuEventSynchronize(CUevent hEvent);
   * }
   */
  static int cuEventSynchronize(long hEvent) {
    try {
      return (int) cuEventSynchronize.MH.invokeExact(hEvent);
    } catch (Throwable t) {
      throw rethrow(t);
    }
  }

  private static final class cuEventSynchronize {
    static final MethodHandle MH =
        CudaLibrary.downcall(CuSymbol.cuEventSynchronize, FunctionDescriptor.of(C_INT, C_LONG));
  }

  /**
   * Calls {@code cuEventElapsedTime_v2}:
   *
   * {@snippet lang=c :
   * CUresult cuEventElapsedTime_v2(float *pMilliseconds, CUevent hStart, CUevent hEnd);
   * }
   */
  static int cuEventElapsedTime_v2(MemorySegment pMilliseconds, long hStart, long hEnd) {
    try {
      return (int) cuEventElapsedTime_v2.MH.invokeExact(pMilliseconds, hStart, hEnd);
    } catch (Throwable t) {
      throw rethrow(t);
    }
  }

  private static final class cuEventElapsedTime_v2 {
    static final MethodHandle MH =
        CudaLibrary.downcall(
            CuSymbol.cuEventElapsedTime_v2,
            FunctionDescriptor.of(C_INT, C_POINTER, C_LONG, C_LONG));
  }

  /**
   * Calls {@code cuEventElapsedTime}:
   *
   * {@snippet lang=c :
   * CUresult cuEventElapsedTime(float *pMilliseconds, CUevent hStart, CUevent hEnd);
   * }
   */
  static int cuEventElapsedTime(MemorySegment pMilliseconds, long hStart, long hEnd) {
    try {
      return (int) cuEventElapsedTime.MH.invokeExact(pMilliseconds, hStart, hEnd);
    } catch (Throwable t) {
      throw rethrow(t);
    }
  }

  private static final class cuEventElapsedTime {
    static final MethodHandle MH =
        CudaLibrary.downcall(
            CuSymbol.cuEventElapsedTime, FunctionDescriptor.of(C_INT, C_POINTER, C_LONG, C_LONG));
  }

  /**
   * Calls {@code cuMemAlloc_v2}:
   *
   * {@snippet lang=c :
   * CUresult cuMemAlloc_v2(CUdeviceptr *dptr, size_t bytesize);
   * }
   */
  static int cuMemAlloc_v2(MemorySegment dptr, long bytesize) {
    try {
      return (int) cuMemAlloc_v2.MH.invokeExact(dptr, bytesize);
    } catch (Throwable t) {
      throw rethrow(t);
    }
  }

  private static final class cuMemAlloc_v2 {
    static final MethodHandle MH =
        CudaLibrary.downcall(
            CuSymbol.cuMemAlloc_v2, FunctionDescriptor.of(C_INT, C_POINTER, C_LONG));
  }

  /**
   * Calls {@code cuMemFree_v2}:
   *
   * {@snippet lang=c :
   * CUresult cuMemFree_v2(CUdeviceptr dptr);
   * }
   */
  static int cuMemFree_v2(long dptr) {
    try {
      return (int) cuMemFree_v2.MH.invokeExact(dptr);
    } catch (Throwable t) {
      throw rethrow(t);
    }
  }

  private static final class cuMemFree_v2 {
    static final MethodHandle MH =
        CudaLibrary.downcall(CuSymbol.cuMemFree_v2, FunctionDescriptor.of(C_INT, C_LONG));
  }

  /**
   * Calls {@code cuMemAllocAsync}:
   *
   * {@snippet lang=c :
   * CUresult cuMemAllocAsync(CUdeviceptr *dptr, size_t bytesize, CUstream hStream);
   * }
   */
  static int cuMemAllocAsync(MemorySegment dptr, long bytesize, long hStream) {
    try {
      return (int) cuMemAllocAsync.MH.invokeExact(dptr, bytesize, hStream);
    } catch (Throwable t) {
      throw rethrow(t);
    }
  }

  private static final class cuMemAllocAsync {
    static final MethodHandle MH =
        CudaLibrary.downcall(
            CuSymbol.cuMemAllocAsync, FunctionDescriptor.of(C_INT, C_POINTER, C_LONG, C_LONG));
  }

  /**
   * Calls {@code cuMemFreeAsync}:
   *
   * {@snippet lang=c :
   * CUresult cuMemFreeAsync(CUdeviceptr dptr, CUstream hStream);
   * }
   */
  static int cuMemFreeAsync(long dptr, long hStream) {
    try {
      return (int) cuMemFreeAsync.MH.invokeExact(dptr, hStream);
    } catch (Throwable t) {
      throw rethrow(t);
    }
  }

  private static final class cuMemFreeAsync {
    static final MethodHandle MH =
        CudaLibrary.downcall(CuSymbol.cuMemFreeAsync, FunctionDescriptor.of(C_INT, C_LONG, C_LONG));
  }

  /**
   * Calls {@code cuMemAllocHost_v2}:
   *
   * {@snippet lang=c :
   * CUresult cuMemAllocHost_v2(void **pp, size_t bytesize);
   * }
   */
  static int cuMemAllocHost_v2(MemorySegment pp, long bytesize) {
    try {
      return (int) cuMemAllocHost_v2.MH.invokeExact(pp, bytesize);
    } catch (Throwable t) {
      throw rethrow(t);
    }
  }

  private static final class cuMemAllocHost_v2 {
    static final MethodHandle MH =
        CudaLibrary.downcall(
            CuSymbol.cuMemAllocHost_v2, FunctionDescriptor.of(C_INT, C_POINTER, C_LONG));
  }

  /**
   * Calls {@code cuMemFreeHost}:
   *
   * {@snippet lang=c :
   * CUresult cuMemFreeHost(void *p);
   * }
   */
  static int cuMemFreeHost(long p) {
    try {
      return (int) cuMemFreeHost.MH.invokeExact(p);
    } catch (Throwable t) {
      throw rethrow(t);
    }
  }

  private static final class cuMemFreeHost {
    static final MethodHandle MH =
        CudaLibrary.downcall(CuSymbol.cuMemFreeHost, FunctionDescriptor.of(C_INT, C_LONG));
  }

  /**
   * Calls {@code cuMemGetInfo_v2}:
   *
   * {@snippet lang=c :
   * CUresult cuMemGetInfo_v2(size_t *free, size_t *total);
   * }
   */
  static int cuMemGetInfo_v2(MemorySegment free, MemorySegment total) {
    try {
      return (int) cuMemGetInfo_v2.MH.invokeExact(free, total);
    } catch (Throwable t) {
      throw rethrow(t);
    }
  }

  private static final class cuMemGetInfo_v2 {
    static final MethodHandle MH =
        CudaLibrary.downcall(
            CuSymbol.cuMemGetInfo_v2, FunctionDescriptor.of(C_INT, C_POINTER, C_POINTER));
  }

  /**
   * Calls {@code cuMemcpyHtoD_v2}:
   *
   * {@snippet lang=c :
   * CUresult cuMemcpyHtoD_v2(CUdeviceptr dstDevice, const void *srcHost, size_t ByteCount);
   * }
   */
  static int cuMemcpyHtoD_v2(long dstDevice, MemorySegment srcHost, long byteCount) {
    try {
      return (int) cuMemcpyHtoD_v2.MH.invokeExact(dstDevice, srcHost, byteCount);
    } catch (Throwable t) {
      throw rethrow(t);
    }
  }

  private static final class cuMemcpyHtoD_v2 {
    static final MethodHandle MH =
        CudaLibrary.downcall(
            CuSymbol.cuMemcpyHtoD_v2, FunctionDescriptor.of(C_INT, C_LONG, C_POINTER, C_LONG));
  }

  /**
   * Calls {@code cuMemcpyDtoH_v2}:
   *
   * {@snippet lang=c :
   * CUresult cuMemcpyDtoH_v2(void *dstHost, CUdeviceptr srcDevice, size_t ByteCount);
   * }
   */
  static int cuMemcpyDtoH_v2(MemorySegment dstHost, long srcDevice, long byteCount) {
    try {
      return (int) cuMemcpyDtoH_v2.MH.invokeExact(dstHost, srcDevice, byteCount);
    } catch (Throwable t) {
      throw rethrow(t);
    }
  }

  private static final class cuMemcpyDtoH_v2 {
    static final MethodHandle MH =
        CudaLibrary.downcall(
            CuSymbol.cuMemcpyDtoH_v2, FunctionDescriptor.of(C_INT, C_POINTER, C_LONG, C_LONG));
  }

  /**
   * Calls {@code cuMemcpyHtoDAsync_v2}:
   *
   * {@snippet lang=c :
   * CUresult cuMemcpyHtoDAsync_v2(CUdeviceptr dstDevice, const void *srcHost, size_t ByteCount,
   *     CUstream hStream);
   * }
   */
  static int cuMemcpyHtoDAsync_v2(
      long dstDevice, MemorySegment srcHost, long byteCount, long hStream) {
    try {
      return (int) cuMemcpyHtoDAsync_v2.MH.invokeExact(dstDevice, srcHost, byteCount, hStream);
    } catch (Throwable t) {
      throw rethrow(t);
    }
  }

  private static final class cuMemcpyHtoDAsync_v2 {
    static final MethodHandle MH =
        CudaLibrary.downcall(
            CuSymbol.cuMemcpyHtoDAsync_v2,
            FunctionDescriptor.of(C_INT, C_LONG, C_POINTER, C_LONG, C_LONG));
  }

  /**
   * Calls {@code cuMemcpyDtoHAsync_v2}:
   *
   * {@snippet lang=c :
   * CUresult cuMemcpyDtoHAsync_v2(void *dstHost, CUdeviceptr srcDevice, size_t ByteCount,
   *     CUstream hStream);
   * }
   */
  static int cuMemcpyDtoHAsync_v2(
      MemorySegment dstHost, long srcDevice, long byteCount, long hStream) {
    try {
      return (int) cuMemcpyDtoHAsync_v2.MH.invokeExact(dstHost, srcDevice, byteCount, hStream);
    } catch (Throwable t) {
      throw rethrow(t);
    }
  }

  private static final class cuMemcpyDtoHAsync_v2 {
    static final MethodHandle MH =
        CudaLibrary.downcall(
            CuSymbol.cuMemcpyDtoHAsync_v2,
            FunctionDescriptor.of(C_INT, C_POINTER, C_LONG, C_LONG, C_LONG));
  }

  /**
   * Calls {@code cuMemcpyDtoDAsync_v2}:
   *
   * {@snippet lang=c :
   * CUresult cuMemcpyDtoDAsync_v2(CUdeviceptr dstDevice, CUdeviceptr srcDevice, size_t ByteCount,
   *     CUstream hStream);
   * }
   */
  static int cuMemcpyDtoDAsync_v2(long dstDevice, long srcDevice, long byteCount, long hStream) {
    try {
      return (int) cuMemcpyDtoDAsync_v2.MH.invokeExact(dstDevice, srcDevice, byteCount, hStream);
    } catch (Throwable t) {
      throw rethrow(t);
    }
  }

  private static final class cuMemcpyDtoDAsync_v2 {
    static final MethodHandle MH =
        CudaLibrary.downcall(
            CuSymbol.cuMemcpyDtoDAsync_v2,
            FunctionDescriptor.of(C_INT, C_LONG, C_LONG, C_LONG, C_LONG));
  }

  /**
   * Calls {@code cuMemsetD8Async}:
   *
   * {@snippet lang=c :
   * CUresult cuMemsetD8Async(CUdeviceptr dstDevice, unsigned char uc, size_t N, CUstream hStream);
   * }
   */
  static int cuMemsetD8Async(long dstDevice, byte uc, long n, long hStream) {
    try {
      return (int) cuMemsetD8Async.MH.invokeExact(dstDevice, uc, n, hStream);
    } catch (Throwable t) {
      throw rethrow(t);
    }
  }

  private static final class cuMemsetD8Async {
    static final MethodHandle MH =
        CudaLibrary.downcall(
            CuSymbol.cuMemsetD8Async, FunctionDescriptor.of(C_INT, C_LONG, C_CHAR, C_LONG, C_LONG));
  }

  /**
   * Calls {@code cuMemsetD32Async}:
   *
   * {@snippet lang=c :
   * CUresult cuMemsetD32Async(CUdeviceptr dstDevice, unsigned int ui, size_t N, CUstream hStream);
   * }
   */
  static int cuMemsetD32Async(long dstDevice, int ui, long n, long hStream) {
    try {
      return (int) cuMemsetD32Async.MH.invokeExact(dstDevice, ui, n, hStream);
    } catch (Throwable t) {
      throw rethrow(t);
    }
  }

  private static final class cuMemsetD32Async {
    static final MethodHandle MH =
        CudaLibrary.downcall(
            CuSymbol.cuMemsetD32Async, FunctionDescriptor.of(C_INT, C_LONG, C_INT, C_LONG, C_LONG));
  }

  /**
   * Calls {@code cuMemsetD16Async}:
   *
   * {@snippet lang=c :
   * CUresult cuMemsetD16Async(CUdeviceptr dstDevice, unsigned short us, size_t N, CUstream hStream);
   * }
   */
  static int cuMemsetD16Async(long dstDevice, short us, long n, long hStream) {
    try {
      return (int) cuMemsetD16Async.MH.invokeExact(dstDevice, us, n, hStream);
    } catch (Throwable t) {
      throw rethrow(t);
    }
  }

  private static final class cuMemsetD16Async {
    static final MethodHandle MH =
        CudaLibrary.downcall(
            CuSymbol.cuMemsetD16Async, FunctionDescriptor.of(C_INT, C_LONG, C_SHORT, C_LONG, C_LONG));
  }

  /**
   * Calls {@code cuMemsetD2D32Async}:
   *
   * {@snippet lang=c :
   * CUresult cuMemsetD2D32Async(CUdeviceptr dstDevice, size_t dstPitch, unsigned int ui, size_t Width,
   *     size_t Height, CUstream hStream);
   * }
   */
  static int cuMemsetD2D32Async(long dstDevice, long dstPitch, int ui, long width, long height, long hStream) {
    try {
      return (int) cuMemsetD2D32Async.MH.invokeExact(dstDevice, dstPitch, ui, width, height, hStream);
    } catch (Throwable t) {
      throw rethrow(t);
    }
  }

  private static final class cuMemsetD2D32Async {
    static final MethodHandle MH =
        CudaLibrary.downcall(
            CuSymbol.cuMemsetD2D32Async,
            FunctionDescriptor.of(C_INT, C_LONG, C_LONG, C_INT, C_LONG, C_LONG, C_LONG));
  }

  /**
   * Calls {@code cuModuleLoadDataEx}:
   *
   * {@snippet lang=c :
   * CUresult cuModuleLoadDataEx(CUmodule *module, const void *image, unsigned int numOptions,
   *     CUjit_option *options, void **optionValues);
   * }
   */
  static int cuModuleLoadDataEx(
      MemorySegment module,
      MemorySegment image,
      int numOptions,
      MemorySegment options,
      MemorySegment optionValues) {
    try {
      return (int)
          cuModuleLoadDataEx.MH.invokeExact(module, image, numOptions, options, optionValues);
    } catch (Throwable t) {
      throw rethrow(t);
    }
  }

  private static final class cuModuleLoadDataEx {
    static final MethodHandle MH =
        CudaLibrary.downcall(
            CuSymbol.cuModuleLoadDataEx,
            FunctionDescriptor.of(C_INT, C_POINTER, C_POINTER, C_INT, C_POINTER, C_POINTER));
  }

  /**
   * Calls {@code cuModuleUnload}:
   *
   * {@snippet lang=c :
   * CUresult cuModuleUnload(CUmodule hmod);
   * }
   */
  static int cuModuleUnload(long hmod) {
    try {
      return (int) cuModuleUnload.MH.invokeExact(hmod);
    } catch (Throwable t) {
      throw rethrow(t);
    }
  }

  private static final class cuModuleUnload {
    static final MethodHandle MH =
        CudaLibrary.downcall(CuSymbol.cuModuleUnload, FunctionDescriptor.of(C_INT, C_LONG));
  }

  /**
   * Calls {@code cuModuleGetFunction}:
   *
   * {@snippet lang=c :
   * CUresult cuModuleGetFunction(CUfunction *hfunc, CUmodule hmod, const char *name);
   * }
   */
  static int cuModuleGetFunction(MemorySegment hfunc, long hmod, MemorySegment name) {
    try {
      return (int) cuModuleGetFunction.MH.invokeExact(hfunc, hmod, name);
    } catch (Throwable t) {
      throw rethrow(t);
    }
  }

  private static final class cuModuleGetFunction {
    static final MethodHandle MH =
        CudaLibrary.downcall(
            CuSymbol.cuModuleGetFunction,
            FunctionDescriptor.of(C_INT, C_POINTER, C_LONG, C_POINTER));
  }

  /**
   * Calls {@code cuLaunchKernel}:
   *
   * {@snippet lang=c :
   * CUresult cuLaunchKernel(CUfunction f, unsigned int gridDimX, unsigned int gridDimY,
   *     unsigned int gridDimZ, unsigned int blockDimX, unsigned int blockDimY,
   *     unsigned int blockDimZ, unsigned int sharedMemBytes, CUstream hStream, void **kernelParams,
   *     void **extra);
   * }
   */
  static int cuLaunchKernel(
      long f,
      int gridDimX,
      int gridDimY,
      int gridDimZ,
      int blockDimX,
      int blockDimY,
      int blockDimZ,
      int sharedMemBytes,
      long hStream,
      MemorySegment kernelParams,
      MemorySegment extra) {
    try {
      return (int)
          cuLaunchKernel.MH.invokeExact(
              f,
              gridDimX,
              gridDimY,
              gridDimZ,
              blockDimX,
              blockDimY,
              blockDimZ,
              sharedMemBytes,
              hStream,
              kernelParams,
              extra);
    } catch (Throwable t) {
      throw rethrow(t);
    }
  }

  private static final class cuLaunchKernel {
    static final MethodHandle MH =
        CudaLibrary.downcall(
            CuSymbol.cuLaunchKernel,
            FunctionDescriptor.of(
                C_INT, C_LONG, C_INT, C_INT, C_INT, C_INT, C_INT, C_INT, C_INT, C_LONG, C_POINTER,
                C_POINTER));
  }

  /**
   * Calls {@code cuGraphCreate}:
   *
   * {@snippet lang=c :
   * CUresult cuGraphCreate(CUgraph *phGraph, unsigned int flags);
   * }
   */
  static int cuGraphCreate(MemorySegment phGraph, int flags) {
    try {
      return (int) cuGraphCreate.MH.invokeExact(phGraph, flags);
    } catch (Throwable t) {
      throw rethrow(t);
    }
  }

  private static final class cuGraphCreate {
    static final MethodHandle MH =
        CudaLibrary.downcall(
            CuSymbol.cuGraphCreate, FunctionDescriptor.of(C_INT, C_POINTER, C_INT));
  }

  /**
   * Calls {@code cuGraphDestroy}:
   *
   * {@snippet lang=c :
   * CUresult cuGraphDestroy(CUgraph hGraph);
   * }
   */
  static int cuGraphDestroy(long hGraph) {
    try {
      return (int) cuGraphDestroy.MH.invokeExact(hGraph);
    } catch (Throwable t) {
      throw rethrow(t);
    }
  }

  private static final class cuGraphDestroy {
    static final MethodHandle MH =
        CudaLibrary.downcall(CuSymbol.cuGraphDestroy, FunctionDescriptor.of(C_INT, C_LONG));
  }

  /**
   * Calls {@code cuGraphInstantiateWithFlags}:
   *
   * {@snippet lang=c :
   * CUresult cuGraphInstantiateWithFlags(CUgraphExec *phGraphExec, CUgraph hGraph,
   *     unsigned long long flags);
   * }
   */
  static int cuGraphInstantiateWithFlags(MemorySegment phGraphExec, long hGraph, long flags) {
    try {
      return (int) cuGraphInstantiateWithFlags.MH.invokeExact(phGraphExec, hGraph, flags);
    } catch (Throwable t) {
      throw rethrow(t);
    }
  }

  private static final class cuGraphInstantiateWithFlags {
    static final MethodHandle MH =
        CudaLibrary.downcall(
            CuSymbol.cuGraphInstantiateWithFlags,
            FunctionDescriptor.of(C_INT, C_POINTER, C_LONG, C_LONG));
  }

  /**
   * Calls {@code cuGraphUpload}:
   *
   * {@snippet lang=c :
   * CUresult cuGraphUpload(CUgraphExec hGraphExec, CUstream hStream);
   * }
   */
  static int cuGraphUpload(long hGraphExec, long hStream) {
    try {
      return (int) cuGraphUpload.MH.invokeExact(hGraphExec, hStream);
    } catch (Throwable t) {
      throw rethrow(t);
    }
  }

  private static final class cuGraphUpload {
    static final MethodHandle MH =
        CudaLibrary.downcall(CuSymbol.cuGraphUpload, FunctionDescriptor.of(C_INT, C_LONG, C_LONG));
  }

  /**
   * Calls {@code cuGraphLaunch}:
   *
   * {@snippet lang=c :
   * CUresult cuGraphLaunch(CUgraphExec hGraphExec, CUstream hStream);
   * }
   */
  static int cuGraphLaunch(long hGraphExec, long hStream) {
    try {
      return (int) cuGraphLaunch.MH.invokeExact(hGraphExec, hStream);
    } catch (Throwable t) {
      throw rethrow(t);
    }
  }

  private static final class cuGraphLaunch {
    static final MethodHandle MH =
        CudaLibrary.downcall(CuSymbol.cuGraphLaunch, FunctionDescriptor.of(C_INT, C_LONG, C_LONG));
  }

  /**
   * Calls {@code cuGraphExecDestroy}:
   *
   * {@snippet lang=c :
   * CUresult cuGraphExecDestroy(CUgraphExec hGraphExec);
   * }
   */
  static int cuGraphExecDestroy(long hGraphExec) {
    try {
      return (int) cuGraphExecDestroy.MH.invokeExact(hGraphExec);
    } catch (Throwable t) {
      throw rethrow(t);
    }
  }

  private static final class cuGraphExecDestroy {
    static final MethodHandle MH =
        CudaLibrary.downcall(CuSymbol.cuGraphExecDestroy, FunctionDescriptor.of(C_INT, C_LONG));
  }

  /**
   * Calls {@code cuGraphExecUpdate_v2}:
   *
   * {@snippet lang=c :
   * CUresult cuGraphExecUpdate_v2(CUgraphExec hGraphExec, CUgraph hGraph,
   *     CUgraphExecUpdateResultInfo *resultInfo);
   * }
   */
  static int cuGraphExecUpdate_v2(long hGraphExec, long hGraph, MemorySegment resultInfo) {
    try {
      return (int) cuGraphExecUpdate_v2.MH.invokeExact(hGraphExec, hGraph, resultInfo);
    } catch (Throwable t) {
      throw rethrow(t);
    }
  }

  private static final class cuGraphExecUpdate_v2 {
    static final MethodHandle MH =
        CudaLibrary.downcall(
            CuSymbol.cuGraphExecUpdate_v2, FunctionDescriptor.of(C_INT, C_LONG, C_LONG, C_POINTER));
  }

  /**
   * Calls {@code cuGraphGetNodes}:
   *
   * {@snippet lang=c :
   * CUresult cuGraphGetNodes(CUgraph hGraph, CUgraphNode *nodes, size_t *numNodes);
   * }
   */
  static int cuGraphGetNodes(long hGraph, MemorySegment nodes, MemorySegment numNodes) {
    try {
      return (int) cuGraphGetNodes.MH.invokeExact(hGraph, nodes, numNodes);
    } catch (Throwable t) {
      throw rethrow(t);
    }
  }

  private static final class cuGraphGetNodes {
    static final MethodHandle MH =
        CudaLibrary.downcall(
            CuSymbol.cuGraphGetNodes, FunctionDescriptor.of(C_INT, C_LONG, C_POINTER, C_POINTER));
  }

  /**
   * Calls {@code cuGraphNodeGetType}:
   *
   * {@snippet lang=c :
   * CUresult cuGraphNodeGetType(CUgraphNode hNode, CUgraphNodeType *type);
   * }
   */
  static int cuGraphNodeGetType(long hNode, MemorySegment type) {
    try {
      return (int) cuGraphNodeGetType.MH.invokeExact(hNode, type);
    } catch (Throwable t) {
      throw rethrow(t);
    }
  }

  private static final class cuGraphNodeGetType {
    static final MethodHandle MH =
        CudaLibrary.downcall(
            CuSymbol.cuGraphNodeGetType, FunctionDescriptor.of(C_INT, C_LONG, C_POINTER));
  }

  /**
   * Calls {@code cuGraphDebugDotPrint}:
   *
   * {@snippet lang=c :
   * CUresult cuGraphDebugDotPrint(CUgraph hGraph, const char *path, unsigned int flags);
   * }
   */
  static int cuGraphDebugDotPrint(long hGraph, MemorySegment path, int flags) {
    try {
      return (int) cuGraphDebugDotPrint.MH.invokeExact(hGraph, path, flags);
    } catch (Throwable t) {
      throw rethrow(t);
    }
  }

  private static final class cuGraphDebugDotPrint {
    static final MethodHandle MH =
        CudaLibrary.downcall(
            CuSymbol.cuGraphDebugDotPrint, FunctionDescriptor.of(C_INT, C_LONG, C_POINTER, C_INT));
  }
}
