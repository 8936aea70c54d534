// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 the cuda-graph authors
package cuda.graph;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import cuda.graph.spi.CuResult;
import cuda.graph.spi.CuStream;
import cuda.graph.spi.DriverCall;
import cuda.graph.spi.HandleKind;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicReference;
import org.jspecify.annotations.Nullable;
import org.junit.jupiter.api.Test;

/**
 * A foreign node recorded with {@code Scope.recordNode} is one child-graph node: its work, however
 * many driver nodes it enqueues, is captured into a graph of its own that the node runs, and {@code
 * CudaGraph.replaceNode} gives the node the work of a foreign node of the same shape. "Another
 * library" here is the simulated driver itself, called with the raw stream and the declared
 * addresses; its fills are the work's driver nodes.
 */
class ForeignNodeReplacementTests extends InstrumentedPlatformFixture {

  private final AtomicInteger workCalls = new AtomicInteger();

  private DeviceBuffer<Integer> ints(int length) {
    return DeviceBuffer.zeros(ElementType.I32, length).syncOn(stream);
  }

  private int[] read(DeviceBuffer<Integer> buffer) {
    return buffer.toIntArray().syncOn(stream);
  }

  /** Foreign work that fills the first {@code count} elements of {@code buffer} with value. */
  private GraphNode<@Nullable Void> fill(DeviceBuffer<Integer> buffer, int value, long count) {
    return GraphNode.foreign(
        "fill",
        List.of(buffer),
        s -> {
          workCalls.incrementAndGet();
          simulator.memsetD32Async(s.address(buffer), value, count, new CuStream(s.handle()));
        });
  }

  private GraphNode<@Nullable Void> fill(DeviceBuffer<Integer> buffer, int value) {
    return fill(buffer, value, buffer.length());
  }

  /**
   * Foreign work of the same name but another shape, as a library call may enqueue other work for
   * other arguments: two fills, one per half of {@code buffer}.
   */
  private GraphNode<@Nullable Void> twoFills(DeviceBuffer<Integer> buffer, int value) {
    long half = buffer.length() / 2;
    return GraphNode.foreign(
        "fill",
        List.of(buffer),
        s -> {
          workCalls.incrementAndGet();
          CuStream raw = new CuStream(s.handle());
          simulator.memsetD32Async(s.address(buffer), value, half, raw);
          simulator.memsetD32Async(s.address(buffer) + 4 * half, value, half, raw);
        });
  }

  private long liveGraphs() {
    return simulator.ledger().live(HandleKind.GRAPH);
  }

  private long calls(DriverCall call) {
    return simulator.calls().count(call);
  }

  @Test
  void aRecordedForeignNodeIsOneChildGraphNodeOrderedBetweenTheWorkAroundIt() {
    DeviceBuffer<Integer> a = ints(4);
    DeviceBuffer<Integer> b = ints(4);
    AtomicReference<@Nullable RecordedNode> node = new AtomicReference<>();
    try (CudaGraph<@Nullable Void> graph =
        CudaGraph.scope(
            stream,
            scope -> {
              scope.record(a.fill(1));
              node.set(scope.recordNode(twoFills(a.slice(0, 2), 7)));
              scope.record(b.copyFrom(a));
            })) {
      assertEquals(NodeKind.CHILD_GRAPH, node.get().kind());
      assertEquals(List.of(NodeKind.FILL, NodeKind.CHILD_GRAPH, NodeKind.COPY), graph.nodeKinds());
      assertEquals(1, liveGraphs(), "the scratch graph the work was captured into is destroyed");

      graph.launch().syncOn(stream);

      assertArrayEquals(new int[] {7, 7, 1, 1}, read(b));
      assertEquals(1, workCalls.get(), "the work ran once, when it was recorded");
    }
    a.close();
    b.close();
  }

  @Test
  void aGraphKeepsTheRecordedForeignNodesBuffersUntilItIsClosed() {
    DeviceBuffer<Integer> a = ints(4);
    try (CudaGraph<@Nullable Void> graph =
        CudaGraph.scope(stream, scope -> scope.recordNode(fill(a, 3)))) {
      long live = liveDeviceMemory();
      a.close();
      assertEquals(live, liveDeviceMemory(), "the graph leases the declared buffer");
      graph.launch().syncOn(stream);
    }
    KernelFixtures.awaitTrue(
        () -> liveDeviceMemory() == 0,
        Duration.ofSeconds(10),
        "the buffer is freed with the graph");
  }

