package cuda.graph.driver.internal;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import cuda.graph.spi.DriverCall;
import java.util.Arrays;
import java.util.EnumSet;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Test;

/**
 * The symbol table against the driver specification (section 1.2, which exported name to bind) and
 * the CUDA 13.0 {@code cudaTypedefs.h} ({@code PFN_<name>_v<version>}, the ABI versions).
 */
class CuSymbolTests {

  /** Section 1.2 of the driver specification: the names to bind for the calls this SPI has. */
  private static final Set<String> SPEC_SYMBOLS =
      Set.of(
          "cuInit",
          "cuDriverGetVersion",
          "cuGetErrorName",
          "cuGetErrorString",
          "cuGetProcAddress_v2",
          "cuDeviceGetCount",
          "cuDeviceGet",
          "cuDeviceGetName",
          "cuDeviceGetAttribute",
          "cuDeviceTotalMem_v2",
          "cuDevicePrimaryCtxRetain",
          "cuDevicePrimaryCtxRelease_v2",
          "cuCtxSetCurrent",
          "cuCtxGetCurrent",
          "cuStreamCreate",
          "cuStreamDestroy_v2",
          "cuStreamSynchronize",
          "cuStreamQuery",
          "cuStreamWaitEvent",
          "cuLaunchHostFunc",
          "cuStreamBeginCapture_v2",
          "cuStreamEndCapture",
          "cuStreamIsCapturing",
          "cuStreamGetCaptureInfo_v3",
          "cuStreamGetCaptureInfo_v2",
          "cuThreadExchangeStreamCaptureMode",
          "cuEventCreate",
          "cuEventDestroy_v2",
          "cuEventRecord",
          "cuEventRecordWithFlags",
          "cuEventQuery",
          "cuEventSynchronize",
          "cuEventElapsedTime_v2",
          "cuEventElapsedTime",
          "cuMemAlloc_v2",
          "cuMemFree_v2",
          "cuMemAllocAsync",
          "cuMemFreeAsync",
          "cuMemAllocHost_v2",
          "cuMemFreeHost",
          "cuMemGetInfo_v2",
          "cuMemcpyHtoD_v2",
          "cuMemcpyDtoH_v2",
          "cuMemcpyHtoDAsync_v2",
          "cuMemcpyDtoHAsync_v2",
          "cuMemcpyDtoDAsync_v2",
          "cuMemsetD8Async",
          "cuMemsetD16Async",
          "cuMemsetD32Async",
          "cuMemsetD2D32Async",
          "cuModuleLoadDataEx",
          "cuModuleUnload",
          "cuModuleGetFunction",
          "cuLaunchKernel",
          "cuGraphCreate",
          "cuGraphDestroy",
          "cuGraphInstantiateWithFlags",
          "cuGraphUpload",
          "cuGraphLaunch",
          "cuGraphExecDestroy",
          "cuGraphExecUpdate_v2",
          "cuGraphGetNodes",
          "cuGraphNodeGetType",
          "cuGraphDebugDotPrint");

  /** Unversioned exports that are old ABIs (section 1.2): binding any of them is a silent bug. */
  private static final Set<String> OLD_ABIS =
      Set.of(
          "cuMemAlloc",
          "cuMemFree",
          "cuMemAllocHost",
          "cuMemGetInfo",
          "cuDeviceTotalMem",
          "cuStreamBeginCapture",
          "cuStreamGetCaptureInfo",
          "cuGraphInstantiate",
          "cuGraphInstantiate_v2",
          "cuGraphExecUpdate",
          "cuStreamDestroy",
          "cuEventDestroy",
          "cuDevicePrimaryCtxRelease",
          "cuMemcpyHtoD",
          "cuMemcpyDtoH",
          "cuMemcpyHtoDAsync",
          "cuMemcpyDtoHAsync",
          "cuMemcpyDtoDAsync",
          "cuGetProcAddress",
          "cuMemsetD8Async_v2",
          "cuMemsetD32Async_v2");

