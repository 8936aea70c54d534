// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 the cuda-graph authors
package cuda.graph.driver.internal;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import cuda.graph.spi.CaptureInfo;
import cuda.graph.spi.CaptureMode;
import cuda.graph.spi.CaptureStatus;
import cuda.graph.spi.CuGraph;
import cuda.graph.spi.CuGraphExec;
import cuda.graph.spi.CuGraphNode;
import cuda.graph.spi.CuResult;
import cuda.graph.spi.CuStream;
import cuda.graph.spi.CudaDriverException;
import cuda.graph.spi.DriverCall;
import cuda.graph.spi.GraphExecUpdateException;
import cuda.graph.spi.GraphInstantiateFlags;
import cuda.graph.spi.GraphNodeType;
import cuda.graph.spi.StreamFlags;
import java.io.IOException;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Stream capture, graph introspection, instantiate, upload, launch and whole-graph update. */
@Tag("gpu")
class CaptureGraphGpuTests extends GpuTest {

  private static final int N = 1024;
  private static final long BYTES = N * 4L;

  private CuStream stream;
  private long device;
  private MemorySegment pinned;

  @BeforeEach
  void setUp() {
    // Capture only on non-blocking streams: a blocking one is invalidated by any legacy-stream use.
    stream = driver.streamCreate(StreamFlags.NON_BLOCKING);
    device = driver.memAlloc(BYTES);
    pinned = driver.memAllocHost(BYTES);
    driver.memsetD32Async(device, 0, N, stream);
    driver.streamSynchronize(stream);
  }

  @AfterEach
  void tearDown() {
    if (driver.streamIsCapturing(stream) != CaptureStatus.NONE) {
      // A failed test must not leave the stream capturing.
      try {
        CuGraph graph = driver.streamEndCapture(stream);
        if (graph != null) {
          driver.graphDestroy(graph);
        }
      } catch (CudaDriverException invalidated) {
        // Ending an invalidated capture fails with 901 and still takes the stream out of capture.
        assertEquals(CuResult.STREAM_CAPTURE_INVALIDATED, invalidated.status());
      }
    }
    driver.streamSynchronize(stream);
    driver.memFree(device);
    driver.memFreeHost(pinned);
    driver.streamDestroy(stream);
  }

  @Test
  void captureRecordsWorkThatTheGraphThenRuns(@TempDir Path dir) throws IOException {
    long copy = driver.memAlloc(BYTES);
    try {
      pinned.fill((byte) 0xFF);
      driver.streamBeginCapture(stream, CaptureMode.GLOBAL);
      assertEquals(CaptureStatus.ACTIVE, driver.streamIsCapturing(stream));
      CaptureInfo started = driver.streamGetCaptureInfo(stream);
      assertEquals(CaptureStatus.ACTIVE, started.status());
      assertNotEquals(0, started.id());
      assertNotNull(started.graph());
      assertEquals(List.of(), started.dependencies());

      driver.memsetD32Async(device, 5, N, stream);
      kernels.add(stream, device, 10, N);
      driver.memcpyDtoDAsync(copy, device, BYTES, stream);
      driver.memcpyDtoHAsync(pinned, copy, BYTES, stream);
      CaptureInfo middle = driver.streamGetCaptureInfo(stream);
      assertEquals(started.id(), middle.id());
      assertEquals(1, middle.dependencies().size(), "a sequential capture is a chain");

      CuGraph graph = driver.streamEndCapture(stream);
      assertNotNull(graph);
      assertEquals(CaptureStatus.NONE, driver.streamIsCapturing(stream));
      CaptureInfo ended = driver.streamGetCaptureInfo(stream);
      assertEquals(new CaptureInfo(CaptureStatus.NONE, 0, null, List.of()), ended);
      driver.streamSynchronize(stream);
      assertEquals(-1, pinned.getAtIndex(ValueLayout.JAVA_INT, 0), "captured work did not run");

      List<CuGraphNode> nodes = driver.graphGetNodes(graph);
      assertEquals(
          List.of(
              GraphNodeType.MEMSET,
              GraphNodeType.KERNEL,
              GraphNodeType.MEMCPY,
              GraphNodeType.MEMCPY),
          nodes.stream().map(driver::graphNodeGetType).toList());
      assertEquals(List.of(nodes.get(3)), middle.dependencies(), "the copy to the host was last");

      Path dot = dir.resolve("capture.dot");
      driver.graphDebugDotPrint(graph, dot, 1);
      assertTrue(Files.readString(dot).contains("digraph"), "a Graphviz file");

      CuGraphExec exec = driver.graphInstantiate(graph, 0);
      driver.graphDestroy(graph); // an exec is a snapshot; it outlives its graph
      driver.graphUpload(exec, stream);
      for (int launch = 0; launch < 2; launch++) {
        pinned.fill((byte) 0);
        driver.graphLaunch(exec, stream);
        driver.streamSynchronize(stream);
        for (int i = 0; i < N; i++) {
          assertEquals(
              15, pinned.getAtIndex(ValueLayout.JAVA_INT, i), "launch " + launch + ", word " + i);
        }
      }
      driver.graphExecDestroy(exec);
    } finally {
      driver.memFree(copy);
    }
  }