  /**
   * The node takes the replacement's work for launches executed afterwards; a launch enqueued
   * before still writes the old buffer, which is given back once that launch is done.
   */
  @Test
  void aReplacementWritesItsBuffersOnLaterLaunchesAndTheOldBufferGoesBackAfterEarlierLaunches() {
    DeviceBuffer<Integer> a = ints(4);
    DeviceBuffer<Integer> b = ints(4);
    AtomicReference<@Nullable RecordedNode> node = new AtomicReference<>();
    try (CudaGraph<@Nullable Void> graph =
        CudaGraph.scope(stream, scope -> node.set(scope.recordNode(fill(a, 5))))) {
      CountDownLatch gate = new CountDownLatch(1);
      CompletableFuture<@Nullable Void> earlier =
          KernelFixtures.hold(gate).andThen(graph.launch()).asyncOn(stream);
      long setParams = calls(DriverCall.GRAPH_EXEC_CHILD_GRAPH_NODE_SET_PARAMS);

      graph.replaceNode(node.get(), fill(b, 6));
      long live = liveDeviceMemory();
      a.close();
      long whileEarlierLaunchPending = liveDeviceMemory();
      gate.countDown();
      earlier.join();
      KernelFixtures.awaitTrue(
          () -> liveDeviceMemory() == live - 1,
          Duration.ofSeconds(10),
          "the old buffer is freed once the earlier launch is done");
      graph.launch().syncOn(stream);

      assertEquals(setParams + 1, calls(DriverCall.GRAPH_EXEC_CHILD_GRAPH_NODE_SET_PARAMS));
      assertEquals(live, whileEarlierLaunchPending, "the earlier launch still leases it");
      assertArrayEquals(new int[] {6, 6, 6, 6}, read(b));
      assertEquals(1, liveGraphs(), "the replacement's scratch graph is destroyed");
    }
    b.close();
  }

  @Test
  void aForeignNodeOfAnotherNameIsRefusedBeforeItsWorkIsCaptured() {
    DeviceBuffer<Integer> a = ints(4);
    DeviceBuffer<Integer> b = ints(4);
    AtomicReference<@Nullable RecordedNode> node = new AtomicReference<>();
    try (CudaGraph<@Nullable Void> graph =
        CudaGraph.scope(stream, scope -> node.set(scope.recordNode(fill(a, 5))))) {
      int work = workCalls.get();
      GraphNode<@Nullable Void> other =
          GraphNode.foreign(
              "clear",
              List.of(b),
              s -> simulator.memsetD32Async(s.address(b), 0, 4, new CuStream(s.handle())));
      IllegalArgumentException refused =
          assertThrows(IllegalArgumentException.class, () -> graph.replaceNode(node.get(), other));
      assertTrue(refused.getMessage().contains("\"clear\""), refused.getMessage());
      assertEquals(work, workCalls.get(), "no work captured");
      assertEquals(1, liveGraphs(), "no scratch graph made");
      graph.launch().syncOn(stream);
      assertArrayEquals(new int[] {5, 5, 5, 5}, read(a));
    }
    a.close();
    b.close();
  }

