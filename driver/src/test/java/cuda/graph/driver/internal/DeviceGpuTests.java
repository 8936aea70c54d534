// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 the cuda-graph authors
package cuda.graph.driver.internal;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import cuda.graph.spi.Availability;
import cuda.graph.spi.CaptureMode;
import cuda.graph.spi.CuContext;
import cuda.graph.spi.CuGraph;
import cuda.graph.spi.CuGraphExec;
import cuda.graph.spi.CuResult;
import cuda.graph.spi.CuStream;
import cuda.graph.spi.CudaDriverException;
import cuda.graph.spi.DeviceAttribute;
import cuda.graph.spi.DriverCall;
import cuda.graph.spi.GraphMemAttribute;
import cuda.graph.spi.MemoryInfo;
import cuda.graph.spi.StreamFlags;
import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.lang.invoke.MethodHandle;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

/** Initialization, versions, devices, contexts, error names and the binding itself, on a GPU. */
@Tag("gpu")
class DeviceGpuTests extends GpuTest {

  @Test
  void availabilityNamesTheDriverAndTheDevice() {
    Availability availability = new CudaProvider().availability();
    assertTrue(availability.available());
    assertTrue(
        availability.reason().contains(driver.deviceGetName(gpu.device)), availability.reason());
    assertFalse(availability.reason().contains("\n"), availability.reason());
  }

  @Test
  void initIsIdempotentAndRejectsFlags() {
    driver.init(0);
    driver.init(0);
    CudaDriverException failure = assertThrows(CudaDriverException.class, () -> driver.init(1));
    assertEquals(CuResult.INVALID_VALUE, failure.status());
    assertEquals(DriverCall.INIT, failure.call());
  }

  @Test
  void theDriverIsNewEnoughAndItsVersionChoseTheAbis() {
    int version = driver.driverGetVersion();
    assertTrue(version >= CuEntry.MINIMUM_DRIVER_VERSION, "version " + version);
    assertEquals(version, DriverAbi.VERSION);
    assertEquals(version >= 12030, DriverAbi.CAPTURE_INFO == CuEntry.STREAM_GET_CAPTURE_INFO);
    assertEquals(version >= 12080, DriverAbi.ELAPSED_TIME == CuEntry.EVENT_ELAPSED_TIME);
  }

  @Test
  void devicesAreCountedAndOrdinalsChecked() {
    int count = driver.deviceGetCount();
    assertTrue(count >= 1);
    assertEquals(gpu.device, driver.deviceGet(0));
    for (int bad : new int[] {count + 99, -1}) {
      CudaDriverException failure =
          assertThrows(CudaDriverException.class, () -> driver.deviceGet(bad));
      assertEquals(CuResult.INVALID_DEVICE, failure.status());
      assertEquals(
          "cuDeviceGet returned CUDA_ERROR_INVALID_DEVICE (101): invalid device ordinal",
          failure.getMessage());
    }
  }

  @Test
  void theDeviceHasANameAndTheAttributesOfACudaGpu() {
    String name = driver.deviceGetName(gpu.device);
    assertFalse(name.isBlank());
    assertFalse(name.contains("\0"));
    assertEquals(32, driver.deviceGetAttribute(DeviceAttribute.WARP_SIZE, gpu.device));
    assertTrue(driver.deviceGetAttribute(DeviceAttribute.MAX_THREADS_PER_BLOCK, gpu.device) >= 512);
    assertTrue(
        driver.deviceGetAttribute(DeviceAttribute.COMPUTE_CAPABILITY_MAJOR, gpu.device) >= 7);
    assertTrue(driver.deviceGetAttribute(DeviceAttribute.MULTIPROCESSOR_COUNT, gpu.device) > 0);
    assertEquals(1, driver.deviceGetAttribute(DeviceAttribute.MEMORY_POOLS_SUPPORTED, gpu.device));
    CudaDriverException failure =
        assertThrows(
            CudaDriverException.class, () -> driver.deviceGetAttribute(100_000, gpu.device));
    assertEquals(CuResult.INVALID_VALUE, failure.status());
  }

  @Test
  void totalMemoryAgreesWithMemGetInfo() {
    MemoryInfo info = driver.memGetInfo();
    assertEquals(driver.deviceTotalMem(gpu.device), info.totalBytes());
    assertTrue(info.freeBytes() > 0 && info.freeBytes() <= info.totalBytes(), info.toString());
  }

