// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 the cuda-graph authors
package cuda.graph.conformance;

import static org.apiguardian.api.API.Status.EXPERIMENTAL;
import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import cuda.graph.CudaDriverError;
import cuda.graph.CudaGraph;
import cuda.graph.DeviceBuffer;
import cuda.graph.DeviceOp;
import cuda.graph.ElementType;
import cuda.graph.GraphNode;
import cuda.graph.GraphUpdate;
import cuda.graph.NodeKind;
import cuda.graph.RecordedNode;
import cuda.graph.Stream;
import cuda.graph.conformance.kernels.ConformanceKernels;
import cuda.graph.spi.CuResult;
import cuda.graph.spi.CuStream;
import cuda.graph.spi.CudaDriver;
import cuda.graph.spi.DriverCall;
import cuda.graph.spi.HandleKind;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicReference;
import org.apiguardian.api.API;
import org.jspecify.annotations.Nullable;
import org.junit.jupiter.api.Test;

/**
 * Foreign nodes ({@code GraphNode.foreign}) recorded with {@code Scope.recordNode}: the work, which
 * may enqueue several driver nodes, becomes one child-graph node of the graph, and {@code
 * CudaGraph.replaceNode} gives it the work of a foreign node of the same shape (as a matmul is
 * replaced by one of the same shape and plan); work of another shape is refused before any change.
 * The foreign work here is the driver's own fills, called with the raw stream and the declared
 * addresses. The scratch graphs the work is captured into are destroyed, and each test leaves no
 * handle and no lease behind.
 *
 * @since 0.1.0
 */
@API(status = EXPERIMENTAL, since = "0.1.0")
public interface RecordedForeignNodesContract extends ConformanceContract {

  /** Elements of each buffer. */
  int N = 4;

  /** Foreign work that fills {@code buffer} with {@code value}: one fill node. */
  private static GraphNode<@Nullable Void> fill(
      CudaDriver driver, DeviceBuffer<Integer> buffer, int value) {
    return GraphNode.foreign(
        "fill",
        List.of(buffer),
        s -> driver.memsetD32Async(s.address(buffer), value, N, new CuStream(s.handle())));
  }

  /**
   * Foreign work of the same name and another shape, as a library call may enqueue other work for
   * other arguments: two fill nodes, one per half of {@code buffer}.
   */
  private static GraphNode<@Nullable Void> twoFills(
      CudaDriver driver, DeviceBuffer<Integer> buffer, int value) {
    return GraphNode.foreign(
        "fill",
        List.of(buffer),
        s -> {
          CuStream raw = new CuStream(s.handle());
          driver.memsetD32Async(s.address(buffer), value, N / 2, raw);
          driver.memsetD32Async(s.address(buffer) + 4L * (N / 2), value, N / 2, raw);
        });
  }

  private static DeviceBuffer<Integer> ints(ConformanceSession s) {
    return DeviceBuffer.zeros(ElementType.I32, N).syncOn(s.stream());
  }

  private static int[] all(int value) {
    return new int[] {value, value, value, value};
  }

