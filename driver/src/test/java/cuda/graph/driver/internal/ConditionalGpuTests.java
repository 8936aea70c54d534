// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 the cuda-graph authors
package cuda.graph.driver.internal;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeFalse;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import cuda.graph.spi.CaptureInfo;
import cuda.graph.spi.CaptureMode;
import cuda.graph.spi.CaptureStatus;
import cuda.graph.spi.ConditionalHandle;
import cuda.graph.spi.ConditionalNode;
import cuda.graph.spi.ConditionalType;
import cuda.graph.spi.CuFunction;
import cuda.graph.spi.CuGraph;
import cuda.graph.spi.CuGraphExec;
import cuda.graph.spi.CuModule;
import cuda.graph.spi.CuResult;
import cuda.graph.spi.CuStream;
import cuda.graph.spi.CudaDriver;
import cuda.graph.spi.CudaDriverException;
import cuda.graph.spi.DriverCall;
import cuda.graph.spi.GraphNodeType;
import cuda.graph.spi.KernelArguments;
import cuda.graph.spi.ModuleImage;
import cuda.graph.spi.StreamFlags;
import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.util.List;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.function.Executable;

/**
 * Conditional nodes on the real driver, built the way the CUDA programming guide builds them in a
 * stream capture: the capture's graph and dependencies from {@code cuStreamGetCaptureInfo}, a
 * handle and a conditional node added to that graph, the capture's dependencies moved to the node,
 * and the body captured into the node's body graph from a second stream. The body kernels of {@code
 * src/test/cuda/conditional.cu} set the condition with {@code cudaGraphSetConditional}.
 */
@Tag("gpu")
class ConditionalGpuTests extends GpuTest {

  private static final int N = 1024;
  private static final long BYTES = N * 4L;

  /** The conditional kernels, loaded only where the driver has conditional nodes (CUDA 12.3). */
  private static CuModule module;

  private static CuFunction countIterations;
  private static CuFunction setCondition;

  private CuStream stream;
  private CuStream bodyStream;
  private long device;
  private MemorySegment pinned;

  @BeforeAll
  static void loadConditionalKernels() {
    if (hasConditionalNodes()) {
      module = driver.moduleLoadData(ModuleImage.ptx(TestKernels.ptx("conditional.ptx")));
      countIterations = driver.moduleGetFunction(module, "count_iterations");
      setCondition = driver.moduleGetFunction(module, "set_condition");
    }
  }

  @AfterAll
  static void unloadConditionalKernels() {
    if (module != null) {
      gpu.bind();
      driver.moduleUnload(module);
      module = null;
    }
  }

  @BeforeEach
  void setUp() {
    stream = driver.streamCreate(StreamFlags.NON_BLOCKING);
    bodyStream = driver.streamCreate(StreamFlags.NON_BLOCKING);
    device = driver.memAlloc(BYTES);
    pinned = driver.memAllocHost(BYTES);
  }

  @AfterEach
  void tearDown() {
    for (CuStream capturing : List.of(bodyStream, stream)) {
      if (driver.streamIsCapturing(capturing) != CaptureStatus.NONE) {
        // A failed test must not leave a stream capturing; the graph goes with the test's own.
        try {
          CuGraph graph = driver.streamEndCapture(capturing);
          if (graph != null && capturing == stream) {
            driver.graphDestroy(graph);
          }
        } catch (CudaDriverException invalidated) {
          assertEquals(CuResult.STREAM_CAPTURE_INVALIDATED, invalidated.status());
        }
      }
    }
    driver.streamSynchronize(stream);
    driver.memFree(device);
    driver.memFreeHost(pinned);
    driver.streamDestroy(bodyStream);
    driver.streamDestroy(stream);
  }

  @Test
  void aWhileNodeRunsItsBodyUntilTheBodyClearsTheCondition() {
    assumeTrue(hasConditionalNodes(), "the driver is older than CUDA 12.3");
    int limit = 7;
    driver.streamBeginCapture(stream, CaptureMode.GLOBAL);
    driver.memsetD32Async(device, 0, 1, stream); // each launch counts from 0
    CaptureInfo capture = driver.streamGetCaptureInfo(stream);
    CuGraph graph = capture.graph();
    assertNotNull(graph);
    // Condition 1 at the start of every launch, so the body runs at least once per launch.
    ConditionalHandle handle =
        driver.graphConditionalHandleCreate(graph, 1, ConditionalHandle.ASSIGN_DEFAULT);
    ConditionalNode loop =
        driver.graphAddConditionalNode(
            graph, capture.dependencies(), handle, ConditionalType.WHILE, 1);
    assertEquals(1, loop.bodies().size());
    driver.streamUpdateCaptureDependencies(
        stream, List.of(loop.node()), CudaDriver.SET_CAPTURE_DEPENDENCIES);
    assertEquals(List.of(loop.node()), driver.streamGetCaptureInfo(stream).dependencies());

    CuGraph body = loop.bodies().getFirst();
    driver.streamBeginCaptureToGraph(bodyStream, body, List.of(), CaptureMode.GLOBAL);
    try (Arena arena = Arena.ofConfined()) {
      KernelArguments args = KernelArguments.allocate(arena, 8, 8, 4);
      args.setI64(0, handle.value());
      args.setI64(1, device);
      args.setI32(2, limit);
      driver.launchKernel(countIterations, 1, 1, 1, 1, 1, 1, 0, bodyStream, args);
    }
    assertEquals(body, driver.streamEndCapture(bodyStream), "the graph captured into");

    driver.memcpyDtoHAsync(pinned, device, 4, stream);
    CuGraph captured = driver.streamEndCapture(stream);
    assertEquals(graph, captured);
    assertEquals(
        List.of(GraphNodeType.MEMSET, GraphNodeType.CONDITIONAL, GraphNodeType.MEMCPY),
        types(captured));
    assertEquals(List.of(GraphNodeType.KERNEL), types(body));

    CuGraphExec exec = driver.graphInstantiate(captured, 0);
    try {
      for (int launch = 0; launch < 3; launch++) {
        pinned.set(ValueLayout.JAVA_INT, 0, -1);
        driver.graphLaunch(exec, stream);
        driver.streamSynchronize(stream);
        assertEquals(limit, pinned.get(ValueLayout.JAVA_INT, 0), "iterations, launch " + launch);
      }
    } finally {
      driver.graphExecDestroy(exec);
      driver.graphDestroy(captured); // the body graphs go with their node
    }
  }