  @Test
  void graphMemoryIsReadTrimmedAndItsHighWaterResetThroughTheBinding() {
    long bytes = 4L << 20;
    CuStream stream = driver.streamCreate(StreamFlags.NON_BLOCKING);
    try {
      driver.streamBeginCapture(stream, CaptureMode.GLOBAL);
      long temporary = driver.memAllocAsync(bytes, stream);
      driver.memsetD8Async(temporary, (byte) 1, bytes, stream);
      driver.memFreeAsync(temporary, stream);
      CuGraph graph = driver.streamEndCapture(stream);
      CuGraphExec exec = driver.graphInstantiate(graph, 0);
      driver.graphDestroy(graph);
      driver.deviceGraphMemTrim(gpu.device);
      assertEquals(0, graphMemory(GraphMemAttribute.USED_MEM_CURRENT), "idle after a trim");
      driver.graphLaunch(exec, stream);
      driver.streamSynchronize(stream);
      long used = graphMemory(GraphMemAttribute.USED_MEM_CURRENT);
      assertTrue(used >= bytes, used + " bytes used by a graph allocating " + bytes);
      assertTrue(graphMemory(GraphMemAttribute.RESERVED_MEM_CURRENT) >= used);
      driver.graphExecDestroy(exec);
      driver.deviceGraphMemTrim(gpu.device);
      assertEquals(0, graphMemory(GraphMemAttribute.RESERVED_MEM_CURRENT));
      driver.deviceSetGraphMemAttribute(gpu.device, GraphMemAttribute.USED_MEM_HIGH, 0);
      driver.deviceSetGraphMemAttribute(gpu.device, GraphMemAttribute.RESERVED_MEM_HIGH, 0);
      assertEquals(0, graphMemory(GraphMemAttribute.USED_MEM_HIGH), "reset to the current 0");
      assertEquals(0, graphMemory(GraphMemAttribute.RESERVED_MEM_HIGH));
      CudaDriverException refused =
          assertThrows(
              CudaDriverException.class,
              () ->
                  driver.deviceSetGraphMemAttribute(
                      gpu.device, GraphMemAttribute.USED_MEM_HIGH, 5));
      assertEquals(CuResult.INVALID_VALUE, refused.status());
      assertEquals(DriverCall.DEVICE_SET_GRAPH_MEM_ATTRIBUTE, refused.call());
    } finally {
      driver.streamDestroy(stream);
    }
  }

  private static long graphMemory(GraphMemAttribute attribute) {
    return driver.deviceGetGraphMemAttribute(gpu.device, attribute);
  }

  @Test
  void thePrimaryContextIsSharedAndBoundPerThread() {
    CuContext again = driver.devicePrimaryCtxRetain(gpu.device);
    try {
      assertEquals(gpu.context, again);
      assertEquals(gpu.context, driver.ctxGetCurrent());
      driver.ctxSetCurrent(null);
      assertNull(driver.ctxGetCurrent());
      CudaDriverException failure =
          assertThrows(CudaDriverException.class, () -> driver.streamCreate(0));
      assertEquals(CuResult.INVALID_CONTEXT, failure.status());
    } finally {
      gpu.bind();
      driver.devicePrimaryCtxRelease(gpu.device);
    }
    assertEquals(gpu.context, driver.ctxGetCurrent());
  }

  @Test
  void errorNamesAndStringsAreTheDrivers() {
    assertEquals(Optional.of("CUDA_ERROR_INVALID_VALUE"), driver.getErrorName(1));
    assertEquals(Optional.of("invalid argument"), driver.getErrorString(1));
    assertEquals(Optional.of("CUDA_SUCCESS"), driver.getErrorName(0));
    assertEquals(Optional.of("CUDA_ERROR_STREAM_CAPTURE_INVALIDATED"), driver.getErrorName(901));
    assertEquals(Optional.empty(), driver.getErrorName(12345));
    assertEquals(Optional.empty(), driver.getErrorString(12345));
    for (int code :
        new int[] {1, 2, 100, 101, 200, 201, 218, 222, 400, 401, 500, 600, 700, 900, 910}) {
      assertEquals(CuResult.nameOf(code), driver.getErrorName(code), "code " + code);
    }
  }

  /**
   * Every symbol bound by name is the function the driver itself resolves for the same base name
   * and ABI version through {@code cuGetProcAddress_v2} (legacy-stream flavour).
   */
  @Test
  void everyBoundSymbolIsTheDriversOwnResolution() throws Throwable {
    int version = driver.driverGetVersion();
    MethodHandle getProcAddress = CuEntry.GET_PROC_ADDRESS.handle();
    List<String> mismatches = new ArrayList<>();
    try (Arena arena = Arena.ofConfined()) {
      MemorySegment pfn = arena.allocate(ValueLayout.ADDRESS);
      MemorySegment symbolStatus = arena.allocate(ValueLayout.JAVA_INT);
      for (CuEntry entry : CuEntry.requiredBy(version)) {
        pfn.set(ValueLayout.JAVA_LONG, 0, 0);
        symbolStatus.set(ValueLayout.JAVA_INT, 0, -1);
        int status =
            (int)
                getProcAddress.invokeExact(
                    arena.allocateFrom(entry.base()), // never NULL: the driver would crash
                    pfn,
                    entry.introducedIn(),
                    1L, // CU_GET_PROC_ADDRESS_LEGACY_STREAM: the unsuffixed, legacy-stream ones
                    symbolStatus);
        long resolved = pfn.get(ValueLayout.JAVA_LONG, 0);
        long exported = CudaLibrary.address(entry).orElseThrow().address();
        if (status != 0 || symbolStatus.get(ValueLayout.JAVA_INT, 0) != 0 || resolved != exported) {
          mismatches.add(
              entry.symbol()
                  + " ("
                  + entry.base()
                  + " @"
                  + entry.introducedIn()
                  + "): status "
                  + status
                  + ", symbolStatus "
                  + symbolStatus.get(ValueLayout.JAVA_INT, 0)
                  + ", resolved 0x"
                  + Long.toHexString(resolved)
                  + ", exported 0x"
                  + Long.toHexString(exported));
        }
      }
    }
    assertTrue(mismatches.isEmpty(), String.join("\n", mismatches));
  }
}