  /** A node that holds the stream until {@code gate} opens (as a busy GPU would). */
  private static GraphNode<@Nullable Void> hold(CountDownLatch gate) {
    return DeviceOp.hostCallback(
        () -> {
          try {
            if (!gate.await(20, TimeUnit.SECONDS)) {
              throw new AssertionError("the test never opened the gate");
            }
          } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
          }
        });
  }

  /** Waits (up to 10 s) until the ledger shows {@code expected} live device allocations. */
  private static void awaitLiveMemory(ConformanceSession s, long expected) {
    long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(10);
    while (s.driver().ledger().live(HandleKind.DEVICE_MEMORY) != expected
        && System.nanoTime() < deadline) {
      Thread.onSpinWait();
    }
    assertEquals(
        expected,
        s.driver().ledger().live(HandleKind.DEVICE_MEMORY),
        "live device allocations once the launches before were done");
  }

  /**
   * The work is one child-graph node, ordered after the work recorded before it and before the work
   * recorded after it; the scratch graph it was captured into is gone once the capture ends.
   */
  @Test
  default void aRecordedForeignNodeIsOneChildGraphNodeBetweenTheWorkAroundIt() {
    try (ConformanceSession s = openSession()) {
      Stream stream = s.stream();
      DeviceBuffer<Integer> a = s.own(ints(s));
      DeviceBuffer<Integer> out = s.own(ints(s));
      AtomicReference<@Nullable RecordedNode> node = new AtomicReference<>();
      try (CudaGraph<@Nullable Void> graph =
          CudaGraph.scope(
              stream,
              scope -> {
                scope.record(a.fill(1));
                node.set(scope.recordNode(twoFills(s.driver(), a, 7)));
                scope.record(ConformanceKernels.inc(a));
                scope.record(out.copyFrom(a));
              })) {
        assertEquals(NodeKind.CHILD_GRAPH, node.get().kind());
        assertEquals(
            List.of(NodeKind.FILL, NodeKind.CHILD_GRAPH, NodeKind.KERNEL, NodeKind.COPY),
            graph.nodeKinds());
        assertEquals(1, s.driver().ledger().live(HandleKind.GRAPH), "only the graph is left");
        graph.launch().syncOn(stream);
        assertArrayEquals(all(8), out.toIntArray().syncOn(stream));
      }
    }
  }

  /**
   * A replacement of the same shape is replayed by launches made afterwards; a launch enqueued
   * before still writes the old buffer, which is given back once that launch is done.
   */
  @Test
  default void aReplacementOfTheSameShapeWritesItsBufferFromTheNextLaunchOn() {
    try (ConformanceSession s = openSession()) {
      Stream stream = s.stream();
      DeviceBuffer<Integer> a = ints(s);
      DeviceBuffer<Integer> b = s.own(ints(s));
      AtomicReference<@Nullable RecordedNode> node = new AtomicReference<>();
      try (CudaGraph<@Nullable Void> graph =
          CudaGraph.scope(stream, scope -> node.set(scope.recordNode(fill(s.driver(), a, 5))))) {
        CountDownLatch gate = new CountDownLatch(1);
        CompletableFuture<@Nullable Void> earlier =
            hold(gate).andThen(graph.launch()).asyncOn(stream);
        graph.replaceNode(node.get(), fill(s.driver(), b, 6));
        gate.countDown();
        earlier.join();
        assertArrayEquals(all(5), a.toIntArray().syncOn(stream), "the earlier launch");
        assertArrayEquals(all(0), b.toIntArray().syncOn(stream));

        long memory = s.driver().ledger().live(HandleKind.DEVICE_MEMORY);
        a.close();
        // The earlier launch's completion, seen on another thread, ends the epoch holding it.
        awaitLiveMemory(s, memory - 1);
        graph.launch().syncOn(stream);
        assertArrayEquals(all(6), b.toIntArray().syncOn(stream));
        assertEquals(1, s.driver().ledger().live(HandleKind.GRAPH), "no scratch graph is left");
      }
    }
  }

  /**
   * Work of another shape is refused before the exec changes: the launch still writes the old
   * buffer, and the replacement's buffer is given back.
   */
  @Test
  default void aReplacementOfAnotherShapeIsRefusedAndChangesNothing() {
    try (ConformanceSession s = openSession()) {
      Stream stream = s.stream();
      DeviceBuffer<Integer> a = s.own(ints(s));
      DeviceBuffer<Integer> b = ints(s);
      AtomicReference<@Nullable RecordedNode> node = new AtomicReference<>();
      try (CudaGraph<@Nullable Void> graph =
          CudaGraph.scope(stream, scope -> node.set(scope.recordNode(fill(s.driver(), a, 5))))) {
        long setParams =
            s.driver().calls().count(DriverCall.GRAPH_EXEC_CHILD_GRAPH_NODE_SET_PARAMS);
        IllegalArgumentException refused =
            assertThrows(
                IllegalArgumentException.class,
                () -> graph.replaceNode(node.get(), twoFills(s.driver(), b, 6)));
        assertTrue(refused.getMessage().contains("same shape"), refused.getMessage());
        assertEquals(
            setParams, s.driver().calls().count(DriverCall.GRAPH_EXEC_CHILD_GRAPH_NODE_SET_PARAMS));

        long memory = s.driver().ledger().live(HandleKind.DEVICE_MEMORY);
        b.close();
        assertEquals(memory - 1, s.driver().ledger().live(HandleKind.DEVICE_MEMORY));
        assertThrows(IllegalArgumentException.class, () -> graph.setEnabled(node.get(), false));
        graph.launch().syncOn(stream);
        assertArrayEquals(all(5), a.toIntArray().syncOn(stream));
      }
    }
  }

  /** A recapture whose foreign node enqueues the same shape of work is applied in place. */
  @Test
  default void aRecaptureWithAForeignNodeOfTheSameShapeIsAppliedInPlace() {
    try (ConformanceSession s = openSession()) {
      Stream stream = s.stream();
      DeviceBuffer<Integer> a = s.own(ints(s));
      DeviceBuffer<Integer> b = s.own(ints(s));
      try (CudaGraph<@Nullable Void> graph =
          CudaGraph.scope(stream, scope -> scope.recordNode(twoFills(s.driver(), a, 5)))) {
        graph.launch().syncOn(stream);
        assertInstanceOf(
            GraphUpdate.InPlace.class,
            graph.recapture(scope -> scope.recordNode(twoFills(s.driver(), b, 6))));
        graph.launch().syncOn(stream);
        assertArrayEquals(all(5), a.toIntArray().syncOn(stream));
        assertArrayEquals(all(6), b.toIntArray().syncOn(stream));
      }
    }
  }

  /**
   * A failed {@code cuGraphAddChildGraphNode} fails the capture, and a failed {@code
   * cuGraphExecChildGraphNodeSetParams} the replacement, which changes nothing; neither leaves a
   * graph, a stream in capture or a lease behind (the session checks the ledger when it closes).
   */
  @Test
  default void failedChildGraphCallsLeaveNothingBehind() {
    try (ConformanceSession s = openSession()) {
      Stream stream = s.stream();
      DeviceBuffer<Integer> a = s.own(ints(s));
      DeviceBuffer<Integer> b = s.own(ints(s));
      s.driver().faults().failNth(DriverCall.GRAPH_ADD_CHILD_GRAPH_NODE, 1, CuResult.OUT_OF_MEMORY);
      assertThrows(
          CudaDriverError.class,
          () -> CudaGraph.scope(stream, scope -> scope.recordNode(fill(s.driver(), a, 5))));
      assertEquals(1, s.driver().faults().fired());
      assertEquals(0, s.driver().ledger().live(HandleKind.GRAPH));
      assertEquals(List.of(), List.copyOf(s.driver().capturingStreams().keySet()));

      AtomicReference<@Nullable RecordedNode> node = new AtomicReference<>();
      try (CudaGraph<@Nullable Void> graph =
          CudaGraph.scope(stream, scope -> node.set(scope.recordNode(fill(s.driver(), a, 5))))) {
        s.driver()
            .faults()
            .failNth(DriverCall.GRAPH_EXEC_CHILD_GRAPH_NODE_SET_PARAMS, 1, CuResult.OUT_OF_MEMORY);
        assertThrows(
            CudaDriverError.class, () -> graph.replaceNode(node.get(), fill(s.driver(), b, 6)));
        assertEquals(2, s.driver().faults().fired());
        assertEquals(1, s.driver().ledger().live(HandleKind.GRAPH));
        graph.launch().syncOn(stream);
        assertArrayEquals(all(5), a.toIntArray().syncOn(stream));
        assertArrayEquals(all(0), b.toIntArray().syncOn(stream));
      }
    }
  }
}