  @Test
  void synchronizingACapturingStreamInvalidatesTheCapture() {
    driver.streamBeginCapture(stream, CaptureMode.GLOBAL);
    kernels.fill(stream, device, 1, N);
    CudaDriverException conflict =
        assertThrows(CudaDriverException.class, () -> driver.streamSynchronize(stream));
    assertEquals(CuResult.STREAM_CAPTURE_UNSUPPORTED, conflict.status());
    assertEquals(CaptureStatus.INVALIDATED, driver.streamIsCapturing(stream));
    assertEquals(CaptureStatus.INVALIDATED, driver.streamGetCaptureInfo(stream).status());
    CudaDriverException later =
        assertThrows(CudaDriverException.class, () -> kernels.fill(stream, device, 2, N));
    assertEquals(CuResult.STREAM_CAPTURE_INVALIDATED, later.status());
    CudaDriverException end =
        assertThrows(CudaDriverException.class, () -> driver.streamEndCapture(stream));
    assertEquals(CuResult.STREAM_CAPTURE_INVALIDATED, end.status());
    assertEquals(DriverCall.STREAM_END_CAPTURE, end.call());
    assertEquals(CaptureStatus.NONE, driver.streamIsCapturing(stream));
  }

  @Test
  void captureStateErrors() {
    for (CuStream legacy : new CuStream[] {CuStream.NULL, CuStream.LEGACY}) {
      CudaDriverException failure =
          assertThrows(
              CudaDriverException.class,
              () -> driver.streamBeginCapture(legacy, CaptureMode.GLOBAL));
      assertEquals(CuResult.STREAM_CAPTURE_UNSUPPORTED, failure.status(), legacy.toString());
    }
    CudaDriverException idle =
        assertThrows(CudaDriverException.class, () -> driver.streamEndCapture(stream));
    assertEquals(CuResult.ILLEGAL_STATE, idle.status());
    driver.streamBeginCapture(stream, CaptureMode.THREAD_LOCAL);
    CudaDriverException twice =
        assertThrows(
            CudaDriverException.class, () -> driver.streamBeginCapture(stream, CaptureMode.GLOBAL));
    assertEquals(CuResult.ILLEGAL_STATE, twice.status());
    CuGraph empty = driver.streamEndCapture(stream);
    assertNotNull(empty);
    assertEquals(List.of(), driver.graphGetNodes(empty));
    driver.graphDestroy(empty);
  }

  @Test
  void theThreadCaptureModeIsExchanged() {
    CaptureMode previous = driver.threadExchangeStreamCaptureMode(CaptureMode.RELAXED);
    assertEquals(
        CaptureMode.RELAXED, driver.threadExchangeStreamCaptureMode(CaptureMode.THREAD_LOCAL));
    assertEquals(CaptureMode.THREAD_LOCAL, driver.threadExchangeStreamCaptureMode(previous));
  }

  @Test
  void anExecTakesTheParametersOfATopologicallyIdenticalGraph() {
    CuGraph original = captureFills(1);
    CuGraphExec exec = driver.graphInstantiate(original, 0);
    driver.graphDestroy(original);
    try {
      assertFills(exec, 1);
      CuGraph sameShape = captureFills(2);
      driver.graphExecUpdate(exec, sameShape);
      driver.graphDestroy(sameShape);
      assertFills(exec, 2);

      CuGraph longer = captureFills(3, 4);
      GraphExecUpdateException topology =
          assertThrows(GraphExecUpdateException.class, () -> driver.graphExecUpdate(exec, longer));
      assertEquals(CuResult.GRAPH_EXEC_UPDATE_FAILURE, topology.status());
      assertEquals(GraphExecUpdateException.TOPOLOGY_CHANGED, topology.updateResult());
      driver.graphDestroy(longer);
      assertFills(exec, 2); // a failed update leaves the exec unchanged

      CuGraph memset = capture(() -> driver.memsetD32Async(device, 9, N, stream));
      GraphExecUpdateException type =
          assertThrows(GraphExecUpdateException.class, () -> driver.graphExecUpdate(exec, memset));
      assertEquals(GraphExecUpdateException.NODE_TYPE_CHANGED, type.updateResult());
      assertEquals(driver.graphGetNodes(memset).getFirst(), type.errorNode());
      driver.graphDestroy(memset);
    } finally {
      driver.graphExecDestroy(exec);
    }
  }