  @Test
  void aReplacementOfAnotherShapeIsRefusedBeforeAnyDriverChangeAndChangesNothing() {
    DeviceBuffer<Integer> a = ints(4);
    DeviceBuffer<Integer> b = ints(4);
    AtomicReference<@Nullable RecordedNode> node = new AtomicReference<>();
    try (CudaGraph<@Nullable Void> graph =
        CudaGraph.scope(stream, scope -> node.set(scope.recordNode(fill(a, 5))))) {
      long setParams = calls(DriverCall.GRAPH_EXEC_CHILD_GRAPH_NODE_SET_PARAMS);

      IllegalArgumentException refused =
          assertThrows(
              IllegalArgumentException.class, () -> graph.replaceNode(node.get(), twoFills(b, 6)));
      long live = liveDeviceMemory();
      b.close();

      assertTrue(refused.getMessage().contains("[MEMSET]"), refused.getMessage());
      assertTrue(refused.getMessage().contains("[MEMSET, MEMSET]"), refused.getMessage());
      assertTrue(refused.getMessage().contains("same shape and plan"), refused.getMessage());
      assertTrue(refused.getMessage().contains("recapture"), refused.getMessage());
      assertEquals(setParams, calls(DriverCall.GRAPH_EXEC_CHILD_GRAPH_NODE_SET_PARAMS));
      assertEquals(live - 1, liveDeviceMemory(), "the refused replacement's buffer is given back");
      assertEquals(1, liveGraphs(), "the replacement's scratch graph is destroyed");
      graph.launch().syncOn(stream);
      assertArrayEquals(new int[] {5, 5, 5, 5}, read(a), "the node still writes the old buffer");
    }
    a.close();
  }

  @Test
  void aForeignNodeAndAKernelCopyOrFillDoNotReplaceEachOther() {
    DeviceBuffer<Integer> a = ints(4);
    DeviceBuffer<Integer> b = ints(4);
    AtomicReference<@Nullable RecordedNode> foreign = new AtomicReference<>();
    AtomicReference<@Nullable RecordedNode> plainFill = new AtomicReference<>();
    try (CudaGraph<@Nullable Void> graph =
        CudaGraph.scope(
            stream,
            scope -> {
              foreign.set(scope.recordNode(fill(a, 5)));
              plainFill.set(scope.recordNode(b.fill(2)));
            })) {
      int recorded = workCalls.get();

      IllegalArgumentException byFill =
          assertThrows(
              IllegalArgumentException.class, () -> graph.replaceNode(foreign.get(), b.fill(3)));
      IllegalArgumentException byForeign =
          assertThrows(
              IllegalArgumentException.class, () -> graph.replaceNode(plainFill.get(), fill(b, 3)));

      assertTrue(byFill.getMessage().contains("foreign node fill"), byFill.getMessage());
      assertTrue(byForeign.getMessage().contains("a foreign node"), byForeign.getMessage());
      assertEquals(recorded, workCalls.get(), "a refused foreign replacement's work never runs");
      graph.launch().syncOn(stream);
      assertArrayEquals(new int[] {5, 5, 5, 5}, read(a));
      assertArrayEquals(new int[] {2, 2, 2, 2}, read(b));
    }
    a.close();
    b.close();
  }

  @Test
  void aForeignNodeCannotBeSwitchedOffNorAskedAboutAndNoDriverCallIsMade() {
    DeviceBuffer<Integer> a = ints(4);
    AtomicReference<@Nullable RecordedNode> node = new AtomicReference<>();
    try (CudaGraph<@Nullable Void> graph =
        CudaGraph.scope(stream, scope -> node.set(scope.recordNode(fill(a, 5))))) {
      long set = calls(DriverCall.GRAPH_NODE_SET_ENABLED);
      long get = calls(DriverCall.GRAPH_NODE_GET_ENABLED);

      IllegalArgumentException off =
          assertThrows(IllegalArgumentException.class, () -> graph.setEnabled(node.get(), false));
      IllegalArgumentException ask =
          assertThrows(IllegalArgumentException.class, () -> graph.isEnabled(node.get()));

      assertTrue(off.getMessage().contains("cuGraphNodeSetEnabled"), off.getMessage());
      assertTrue(off.getMessage().contains("recapture the graph without"), off.getMessage());
      assertTrue(ask.getMessage().contains("recapture the graph without"), ask.getMessage());
      assertEquals(set, calls(DriverCall.GRAPH_NODE_SET_ENABLED));
      assertEquals(get, calls(DriverCall.GRAPH_NODE_GET_ENABLED));
      graph.launch().syncOn(stream);
      assertArrayEquals(new int[] {5, 5, 5, 5}, read(a));
    }
    a.close();
  }

