// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 the cuda-graph authors
package cuda.graph.driver.internal;

import static java.lang.foreign.ValueLayout.JAVA_INT;
import static java.lang.foreign.ValueLayout.JAVA_LONG;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeFalse;

import cuda.graph.spi.DriverCall;
import java.lang.foreign.FunctionDescriptor;
import java.lang.foreign.MemoryLayout;
import java.lang.foreign.ValueLayout;
import java.lang.invoke.MethodHandle;
import java.util.Arrays;
import java.util.EnumSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.TreeSet;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Test;

/**
 * The entry table against the SPI (one entry per call), the driver specification (section 1.2,
 * which exported name to bind), the CUDA 13.0 {@code cudaTypedefs.h} ({@code
 * PFN_<name>_v<version>}, the ABI versions) and {@code cuda.h} (the signatures).
 */
class CuEntryTests {

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
          // Not in section 1.2 yet: the graph memory of a device, CUDA 11.4's only ABIs.
          "cuDeviceGetGraphMemAttribute",
          "cuDeviceSetGraphMemAttribute",
          "cuDeviceGraphMemTrim",
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
          // Not in section 1.2 yet: mapped host memory. cuMemHostAlloc has one ABI (size_t since
          // CUDA 2.2); cuda.h maps cuMemHostGetDevicePointer to the _v2 with a 64-bit CUdeviceptr.
          "cuMemHostAlloc",
          "cuMemHostGetDevicePointer_v2",
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
          // Not in section 1.2 yet: CUDA 12.4's cuda.h, the only ABI of the call.
          "cuFuncGetParamInfo",
          "cuFuncGetAttribute",
          "cuFuncSetAttribute",
          "cuLaunchKernel",
          // Not in section 1.2 either: its only ABI, for programmatic dependent launch.
          "cuLaunchKernelEx",
          "cuGraphCreate",
          "cuGraphDestroy",
          "cuGraphInstantiateWithFlags",
          "cuGraphUpload",
          "cuGraphLaunch",
          "cuGraphExecDestroy",
          "cuGraphExecUpdate_v2",
          "cuGraphGetNodes",
          "cuGraphNodeGetType",
          "cuGraphDebugDotPrint",
          // Capture into a graph, conditional nodes, per-node updates: the names the 13.0 cuda.h
          // maps the plain names to.
          "cuStreamBeginCaptureToGraph",
          "cuStreamUpdateCaptureDependencies_v2",
          "cuGraphExecKernelNodeSetParams_v2",
          "cuGraphExecMemcpyNodeSetParams",
          "cuGraphExecMemsetNodeSetParams",
          "cuGraphNodeSetEnabled",
          "cuGraphNodeGetEnabled",
          // Child-graph nodes: plain names in every cuda.h since they were introduced.
          "cuGraphAddChildGraphNode",
          "cuGraphExecChildGraphNodeSetParams",
          "cuGraphConditionalHandleCreate",
          "cuGraphAddNode_v2");

  /** Unversioned exports that are old ABIs (section 1.2): binding any of them is a silent bug. */
  private static final Set<String> OLD_ABIS =
      Set.of(
          "cuMemAlloc",
          "cuMemFree",
          "cuMemAllocHost",
          "cuMemHostGetDevicePointer",
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
          "cuMemsetD32Async_v2",
          // The forms without edge data, and the CUDA_KERNEL_NODE_PARAMS_v1 one.
          "cuStreamUpdateCaptureDependencies",
          "cuGraphAddNode",
          "cuGraphExecKernelNodeSetParams");

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
          Map.entry("cuMemAllocAsync", 11020),
          Map.entry("cuMemAllocHost_v2", 3020),
          Map.entry("cuMemFreeHost", 2000),
          Map.entry("cuMemHostAlloc", 2020),
          Map.entry("cuMemHostGetDevicePointer_v2", 3020),
          Map.entry("cuFuncGetParamInfo", 12040),
          Map.entry("cuFuncGetAttribute", 2020),
          Map.entry("cuFuncSetAttribute", 9000),
          Map.entry("cuLaunchKernelEx", 11060),
          Map.entry("cuStreamBeginCaptureToGraph", 12030),
          Map.entry("cuStreamUpdateCaptureDependencies_v2", 12030),
          Map.entry("cuGraphExecKernelNodeSetParams_v2", 12000),
          Map.entry("cuGraphExecMemcpyNodeSetParams", 10020),
          Map.entry("cuGraphExecMemsetNodeSetParams", 10020),
          Map.entry("cuGraphNodeSetEnabled", 11060),
          Map.entry("cuGraphNodeGetEnabled", 11060),
          Map.entry("cuGraphAddChildGraphNode", 10000),
          Map.entry("cuGraphExecChildGraphNodeSetParams", 11010),
          Map.entry("cuGraphConditionalHandleCreate", 12030),
          Map.entry("cuGraphAddNode_v2", 12030),
          Map.entry("cuDeviceGetGraphMemAttribute", 11040),
          Map.entry("cuDeviceSetGraphMemAttribute", 11040),
          Map.entry("cuDeviceGraphMemTrim", 11040));

  /**
   * The calls newer than the oldest driver supported, and the CUDA version that introduced each.
   */
  private static final Map<DriverCall, Integer> NEWER_CALLS =
      Map.of(
          DriverCall.FUNC_GET_PARAM_INFO, 12040,
          DriverCall.STREAM_BEGIN_CAPTURE_TO_GRAPH, 12030,
          DriverCall.STREAM_UPDATE_CAPTURE_DEPENDENCIES, 12030,
          DriverCall.GRAPH_CONDITIONAL_HANDLE_CREATE, 12030,
          DriverCall.GRAPH_ADD_NODE, 12030);

  @Test
  void theBoundSymbolsAreExactlyTheSpecificationsNames() {
    Set<String> bound =
        Arrays.stream(CuEntry.values())
            .map(CuEntry::symbol)
            .collect(Collectors.toCollection(TreeSet::new));
    assertEquals(new TreeSet<>(SPEC_SYMBOLS), bound);
  }

  @Test
  void noOldAbiIsBound() {
    for (CuEntry entry : CuEntry.values()) {
      assertFalse(OLD_ABIS.contains(entry.symbol()), entry + " binds an old ABI");
    }
  }

  @Test
  void everyCallHasExactlyOneEntryOfItsName() {
    for (DriverCall call : DriverCall.values()) {
      CuEntry entry = CuEntry.valueOf(call.name());
      assertEquals(call, entry.call(), entry.name());
      assertTrue(
          entry.symbol().equals(call.symbol()) || call == DriverCall.MODULE_LOAD_DATA,
          entry + " binds " + entry.symbol() + ", not the call's " + call.symbol());
    }
  }

  @Test
  void everyCallIsServedByOneEntryOnEverySupportedDriverThatHasIt() {
    for (int version : new int[] {12000, 12020, 12030, 12040, 12080, 13000, 13020}) {
      for (DriverCall call : DriverCall.values()) {
        long serving =
            Arrays.stream(CuEntry.values())
                .filter(e -> e.call() == call && e.usedWith(version))
                .count();
        int expected = version < NEWER_CALLS.getOrDefault(call, 0) ? 0 : 1;
        assertEquals(expected, serving, call + " on driver " + version);
      }
    }
  }

  @Test
  void paramInfoIsBoundAndRequiredFromCuda12_4Only() {
    CuEntry entry = CuEntry.FUNC_GET_PARAM_INFO;
    assertFalse(entry.usedWith(12030));
    assertTrue(entry.usedWith(12040));
    assertTrue(entry.usedWith(13000));
    // A 12.3 driver is not asked to export it, so it stays available; the call is then skipped.
    assertFalse(CuEntry.requiredBy(12030).contains(entry));
    assertTrue(CuEntry.requiredBy(12040).contains(entry));
    assertThrows(
        IllegalArgumentException.class,
        () -> CuEntry.boundFor(DriverCall.FUNC_GET_PARAM_INFO, 12030));
    assertEquals(entry, CuEntry.boundFor(DriverCall.FUNC_GET_PARAM_INFO, 12040));
    assertNull(entry.bindingNote(), "the call's only ABI");
    // (CUfunction, size_t, size_t *, size_t *)
    assertEquals(
        List.of(JAVA_LONG, JAVA_LONG, ValueLayout.ADDRESS, ValueLayout.ADDRESS), parameters(entry));
  }

  @Test
  void theCuda12_3CallsAreBoundAndRequiredFrom12_3Only() {
    for (CuEntry entry :
        List.of(
            CuEntry.STREAM_BEGIN_CAPTURE_TO_GRAPH,
            CuEntry.STREAM_UPDATE_CAPTURE_DEPENDENCIES,
            CuEntry.GRAPH_CONDITIONAL_HANDLE_CREATE,
            CuEntry.GRAPH_ADD_NODE)) {
      assertEquals(12030, entry.firstDriver(), entry.name());
      assertFalse(entry.usedWith(12020), entry.name());
      assertTrue(entry.usedWith(12030), entry.name());
      assertTrue(entry.usedWith(13000), entry.name());
      // A 12.2 driver need not export them: the provider stays available and these calls fail.
      assertFalse(CuEntry.requiredBy(12020).contains(entry), entry.name());
      assertTrue(CuEntry.requiredBy(12030).contains(entry), entry.name());
      DriverCall call = entry.call();
      assertNotNull(call);
      assertThrows(IllegalArgumentException.class, () -> CuEntry.boundFor(call, 12020));
      assertEquals(entry, CuEntry.boundFor(call, 12030));
      assertNull(entry.bindingNote(), "the call's only ABI");
    }
    // The per-node updates are older than every supported driver, so always bound.
    for (CuEntry entry :
        List.of(
            CuEntry.GRAPH_EXEC_KERNEL_NODE_SET_PARAMS,
            CuEntry.GRAPH_EXEC_MEMCPY_NODE_SET_PARAMS,
            CuEntry.GRAPH_EXEC_MEMSET_NODE_SET_PARAMS,
            CuEntry.GRAPH_NODE_SET_ENABLED,
            CuEntry.GRAPH_NODE_GET_ENABLED,
            CuEntry.GRAPH_ADD_CHILD_GRAPH_NODE,
            CuEntry.GRAPH_EXEC_CHILD_GRAPH_NODE_SET_PARAMS)) {
      assertEquals(0, entry.firstDriver(), entry.name());
      assertTrue(CuEntry.requiredBy(CuEntry.MINIMUM_DRIVER_VERSION).contains(entry), entry.name());
    }
  }

  @Test
  void aCallNewerThanTheDriverSaysWhichDriverItNeedsAndWhatToDo() {
    assertEquals(
        "cuGraphAddNode_v2 is new in CUDA 12.3 and this NVIDIA driver supports CUDA 12.2: update"
            + " the NVIDIA driver to one supporting CUDA 12.3 or newer to use it",
        Errors.newerDriverNeeded(CuEntry.GRAPH_ADD_NODE, 12020));
    assertEquals(
        "cuFuncGetParamInfo is new in CUDA 12.4 and this NVIDIA driver supports CUDA 12.3: update"
            + " the NVIDIA driver to one supporting CUDA 12.4 or newer to use it",
        Errors.newerDriverNeeded(CuEntry.FUNC_GET_PARAM_INFO, 12030));
  }

  @Test
  void onA13DriverTheSymbolsAreTheOnesTheSpiNames() {
    EnumSet<DriverCall> different = EnumSet.noneOf(DriverCall.class);
    for (DriverCall call : DriverCall.values()) {
      if (!CuEntry.boundFor(call, 13000).symbol().equals(call.symbol())) {
        different.add(call);
      }
    }
    // The one deliberate difference: cuModuleLoadDataEx, the same load with a JIT error log.
    assertEquals(EnumSet.of(DriverCall.MODULE_LOAD_DATA), different);
    assertEquals("cuModuleLoadDataEx", CuEntry.MODULE_LOAD_DATA.symbol());
    assertEquals(CuEntry.MODULE_LOAD_DATA, CuEntry.boundFor(DriverCall.MODULE_LOAD_DATA, 13000));
  }

  @Test
  void olderDriversGetTheAbisTheyExport() {
    assertEquals(
        CuEntry.STREAM_GET_CAPTURE_INFO_V2,
        CuEntry.boundFor(DriverCall.STREAM_GET_CAPTURE_INFO, 12020));
    assertEquals(
        CuEntry.STREAM_GET_CAPTURE_INFO,
        CuEntry.boundFor(DriverCall.STREAM_GET_CAPTURE_INFO, 12030));
    assertEquals(
        CuEntry.EVENT_ELAPSED_TIME_V1, CuEntry.boundFor(DriverCall.EVENT_ELAPSED_TIME, 12060));
    assertEquals(
        CuEntry.EVENT_ELAPSED_TIME, CuEntry.boundFor(DriverCall.EVENT_ELAPSED_TIME, 12080));
    assertEquals("cuStreamGetCaptureInfo_v2", CuEntry.STREAM_GET_CAPTURE_INFO_V2.symbol());
    assertEquals("cuEventElapsedTime", CuEntry.EVENT_ELAPSED_TIME_V1.symbol());
  }

  @Test
  void onlyAnOlderAbiNamesItsSymbolInFailures() {
    assertEquals(
        "bound as cuStreamGetCaptureInfo_v2 on this driver",
        CuEntry.STREAM_GET_CAPTURE_INFO_V2.bindingNote());
    assertEquals(
        "bound as cuEventElapsedTime on this driver", CuEntry.EVENT_ELAPSED_TIME_V1.bindingNote());
    for (CuEntry entry : CuEntry.values()) {
      if (entry != CuEntry.STREAM_GET_CAPTURE_INFO_V2 && entry != CuEntry.EVENT_ELAPSED_TIME_V1) {
        assertNull(entry.bindingNote(), entry.name());
      }
    }
  }

  @Test
  void procAddressQueriesUseTheBaseNameAndTheAbisVersion() {
    for (CuEntry entry : CuEntry.values()) {
      String name = entry.symbol();
      assertFalse(entry.base().matches(".*_v[0-9]+$"), name);
      assertTrue(name.equals(entry.base()) || name.startsWith(entry.base() + "_v"), name);
      Integer expected = PFN_VERSIONS.get(name);
      if (expected != null) {
        assertEquals(expected, entry.introducedIn(), name);
      }
      assertTrue(entry.introducedIn() >= 2000 && entry.introducedIn() <= 13000, name);
    }
    // Asking for "cuGraphInstantiate" would yield the 5-argument cuGraphInstantiate_v2.
    assertEquals("cuGraphInstantiateWithFlags", CuEntry.GRAPH_INSTANTIATE.base());
    assertEquals("cuStreamGetCaptureInfo", CuEntry.STREAM_GET_CAPTURE_INFO.base());
    assertEquals("cuStreamGetCaptureInfo", CuEntry.STREAM_GET_CAPTURE_INFO_V2.base());
    assertEquals("cuGetProcAddress", CuEntry.GET_PROC_ADDRESS.base());
  }

  @Test
  void onlyProviderInternalEntriesServeNoCall() {
    for (CuEntry entry : CuEntry.values()) {
      if (entry != CuEntry.GET_PROC_ADDRESS) {
        assertNotNull(entry.call(), entry + " serves no SPI call");
      }
    }
    assertNull(CuEntry.GET_PROC_ADDRESS.call());
  }

  @Test
  void everyEntryPointReturnsACuResultAndItsConstantHandleHasTheSignaturesType() {
    for (CuEntry entry : CuEntry.values()) {
      FunctionDescriptor signature = entry.signature();
      assertEquals(Optional.of(ValueLayout.JAVA_INT), signature.returnLayout(), entry.name());
      assertEquals(signature.toMethodType(), entry.constantHandle().type(), entry.name());
      assertSame(entry.constantHandle(), entry.constantHandle(), entry + ": one per entry");
    }
  }

  @Test
  void withoutABoundLibraryNothingLinks() {
    assumeFalse(CudaLibrary.isBound(), "a library is bound: this JVM has a driver");
    IllegalStateException failure =
        assertThrows(IllegalStateException.class, () -> CuEntry.STREAM_CREATE.handle());
    assertTrue(failure.getMessage().startsWith("no CUDA driver library is bound yet"));
    MethodHandle constant = CuEntry.STREAM_QUERY.constantHandle();
    assertThrows(IllegalStateException.class, () -> invoke(constant, 0L));
    assertFalse(CudaLibrary.isBound());
  }

  private static int invoke(MethodHandle handle, long stream) throws Throwable {
    return (int) handle.invokeExact(stream);
  }

  /** Spot checks against {@code cuda.h} where a wrong width would pass silently on x86-64. */
  @Test
  void signaturesMatchTheHeaderWhereWidthsMatter() {
    assertEquals(
        List.of(JAVA_LONG, ValueLayout.JAVA_BYTE, JAVA_LONG, JAVA_LONG),
        parameters(CuEntry.MEMSET_D8_ASYNC));
    assertEquals(ValueLayout.JAVA_SHORT, parameters(CuEntry.MEMSET_D16_ASYNC).get(1));
    assertEquals(ValueLayout.JAVA_INT, parameters(CuEntry.MEMSET_D32_ASYNC).get(1));
    assertEquals(ValueLayout.JAVA_INT, parameters(CuEntry.MEMSET_D2D32_ASYNC).get(2));
    // unsigned long long flags, not unsigned int.
    assertEquals(ValueLayout.JAVA_LONG, parameters(CuEntry.GRAPH_INSTANTIATE).get(2));
    assertEquals(ValueLayout.JAVA_LONG, parameters(CuEntry.GET_PROC_ADDRESS).get(3));
    assertEquals(11, parameters(CuEntry.LAUNCH_KERNEL).size());
    // _v3 adds edgeData_out before numDependencies_out.
    assertEquals(7, parameters(CuEntry.STREAM_GET_CAPTURE_INFO).size());
    assertEquals(6, parameters(CuEntry.STREAM_GET_CAPTURE_INFO_V2).size());
    assertEquals(CuEntry.EVENT_ELAPSED_TIME.signature(), CuEntry.EVENT_ELAPSED_TIME_V1.signature());
    // The edge-data forms: (..., const CUgraphNode *, const CUgraphEdgeData *, size_t, ...).
    assertEquals(
        List.of(
            JAVA_LONG, JAVA_LONG, ValueLayout.ADDRESS, ValueLayout.ADDRESS, JAVA_LONG, JAVA_INT),
        parameters(CuEntry.STREAM_BEGIN_CAPTURE_TO_GRAPH));
    assertEquals(
        List.of(JAVA_LONG, ValueLayout.ADDRESS, ValueLayout.ADDRESS, JAVA_LONG, JAVA_INT),
        parameters(CuEntry.STREAM_UPDATE_CAPTURE_DEPENDENCIES));
    assertEquals(
        List.of(
            ValueLayout.ADDRESS,
            JAVA_LONG,
            ValueLayout.ADDRESS,
            ValueLayout.ADDRESS,
            JAVA_LONG,
            ValueLayout.ADDRESS),
        parameters(CuEntry.GRAPH_ADD_NODE));
    // (CUgraphConditionalHandle *, CUgraph, CUcontext, unsigned int, unsigned int)
    assertEquals(
        List.of(ValueLayout.ADDRESS, JAVA_LONG, JAVA_LONG, JAVA_INT, JAVA_INT),
        parameters(CuEntry.GRAPH_CONDITIONAL_HANDLE_CREATE));
    // The copy and fill updates take the context to run the node in, after the struct.
    assertEquals(4, parameters(CuEntry.GRAPH_EXEC_MEMCPY_NODE_SET_PARAMS).size());
    assertEquals(4, parameters(CuEntry.GRAPH_EXEC_MEMSET_NODE_SET_PARAMS).size());
    assertEquals(JAVA_INT, parameters(CuEntry.GRAPH_NODE_SET_ENABLED).get(2));
    // (CUgraphNode *, CUgraph, const CUgraphNode *, size_t, CUgraph): no edge data.
    assertEquals(
        List.of(ValueLayout.ADDRESS, JAVA_LONG, ValueLayout.ADDRESS, JAVA_LONG, JAVA_LONG),
        parameters(CuEntry.GRAPH_ADD_CHILD_GRAPH_NODE));
    assertEquals(
        List.of(JAVA_LONG, JAVA_LONG, JAVA_LONG),
        parameters(CuEntry.GRAPH_EXEC_CHILD_GRAPH_NODE_SET_PARAMS));
  }

  @Test
  void theMappedHostMemoryCallsTakeTheirFlagsAsAnIntAndTheHostPointerAsAnAddress() {
    // (void **pp, size_t bytesize, unsigned int Flags)
    assertEquals(
        List.of(ValueLayout.ADDRESS, JAVA_LONG, JAVA_INT), parameters(CuEntry.MEM_HOST_ALLOC));
    // (CUdeviceptr *pdptr, void *p, unsigned int Flags): p passed as a long, as cuMemFreeHost's.
    assertEquals(
        List.of(ValueLayout.ADDRESS, JAVA_LONG, JAVA_INT),
        parameters(CuEntry.MEM_HOST_GET_DEVICE_POINTER));
    assertEquals(List.of(JAVA_LONG), parameters(CuEntry.MEM_FREE_HOST));
    for (CuEntry entry : List.of(CuEntry.MEM_HOST_ALLOC, CuEntry.MEM_HOST_GET_DEVICE_POINTER)) {
      assertEquals(0, entry.firstDriver(), entry + " is older than every supported driver");
      assertNull(entry.bindingNote(), "the ABI cuda.h names");
    }
  }

  @Test
  void theGraphMemoryCallsTakeTheDeviceAsAnIntAndTheirValueByPointer() {
    // (CUdevice, CUgraphMem_attribute, void *): a cuuint64_t read or written through the pointer.
    for (CuEntry entry :
        List.of(CuEntry.DEVICE_GET_GRAPH_MEM_ATTRIBUTE, CuEntry.DEVICE_SET_GRAPH_MEM_ATTRIBUTE)) {
      assertEquals(
          List.of(JAVA_INT, JAVA_INT, ValueLayout.ADDRESS), parameters(entry), entry.name());
      assertEquals(0, entry.firstDriver(), entry + " is older than every supported driver");
    }
    assertEquals(List.of(JAVA_INT), parameters(CuEntry.DEVICE_GRAPH_MEM_TRIM));
  }

  private static List<MemoryLayout> parameters(CuEntry entry) {
    return entry.signature().argumentLayouts();
  }
}