  @Test
  void emptyGraphsInstantiateAndLaunch() {
    CuGraph graph = driver.graphCreate(0);
    assertEquals(List.of(), driver.graphGetNodes(graph));
    CuGraphExec exec = driver.graphInstantiate(graph, 0);
    driver.graphLaunch(exec, stream);
    driver.streamSynchronize(stream);
    driver.graphExecDestroy(exec);
    CudaDriverException upload =
        assertThrows(
            CudaDriverException.class,
            () -> driver.graphInstantiate(graph, GraphInstantiateFlags.UPLOAD));
    assertEquals(
        CuResult.INVALID_VALUE, upload.status(), "UPLOAD needs cuGraphInstantiateWithParams");
    driver.graphDestroy(graph);
    CudaDriverException flags =
        assertThrows(CudaDriverException.class, () -> driver.graphCreate(1));
    assertEquals(CuResult.INVALID_VALUE, flags.status());
  }

  @Test
  void aCapturedHostFunctionRunsOncePerLaunch() {
    AtomicInteger runs = new AtomicInteger();
    CuGraph graph = capture(() -> driver.launchHostFunc(stream, runs::incrementAndGet));
    assertEquals(0, runs.get(), "not run at capture");
    assertEquals(
        List.of(GraphNodeType.HOST),
        driver.graphGetNodes(graph).stream().map(driver::graphNodeGetType).toList());
    CuGraphExec exec = driver.graphInstantiate(graph, 0);
    for (int i = 0; i < 3; i++) {
      driver.graphLaunch(exec, stream);
    }
    driver.streamSynchronize(stream);
    assertEquals(3, runs.get());
    driver.graphExecDestroy(exec);
    driver.graphDestroy(graph);
  }

  @Test
  void streamOrderedAllocationsInACaptureBecomeMemoryNodes() {
    CuGraph graph =
        capture(
            () -> {
              long scratch = driver.memAllocAsync(BYTES, stream);
              driver.memsetD32Async(scratch, 3, N, stream);
              driver.memcpyDtoDAsync(device, scratch, BYTES, stream);
              driver.memFreeAsync(scratch, stream);
            });
    assertEquals(
        List.of(
            GraphNodeType.MEM_ALLOC,
            GraphNodeType.MEMSET,
            GraphNodeType.MEMCPY,
            GraphNodeType.MEM_FREE),
        driver.graphGetNodes(graph).stream().map(driver::graphNodeGetType).toList());
    CuGraphExec exec = driver.graphInstantiate(graph, 0);
    driver.graphLaunch(exec, stream);
    driver.memcpyDtoHAsync(pinned, device, BYTES, stream);
    driver.streamSynchronize(stream);
    assertEquals(3, pinned.getAtIndex(ValueLayout.JAVA_INT, N - 1));
    driver.graphExecDestroy(exec);
    driver.graphDestroy(graph);
  }

  @Test
  void anUnwritableDotPathIsAnOperatingSystemError() {
    CuGraph graph = driver.graphCreate(0);
    try {
      CudaDriverException failure =
          assertThrows(
              CudaDriverException.class,
              () -> driver.graphDebugDotPrint(graph, Path.of("/nonexistent-dir/graph.dot"), 0));
      assertEquals(CuResult.OPERATING_SYSTEM, failure.status());
      assertTrue(failure.getMessage().contains("/nonexistent-dir/graph.dot"), failure.getMessage());
    } finally {
      driver.graphDestroy(graph);
    }
  }

  private CuGraph captureFills(int... values) {
    return capture(
        () -> {
          for (int value : values) {
            kernels.fill(stream, device, value, N);
          }
        });
  }

  private CuGraph capture(Runnable work) {
    driver.streamBeginCapture(stream, CaptureMode.GLOBAL);
    work.run();
    CuGraph graph = driver.streamEndCapture(stream);
    assertNotNull(graph);
    return graph;
  }

  private void assertFills(CuGraphExec exec, int expected) {
    driver.graphLaunch(exec, stream);
    driver.memcpyDtoHAsync(pinned, device, BYTES, stream);
    driver.streamSynchronize(stream);
    for (int i = 0; i < N; i += 97) {
      assertEquals(expected, pinned.getAtIndex(ValueLayout.JAVA_INT, i), "word " + i);
    }
  }
}