  @Test
  void aRecaptureWithAForeignNodeOfTheSameShapeIsAppliedInPlaceAndItsNodeCanBeReplaced() {
    DeviceBuffer<Integer> a = ints(4);
    DeviceBuffer<Integer> b = ints(4);
    DeviceBuffer<Integer> c = ints(4);
    AtomicReference<@Nullable RecordedNode> node = new AtomicReference<>();
    try (CudaGraph<@Nullable Void> graph =
        CudaGraph.scope(stream, scope -> node.set(scope.recordNode(fill(a, 5))))) {
      GraphUpdate same = graph.recapture(scope -> node.set(scope.recordNode(fill(b, 6))));
      graph.launch().syncOn(stream);
      int[] afterSame = read(b);
      graph.replaceNode(node.get(), fill(c, 8));
      graph.launch().syncOn(stream);
      GraphUpdate other = graph.recapture(scope -> scope.recordNode(twoFills(b, 9)));
      graph.launch().syncOn(stream);

      assertInstanceOf(GraphUpdate.InPlace.class, same);
      assertArrayEquals(new int[] {6, 6, 6, 6}, afterSame);
      assertArrayEquals(new int[] {8, 8, 8, 8}, read(c));
      assertInstanceOf(GraphUpdate.Reinstantiated.class, other);
      assertArrayEquals(new int[] {9, 9, 9, 9}, read(b));
      assertArrayEquals(new int[] {0, 0, 0, 0}, read(a), "the first capture never launched");
    }
    a.close();
    b.close();
    c.close();
  }

  @Test
  void aFailedChildGraphNodeAddLeavesNoGraphAndGivesTheBuffersBack() {
    DeviceBuffer<Integer> a = ints(4);
    simulator.faults().failNth(DriverCall.GRAPH_ADD_CHILD_GRAPH_NODE, 1, CuResult.OUT_OF_MEMORY);

    CudaDriverError failed =
        assertThrows(
            CudaDriverError.class, () -> CudaGraph.scope(stream, s -> s.recordNode(fill(a, 5))));
    long live = liveDeviceMemory();
    a.close();

    assertEquals(1, simulator.faults().fired());
    assertEquals(DriverCall.GRAPH_ADD_CHILD_GRAPH_NODE.symbol(), failed.call());
    assertEquals(0, liveGraphs(), "neither the capture's graph nor the scratch graph is left");
    assertEquals(live - 1, liveDeviceMemory(), "the capture's leases are given back");
  }

  @Test
  void aFailedChildGraphSetParamsKeepsTheOldWorkAndGivesTheReplacementsBuffersBack() {
    DeviceBuffer<Integer> a = ints(4);
    DeviceBuffer<Integer> b = ints(4);
    AtomicReference<@Nullable RecordedNode> node = new AtomicReference<>();
    try (CudaGraph<@Nullable Void> graph =
        CudaGraph.scope(stream, scope -> node.set(scope.recordNode(fill(a, 5))))) {
      simulator
          .faults()
          .failNth(DriverCall.GRAPH_EXEC_CHILD_GRAPH_NODE_SET_PARAMS, 1, CuResult.INVALID_VALUE);

      assertThrows(CudaDriverError.class, () -> graph.replaceNode(node.get(), fill(b, 6)));
      long live = liveDeviceMemory();
      b.close();

      assertEquals(1, simulator.faults().fired());
      assertEquals(live - 1, liveDeviceMemory(), "the failed replacement's buffer is freed");
      assertEquals(1, liveGraphs(), "the replacement's scratch graph is destroyed");
      graph.launch().syncOn(stream);
      assertArrayEquals(new int[] {5, 5, 5, 5}, read(a));
    }
    a.close();
  }

  @Test
  void foreignWorkThatThrowsWhileRecordedFailsTheCaptureAndLeavesNothing() {
    IllegalStateException thrown = new IllegalStateException("the library failed");

    IllegalStateException failed =
        assertThrows(
            IllegalStateException.class,
            () ->
                CudaGraph.scope(
                    stream,
                    s ->
                        s.recordNode(
                            GraphNode.foreign(
                                "failing",
                                List.of(),
                                f -> {
                                  throw thrown;
                                }))));

    assertSame(thrown, failed);
    assertEquals(0, liveGraphs());
    assertEquals(
        0, simulator.capturingStreams().size(), "the lane the work was captured on left capture");
  }
}