  /** {@code PFN_<base>_v<version>} of the ABI each symbol is, from the 13.0 cudaTypedefs.h. */
  private static final Map<String, Integer> PFN_VERSIONS =
      Map.ofEntries(
          Map.entry("cuMemAlloc_v2", 3020),
          Map.entry("cuMemFree_v2", 3020),
          Map.entry("cuMemcpyDtoDAsync_v2", 3020),
          Map.entry("cuDevicePrimaryCtxRelease_v2", 11000),
          Map.entry("cuStreamDestroy_v2", 4000),
          Map.entry("cuEventDestroy_v2", 4000),
          Map.entry("cuStreamBeginCapture_v2", 10010),
          Map.entry("cuStreamGetCaptureInfo_v2", 11030),
          Map.entry("cuStreamGetCaptureInfo_v3", 12030),
          Map.entry("cuEventElapsedTime_v2", 12080),
          Map.entry("cuEventElapsedTime", 2000),
          Map.entry("cuGraphInstantiateWithFlags", 11040),
          Map.entry("cuGraphExecUpdate_v2", 12000),
          Map.entry("cuGetProcAddress_v2", 12000),
          Map.entry("cuMemsetD8Async", 3020),
          Map.entry("cuModuleLoadDataEx", 2010),
          Map.entry("cuLaunchHostFunc", 10000),
          Map.entry("cuGraphUpload", 11010),
          Map.entry("cuGraphDebugDotPrint", 11030),
          Map.entry("cuEventRecordWithFlags", 11010),
          Map.entry("cuMemAllocAsync", 11020));

  @Test
  void theBoundSymbolsAreExactlyTheSpecificationsNames() {
    Set<String> bound =
        Arrays.stream(CuSymbol.values())
            .map(CuSymbol::symbol)
            .collect(Collectors.toCollection(TreeSet::new));
    assertEquals(new TreeSet<>(SPEC_SYMBOLS), bound);
  }

  @Test
  void noOldAbiIsBound() {
    for (CuSymbol symbol : CuSymbol.values()) {
      assertFalse(OLD_ABIS.contains(symbol.symbol()), symbol + " is an old ABI");
    }
  }

  @Test
  void everyCallIsServedByOneSymbolOnEverySupportedDriver() {
    for (int version : new int[] {12000, 12020, 12030, 12080, 13000, 13020}) {
      for (DriverCall call : DriverCall.values()) {
        long serving =
            Arrays.stream(CuSymbol.values())
                .filter(s -> s.call() == call && s.usedWith(version))
                .count();
        assertEquals(1, serving, call + " on driver " + version);
      }
    }
  }

  @Test
  void onA13DriverTheSymbolsAreTheOnesTheSpiNames() {
    EnumSet<DriverCall> different = EnumSet.noneOf(DriverCall.class);
    for (DriverCall call : DriverCall.values()) {
      if (!CuSymbol.boundFor(call, 13000).symbol().equals(call.symbol())) {
        different.add(call);
      }
    }
    // The one deliberate difference: cuModuleLoadDataEx, the same load with a JIT error log.
    assertEquals(EnumSet.of(DriverCall.MODULE_LOAD_DATA), different);
    assertEquals(
        CuSymbol.cuModuleLoadDataEx, CuSymbol.boundFor(DriverCall.MODULE_LOAD_DATA, 13000));
  }

  @Test
  void olderDriversGetTheAbisTheyExport() {
    assertEquals(
        CuSymbol.cuStreamGetCaptureInfo_v2,
        CuSymbol.boundFor(DriverCall.STREAM_GET_CAPTURE_INFO, 12020));
    assertEquals(
        CuSymbol.cuStreamGetCaptureInfo_v3,
        CuSymbol.boundFor(DriverCall.STREAM_GET_CAPTURE_INFO, 12030));
    assertEquals(
        CuSymbol.cuEventElapsedTime, CuSymbol.boundFor(DriverCall.EVENT_ELAPSED_TIME, 12060));
    assertEquals(
        CuSymbol.cuEventElapsedTime_v2, CuSymbol.boundFor(DriverCall.EVENT_ELAPSED_TIME, 12080));
  }

  @Test
  void procAddressQueriesUseTheBaseNameAndTheAbisVersion() {
    for (CuSymbol symbol : CuSymbol.values()) {
      String name = symbol.symbol();
      if (symbol == CuSymbol.cuGraphInstantiateWithFlags) {
        // Asking for "cuGraphInstantiate" would yield the 5-argument cuGraphInstantiate_v2.
        assertEquals("cuGraphInstantiateWithFlags", symbol.base());
      } else {
        assertEquals(name.replaceFirst("_v[0-9]+$", ""), symbol.base(), name);
      }
      Integer expected = PFN_VERSIONS.get(name);
      if (expected != null) {
        assertEquals(expected, symbol.introducedIn(), name);
      }
      assertTrue(symbol.introducedIn() >= 2000 && symbol.introducedIn() <= 13000, name);
    }
  }

  @Test
  void onlyProviderInternalSymbolsServeNoCall() {
    for (CuSymbol symbol : CuSymbol.values()) {
      if (symbol != CuSymbol.cuGetProcAddress_v2) {
        assertNotNull(symbol.call(), symbol + " serves no SPI call");
      }
    }
  }
}