  @Test
  void anIfNodeRunsItsBodyOnlyWhenTheConditionIsSet() {
    assumeTrue(hasConditionalNodes(), "the driver is older than CUDA 12.3");
    assertEquals(5, launchIf(0, 5, 9), "condition 0: the body did not run");
    assertEquals(9, launchIf(1, 5, 9), "condition 1: the body ran");
  }

  @Test
  void onADriverOlderThan12_3TheConditionalCallsAreNotSupported() {
    assumeFalse(hasConditionalNodes(), "the driver has conditional nodes");
    CuGraph graph = driver.graphCreate(0);
    try {
      ConditionalHandle handle = new ConditionalHandle(1);
      assertNotSupported(
          DriverCall.GRAPH_CONDITIONAL_HANDLE_CREATE,
          () -> driver.graphConditionalHandleCreate(graph, 0, 0));
      assertNotSupported(
          DriverCall.GRAPH_ADD_NODE,
          () -> driver.graphAddConditionalNode(graph, List.of(), handle, ConditionalType.IF, 1));
      assertNotSupported(
          DriverCall.STREAM_BEGIN_CAPTURE_TO_GRAPH,
          () -> driver.streamBeginCaptureToGraph(stream, graph, List.of(), CaptureMode.GLOBAL));
      assertNotSupported(
          DriverCall.STREAM_UPDATE_CAPTURE_DEPENDENCIES,
          () ->
              driver.streamUpdateCaptureDependencies(
                  stream, List.of(), CudaDriver.SET_CAPTURE_DEPENDENCIES));
      assertEquals(CaptureStatus.NONE, driver.streamIsCapturing(stream), "nothing was called");
    } finally {
      driver.graphDestroy(graph);
    }
  }

  /**
   * Captures and launches: fill with {@code before}, set the condition to {@code condition}, an IF
   * node whose body fills with {@code inBody}; {@return the first word afterwards}
   */
  private int launchIf(int condition, int before, int inBody) {
    driver.streamBeginCapture(stream, CaptureMode.GLOBAL);
    kernels.fill(stream, device, before, N);
    CaptureInfo capture = driver.streamGetCaptureInfo(stream);
    CuGraph graph = capture.graph();
    assertNotNull(graph);
    // Without ASSIGN_DEFAULT the value would carry over between launches; set_condition sets it.
    ConditionalHandle handle = driver.graphConditionalHandleCreate(graph, 0, 0);
    try (Arena arena = Arena.ofConfined()) {
      KernelArguments args = KernelArguments.allocate(arena, 8, 4);
      args.setI64(0, handle.value());
      args.setI32(1, condition);
      driver.launchKernel(setCondition, 1, 1, 1, 1, 1, 1, 0, stream, args);
    }
    ConditionalNode branch =
        driver.graphAddConditionalNode(
            graph,
            driver.streamGetCaptureInfo(stream).dependencies(),
            handle,
            ConditionalType.IF,
            1);
    driver.streamUpdateCaptureDependencies(
        stream, List.of(branch.node()), CudaDriver.SET_CAPTURE_DEPENDENCIES);
    driver.streamBeginCaptureToGraph(
        bodyStream, branch.bodies().getFirst(), List.of(), CaptureMode.GLOBAL);
    kernels.fill(bodyStream, device, inBody, N);
    driver.streamEndCapture(bodyStream);
    driver.memcpyDtoHAsync(pinned, device, BYTES, stream);
    CuGraph captured = driver.streamEndCapture(stream);
    assertNotNull(captured);
    assertEquals(
        List.of(
            GraphNodeType.KERNEL,
            GraphNodeType.KERNEL,
            GraphNodeType.CONDITIONAL,
            GraphNodeType.MEMCPY),
        types(captured));
    CuGraphExec exec = driver.graphInstantiate(captured, 0);
    try {
      driver.graphLaunch(exec, stream);
      driver.streamSynchronize(stream);
      int first = pinned.getAtIndex(ValueLayout.JAVA_INT, 0);
      assertEquals(first, pinned.getAtIndex(ValueLayout.JAVA_INT, N - 1), "all words alike");
      return first;
    } finally {
      driver.graphExecDestroy(exec);
      driver.graphDestroy(captured);
    }
  }

  private static List<GraphNodeType> types(CuGraph graph) {
    return driver.graphGetNodes(graph).stream().map(driver::graphNodeGetType).toList();
  }

  private static void assertNotSupported(DriverCall call, Executable action) {
    CudaDriverException failure = assertThrows(CudaDriverException.class, action);
    assertEquals(CuResult.NOT_SUPPORTED, failure.status(), call.symbol());
    assertEquals(call, failure.call());
    assertTrue(
        failure.getMessage().contains("is new in CUDA 12.3")
            && failure.getMessage().contains("update the NVIDIA driver"),
        failure.getMessage());
  }

  private static boolean hasConditionalNodes() {
    return DriverAbi.binds(CuEntry.GRAPH_ADD_NODE);
  }
}
