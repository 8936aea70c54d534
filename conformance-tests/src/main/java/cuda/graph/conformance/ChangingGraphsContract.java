// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 the cuda-graph authors
package cuda.graph.conformance;

import static org.apiguardian.api.API.Status.EXPERIMENTAL;
import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import cuda.graph.CudaDriverError;
import cuda.graph.CudaGraph;
import cuda.graph.DeviceBuffer;
import cuda.graph.DeviceOp;
import cuda.graph.ElementType;
import cuda.graph.GraphCondition;
import cuda.graph.GraphNode;
import cuda.graph.GraphUpdate;
import cuda.graph.NodeKind;
import cuda.graph.RecordedNode;
import cuda.graph.Stream;
import cuda.graph.conformance.kernels.ConditionalKernels;
import cuda.graph.conformance.kernels.ConformanceKernels;
import cuda.graph.spi.CuResult;
import cuda.graph.spi.DriverCall;
import cuda.graph.spi.HandleKind;
import java.util.List;
import java.util.concurrent.atomic.AtomicReference;
import org.apiguardian.api.API;
import org.jspecify.annotations.Nullable;
import org.junit.jupiter.api.Test;

/**
 * Graphs that change without a new capture, branch across streams and loop on the device: parallel
 * branches eager and captured, conditional nodes (WHILE, IF, IF/ELSE, SWITCH) whose conditions
 * kernels set on the device, recaptures applied in place or re-instantiated, and recorded nodes
 * replaced and switched off; each leaves no handle and no lease behind.
 *
 * @since 0.1.0
 */
@API(status = EXPERIMENTAL, since = "0.1.0")
public interface ChangingGraphsContract extends ConformanceContract {

  /**
   * Eager parallel branches all run, their results in branch order, and join before what follows.
   */
  @Test
  default void parallelBranchesRunEagerlyAndJoinBeforeTheNextOp() {
    try (ConformanceSession s = openSession()) {
      Stream stream = s.stream();
      DeviceBuffer<Integer> a = s.own(DeviceBuffer.zeros(ElementType.I32, 64).syncOn(stream));
      DeviceBuffer<Integer> b = s.own(DeviceBuffer.zeros(ElementType.I32, 64).syncOn(stream));
      List<int[]> read =
          DeviceOp.parallel(
                  List.of(
                      ConformanceKernels.inc(a).andThen(ConformanceKernels.inc(a)),
                      ConformanceKernels.inc(b)))
              .then(ignored -> DeviceOp.zipAll(List.of(a.toIntArray(), b.toIntArray())))
              .syncOn(stream);
      assertEquals(2, read.get(0)[63]);
      assertEquals(1, read.get(1)[0]);
    }
    // Auxiliary streams and events are destroyed with the platform (the session checks the ledger).
  }

  /** Captured, the branches become parallel branches of one graph that replays both each launch. */
  @Test
  default void capturedParallelBranchesReplayTogether() {
    try (ConformanceSession s = openSession()) {
      Stream stream = s.stream();
      DeviceBuffer<Integer> a = s.own(DeviceBuffer.zeros(ElementType.I32, 8).syncOn(stream));
      DeviceBuffer<Integer> b = s.own(DeviceBuffer.zeros(ElementType.I32, 8).syncOn(stream));
      try (CudaGraph<List<@Nullable Void>> graph =
          CudaGraph.capture(
              stream,
              GraphNode.parallel(List.of(ConformanceKernels.inc(a), ConformanceKernels.inc(b))))) {
        for (int i = 0; i < 3; i++) {
          graph.launch().syncOn(stream);
        }
        assertEquals(List.of(NodeKind.KERNEL, NodeKind.KERNEL), graph.nodeKinds());
      }
      assertArrayEquals(new int[] {3, 3, 3, 3, 3, 3, 3, 3}, a.toIntArray().syncOn(stream));
      assertArrayEquals(new int[] {3, 3, 3, 3, 3, 3, 3, 3}, b.toIntArray().syncOn(stream));
      assertEquals(0, s.driver().ledger().live(HandleKind.GRAPH_EXEC));
    }
  }

  /**
   * A WHILE node runs its body until a kernel of the body clears the condition: one host launch
   * runs as many steps as the device data says, and the condition starts at its default each
   * launch.
   */
  @Test
  default void aWhileLoopRunsUntilAKernelOnTheDeviceStopsIt() {
    try (ConformanceSession s = openSession()) {
      Stream stream = s.stream();
      DeviceBuffer<Integer> left = s.own(DeviceBuffer.fromArray(new int[] {5}).syncOn(stream));
      DeviceBuffer<Integer> steps = s.own(DeviceBuffer.zeros(ElementType.I32, 1).syncOn(stream));
      try (CudaGraph<@Nullable Void> graph =
          CudaGraph.scope(
              stream,
              scope -> {
                GraphCondition more = scope.condition(1);
                scope.whileLoop(
                    more,
                    body -> {
                      body.record(ConformanceKernels.inc(steps));
                      body.record(ConditionalKernels.countdown(left, more));
                    });
              })) {
        assertEquals(List.of(NodeKind.CONDITIONAL), graph.nodeKinds());
        graph.launch().syncOn(stream);
        assertArrayEquals(new int[] {5}, steps.toIntArray().syncOn(stream));
        left.write(new int[] {3}).syncOn(stream);
        graph.launch().syncOn(stream);
        assertArrayEquals(new int[] {8}, steps.toIntArray().syncOn(stream));
      }
    }
  }

  /**
   * A graph that advances its own state: a step counter in device memory, incremented by a node of
   * the graph and read by the nodes before it, moves each replay to the next step, so a replay loop
   * copies nothing from the host between launches.
   */
  @Test
  default void aGraphAdvancesItsOwnStepCounterSoReplaysCopyNothingFromTheHost() {
    try (ConformanceSession s = openSession()) {
      Stream stream = s.stream();
      DeviceBuffer<Integer> step = s.own(DeviceBuffer.zeros(ElementType.I32, 1).syncOn(stream));
      DeviceBuffer<Integer> visits = s.own(DeviceBuffer.zeros(ElementType.I32, 4).syncOn(stream));
      try (CudaGraph<@Nullable Void> graph =
          CudaGraph.scope(
              stream,
              scope -> {
                GraphCondition current = scope.condition(0);
                scope.record(ConditionalKernels.choose(step, current));
                scope.switchOf(
                    current,
                    List.of(
                        c -> c.record(ConformanceKernels.inc(visits.slice(0, 1))),
                        c -> c.record(ConformanceKernels.inc(visits.slice(1, 1))),
                        c -> c.record(ConformanceKernels.inc(visits.slice(2, 1))),
                        c -> c.record(ConformanceKernels.inc(visits.slice(3, 1)))));
                scope.record(ConformanceKernels.inc(step));
              })) {
        s.driver().calls().clear();
        for (int i = 0; i < 6; i++) {
          graph.launch().syncOn(stream);
        }
        assertEquals(6, s.driver().calls().count(DriverCall.GRAPH_LAUNCH));
        assertEquals(
            0,
            s.driver().calls().count(DriverCall.MEMCPY_HTOD_ASYNC)
                + s.driver().calls().count(DriverCall.MEMCPY_HTOD),
            "a self-advancing replay copies nothing from the host");
      }
      // Steps 0..3 each ran their case once; steps 4 and 5 are past the last case and run none.
      assertArrayEquals(new int[] {1, 1, 1, 1}, visits.toIntArray().syncOn(stream));
      assertArrayEquals(new int[] {6}, step.toIntArray().syncOn(stream));
    }
  }

  /** IF, IF/ELSE and SWITCH run the body the device data selects, and nest inside each other. */
  @Test
  default void ifAndSwitchRunTheBodyTheDeviceSelects() {
    try (ConformanceSession s = openSession()) {
      Stream stream = s.stream();
      DeviceBuffer<Integer> flag = s.own(DeviceBuffer.fromArray(new int[] {0}).syncOn(stream));
      DeviceBuffer<Integer> hits = s.own(DeviceBuffer.zeros(ElementType.I32, 4).syncOn(stream));
      try (CudaGraph<@Nullable Void> graph =
          CudaGraph.scope(
              stream,
              scope -> {
                GraphCondition c = scope.condition(0);
                scope.record(ConditionalKernels.choose(flag, c));
                scope.ifThenElse(
                    c,
                    then -> then.record(ConformanceKernels.inc(hits.slice(0, 1))),
                    otherwise -> {
                      otherwise.record(ConformanceKernels.inc(hits.slice(1, 1)));
                      GraphCondition inner = otherwise.condition(2);
                      otherwise.switchOf(
                          inner,
                          List.of(
                              case0 -> {},
                              case1 -> {},
                              case2 -> case2.record(ConformanceKernels.inc(hits.slice(2, 1)))));
                    });
                GraphCondition again = scope.condition(0);
                scope.record(ConditionalKernels.choose(flag, again));
                scope.ifThen(again, body -> body.record(ConformanceKernels.inc(hits.slice(3, 1))));
              })) {
        graph.launch().syncOn(stream);
        assertArrayEquals(new int[] {0, 1, 1, 0}, hits.toIntArray().syncOn(stream));
        flag.write(new int[] {1}).syncOn(stream);
        graph.launch().syncOn(stream);
        assertArrayEquals(new int[] {1, 1, 1, 1}, hits.toIntArray().syncOn(stream));
      }
    }
  }

  /** A condition is tested only by the scope that made it, and set only in its own capture. */
  @Test
  default void aConditionIsRefusedOutsideItsScopeAndItsCapture() {
    try (ConformanceSession s = openSession()) {
      Stream stream = s.stream();
      DeviceBuffer<Integer> flag = s.own(DeviceBuffer.fromArray(new int[] {1}).syncOn(stream));
      AtomicReference<@Nullable GraphCondition> escaped = new AtomicReference<>();
      try (CudaGraph<@Nullable Void> graph =
          CudaGraph.scope(
              stream,
              scope -> {
                GraphCondition outer = scope.condition(1);
                escaped.set(outer);
                scope.ifThen(
                    outer,
                    body -> {
                      IllegalArgumentException e =
                          assertThrows(
                              IllegalArgumentException.class,
                              () -> body.whileLoop(outer, inner -> {}));
                      assertTrue(e.getMessage().contains("another scope"), e.getMessage());
                      body.record(ConditionalKernels.choose(flag, outer));
                    });
              })) {
        graph.launch().syncOn(stream);
      }
      GraphCondition outer = escaped.get();
      IllegalArgumentException e =
          assertThrows(
              IllegalArgumentException.class,
              () -> ConditionalKernels.choose(flag, outer).syncOn(stream));
      assertTrue(e.getMessage().contains("made by another capture"), e.getMessage());
    }
  }

  /**
   * A recapture of the same shape updates the exec in place; one of another shape re-instantiates
   * and says why; both replay the new work, and the old graph's buffers are given back.
   */
  @Test
  default void aRecaptureUpdatesInPlaceWhenItCanAndReinstantiatesWhenItCannot() {
    try (ConformanceSession s = openSession()) {
      Stream stream = s.stream();
      DeviceBuffer<Integer> a = s.own(DeviceBuffer.zeros(ElementType.I32, 4).syncOn(stream));
      DeviceBuffer<Integer> b = s.own(DeviceBuffer.zeros(ElementType.I32, 4).syncOn(stream));
      try (CudaGraph<@Nullable Void> graph = CudaGraph.capture(stream, ConformanceKernels.inc(a))) {
        graph.launch().syncOn(stream);
        GraphUpdate same = graph.recapture(ConformanceKernels.inc(b));
        assertInstanceOf(GraphUpdate.InPlace.class, same);
        graph.launch().syncOn(stream);
        GraphUpdate other =
            graph.recapture(ConformanceKernels.inc(a).andThen(ConformanceKernels.inc(b)));
        GraphUpdate.Reinstantiated why = assertInstanceOf(GraphUpdate.Reinstantiated.class, other);
        assertTrue(why.reason().contains("TOPOLOGY_CHANGED"), why.reason());
        graph.launch().syncOn(stream);
        assertEquals(2, graph.nodeCount());
        assertEquals(1, s.driver().ledger().live(HandleKind.GRAPH_EXEC));
      }
      assertArrayEquals(new int[] {2, 2, 2, 2}, a.toIntArray().syncOn(stream));
      assertArrayEquals(new int[] {2, 2, 2, 2}, b.toIntArray().syncOn(stream));
      assertEquals(0, s.driver().ledger().live(HandleKind.GRAPH_EXEC));
    }
  }

  /**
   * A recorded node takes a replacement's buffers for later launches, and the buffer it used is
   * given back: closed, it is freed even though the graph still lives.
   */
  @Test
  default void aReplacedNodeUsesTheNewBufferAndGivesTheOldOneBack() {
    try (ConformanceSession s = openSession()) {
      Stream stream = s.stream();
      DeviceBuffer<Integer> a = DeviceBuffer.zeros(ElementType.I32, 4).syncOn(stream);
      DeviceBuffer<Integer> b = s.own(DeviceBuffer.zeros(ElementType.I32, 4).syncOn(stream));
      DeviceBuffer<Integer> fillTarget =
          s.own(DeviceBuffer.zeros(ElementType.I32, 2).syncOn(stream));
      AtomicReference<@Nullable RecordedNode> kernel = new AtomicReference<>();
      AtomicReference<@Nullable RecordedNode> fill = new AtomicReference<>();
      try (CudaGraph<@Nullable Void> graph =
          CudaGraph.scope(
              stream,
              scope -> {
                kernel.set(scope.recordNode(ConformanceKernels.inc(a)));
                fill.set(scope.recordNode(fillTarget.fill(7)));
              })) {
        graph.launch().syncOn(stream);
        long liveBefore = s.driver().ledger().live(HandleKind.DEVICE_MEMORY);
        graph.replaceNode(kernel.get(), ConformanceKernels.inc(b));
        assertArrayEquals(new int[] {1, 1, 1, 1}, a.toIntArray().syncOn(stream));
        a.close();
        assertEquals(liveBefore - 1, s.driver().ledger().live(HandleKind.DEVICE_MEMORY));
        graph.launch().syncOn(stream);
        assertArrayEquals(new int[] {1, 1, 1, 1}, b.toIntArray().syncOn(stream));

        IllegalArgumentException wrong =
            assertThrows(
                IllegalArgumentException.class, () -> graph.replaceNode(kernel.get(), b.fill(3)));
        assertTrue(wrong.getMessage().contains("a launch of"), wrong.getMessage());

        assertTrue(graph.isEnabled(fill.get()));
        fillTarget.fill(0).syncOn(stream);
        graph.setEnabled(fill.get(), false);
        assertFalse(graph.isEnabled(fill.get()));
        graph.launch().syncOn(stream);
        assertArrayEquals(new int[] {0, 0}, fillTarget.toIntArray().syncOn(stream));
        assertArrayEquals(new int[] {2, 2, 2, 2}, b.toIntArray().syncOn(stream));

        graph.recapture(scope -> scope.record(ConformanceKernels.inc(b)));
        IllegalStateException stale =
            assertThrows(IllegalStateException.class, () -> graph.setEnabled(fill.get(), true));
        assertTrue(stale.getMessage().contains("stale"), stale.getMessage());
      }
    }
  }

  /**
   * A node switched off stays off only until the graph is recaptured: the new capture's node at the
   * same position runs. The driver keeps a node's switched-off state through an in-place update, so
   * a recapture while a node is off is instantiated anew, and says why; once the node is on again,
   * recaptures of the same shape are applied in place again.
   */
  @Test
  default void aRecaptureStartsItsNodesEnabledAfterANodeWasSwitchedOff() {
    try (ConformanceSession s = openSession()) {
      Stream stream = s.stream();
      DeviceBuffer<Integer> x = s.own(DeviceBuffer.zeros(ElementType.I32, 4).syncOn(stream));
      DeviceBuffer<Integer> y = s.own(DeviceBuffer.zeros(ElementType.I32, 4).syncOn(stream));
      AtomicReference<@Nullable RecordedNode> node = new AtomicReference<>();
      try (CudaGraph<@Nullable Void> graph =
          CudaGraph.scope(stream, sc -> node.set(sc.recordNode(x.fill(1))))) {
        graph.setEnabled(node.get(), false);
        GraphUpdate update = graph.recapture(sc -> node.set(sc.recordNode(x.fill(2))));
        GraphUpdate.Reinstantiated why = assertInstanceOf(GraphUpdate.Reinstantiated.class, update);
        assertTrue(why.reason().contains("switched off"), why.reason());
        assertTrue(graph.isEnabled(node.get()), "a recaptured node starts enabled");
        graph.launch().syncOn(stream);
        assertArrayEquals(new int[] {2, 2, 2, 2}, x.toIntArray().syncOn(stream));

        graph.setEnabled(node.get(), false);
        graph.setEnabled(node.get(), true);
        assertInstanceOf(
            GraphUpdate.InPlace.class,
            graph.recapture(sc -> node.set(sc.recordNode(x.fill(2)))),
            "switched on again, the node no longer stands in the way of an update");

        graph.setEnabled(node.get(), false);
        assertInstanceOf(
            GraphUpdate.Reinstantiated.class,
            graph.recapture(
                sc -> {
                  node.set(sc.recordNode(x.fill(3)));
                  sc.record(y.fill(3));
                }));
        assertTrue(graph.isEnabled(node.get()));
        graph.launch().syncOn(stream);
        assertArrayEquals(new int[] {3, 3, 3, 3}, x.toIntArray().syncOn(stream));

        // A failed recapture leaves the current capture as it was, its node still switched off.
        graph.setEnabled(node.get(), false);
        s.driver().faults().failNth(DriverCall.GRAPH_INSTANTIATE, 1, CuResult.UNKNOWN);
        RecordedNode before = node.get();
        assertThrows(
            CudaDriverError.class,
            () ->
                graph.recapture(
                    sc -> {
                      sc.recordNode(x.fill(4));
                      sc.record(y.fill(4));
                    }));
        assertFalse(graph.isEnabled(before));
        graph.launch().syncOn(stream);
        assertArrayEquals(new int[] {3, 3, 3, 3}, x.toIntArray().syncOn(stream));
      }
    }
  }

  /**
   * A launch made before a recapture and executed after it replays the new capture, however the
   * recapture was applied: one rule for in-place updates and new instantiations.
   */
  @Test
  default void aLaunchMadeBeforeARecaptureReplaysTheNewCaptureEitherWay() {
    try (ConformanceSession s = openSession()) {
      Stream stream = s.stream();
      DeviceBuffer<Integer> x = s.own(DeviceBuffer.zeros(ElementType.I32, 4).syncOn(stream));
      DeviceBuffer<Integer> y = s.own(DeviceBuffer.zeros(ElementType.I32, 4).syncOn(stream));
      // Closed inside the test, so not a resource of the try: the session closes it on failure.
      CudaGraph<@Nullable Void> graph = s.own(CudaGraph.capture(stream, x.fill(1)));
      var madeBeforeInPlace = graph.launch();
      assertInstanceOf(GraphUpdate.InPlace.class, graph.recapture(x.fill(2)));
      madeBeforeInPlace.syncOn(stream);
      assertArrayEquals(new int[] {2, 2, 2, 2}, x.toIntArray().syncOn(stream));

      var madeBeforeNew = graph.launch();
      assertInstanceOf(
          GraphUpdate.Reinstantiated.class, graph.recapture(x.fill(3).andThen(y.fill(3))));
      madeBeforeNew.syncOn(stream);
      assertArrayEquals(new int[] {3, 3, 3, 3}, x.toIntArray().syncOn(stream));
      assertArrayEquals(new int[] {3, 3, 3, 3}, y.toIntArray().syncOn(stream));

      // Made before the graph was closed, a launch still replays its last capture.
      var madeBeforeClose = graph.launch();
      graph.close();
      x.fill(0).syncOn(stream);
      madeBeforeClose.syncOn(stream);
      assertArrayEquals(new int[] {3, 3, 3, 3}, x.toIntArray().syncOn(stream));
      assertEquals(0, s.driver().ledger().live(HandleKind.GRAPH_EXEC));
    }
  }

  /**
   * Work recorded through the enclosing scope while a conditional body records would land outside
   * the body and run on every launch: it is refused, with the scope to use instead.
   */
  @Test
  default void recordingThroughTheEnclosingScopeInsideABodyIsRefused() {
    try (ConformanceSession s = openSession()) {
      Stream stream = s.stream();
      DeviceBuffer<Integer> x = s.own(DeviceBuffer.zeros(ElementType.I32, 4).syncOn(stream));
      AtomicReference<@Nullable IllegalStateException> refused = new AtomicReference<>();
      try (CudaGraph<@Nullable Void> graph =
          CudaGraph.scope(
              stream,
              sc -> {
                GraphCondition never = sc.condition(0);
                sc.ifThen(
                    never,
                    body ->
                        refused.set(
                            assertThrows(
                                IllegalStateException.class,
                                () -> sc.record(ConformanceKernels.inc(x)))));
              })) {
        graph.launch().syncOn(stream);
        assertEquals(List.of(NodeKind.CONDITIONAL), graph.nodeKinds());
      }
      IllegalStateException e = refused.get();
      assertTrue(e != null && e.getMessage().contains("the scope the body is given"), "" + e);
      assertArrayEquals(new int[] {0, 0, 0, 0}, x.toIntArray().syncOn(stream));
    }
  }

  /**
   * When destroying the graph an in-place recapture replaced fails, the failure is logged, not
   * reported as a failed recapture: the running graph keeps its buffers and no graph is destroyed
   * twice.
   */
  @Test
  default void aFailedDestroyOfAReplacedGraphKeepsTheRunningGraphsBuffers() {
    try (ConformanceSession s = openSession()) {
      Stream stream = s.stream();
      DeviceBuffer<Integer> a = s.own(DeviceBuffer.zeros(ElementType.I32, 4).syncOn(stream));
      long memoryBefore = s.driver().ledger().live(HandleKind.DEVICE_MEMORY);
      DeviceBuffer<Integer> b = DeviceBuffer.zeros(ElementType.I32, 4).syncOn(stream);
      try (CudaGraph<@Nullable Void> graph = CudaGraph.capture(stream, ConformanceKernels.inc(a))) {
        assertInstanceOf(GraphUpdate.InPlace.class, graph.recapture(ConformanceKernels.inc(a)));
        // The next in-place recapture destroys the graph the first one applied: that fails.
        s.driver().faults().failNth(DriverCall.GRAPH_DESTROY, 1, CuResult.UNKNOWN);
        assertInstanceOf(GraphUpdate.InPlace.class, graph.recapture(ConformanceKernels.inc(b)));
        assertEquals(1, s.driver().faults().fired());
        b.close(); // leased by the graph, so still allocated
        assertEquals(memoryBefore + 1, s.driver().ledger().live(HandleKind.DEVICE_MEMORY));
        graph.launch().syncOn(stream);
        graph.launch().syncOn(stream);
      }
      assertArrayEquals(new int[] {0, 0, 0, 0}, a.toIntArray().syncOn(stream));
      assertEquals(memoryBefore, s.driver().ledger().live(HandleKind.DEVICE_MEMORY));
      assertEquals(0, s.driver().ledger().live(HandleKind.GRAPH_EXEC));
      // The graph whose destroy failed was given up (logged, never retried): the one left.
      var leftover = s.driver().ledger().liveHandles(HandleKind.GRAPH);
      assertEquals(1, leftover.size(), "graphs left: " + leftover);
      s.driver().graphDestroy((cuda.graph.spi.CuGraph) leftover.iterator().next());
    }
  }

  /**
   * When ending a conditional body's capture fails, the body's stream is taken out of capture
   * before the enclosing capture's graph (which owns the body graph) is destroyed: no stream is
   * left capturing, and the next scope with a body records and replays.
   */
  @Test
  default void aFailedEndOfABodysCaptureLeavesNoStreamCapturing() {
    try (ConformanceSession s = openSession()) {
      Stream stream = s.stream();
      DeviceBuffer<Integer> x = s.own(DeviceBuffer.zeros(ElementType.I32, 4).syncOn(stream));
      cuda.graph.ScopeBody withBody =
          sc -> {
            GraphCondition once = sc.condition(1);
            sc.ifThen(once, body -> body.record(ConformanceKernels.inc(x)));
          };
      // The body's capture ends first: its end is the first cuStreamEndCapture of the scope.
      s.driver().faults().failNth(DriverCall.STREAM_END_CAPTURE, 1, CuResult.UNKNOWN);
      assertThrows(CudaDriverError.class, () -> CudaGraph.scope(stream, withBody));
      assertEquals(java.util.Map.of(), s.driver().capturingStreams());
      try (CudaGraph<@Nullable Void> graph = CudaGraph.scope(stream, withBody)) {
        graph.launch().syncOn(stream);
      }
      assertArrayEquals(new int[] {1, 1, 1, 1}, x.toIntArray().syncOn(stream));
    }
  }

  /**
   * The same rules in a graph with a conditional body beside the recorded kernel node: a node
   * switched off runs again after an in-place recapture, and a launch made before a recapture (in
   * place, or anew from another shape) replays the new capture.
   */
  @Test
  default void recapturesBesideAConditionalBodyKeepTheLaunchAndEnableRules() {
    try (ConformanceSession s = openSession()) {
      Stream stream = s.stream();
      List<DeviceBuffer<Integer>> buffers = counters(s, 3);
      DeviceBuffer<Integer> flag = s.own(DeviceBuffer.zeros(ElementType.I32, 1).syncOn(stream));
      DeviceBuffer<Integer> hits = s.own(DeviceBuffer.zeros(ElementType.I32, 8).syncOn(stream));
      AtomicReference<@Nullable RecordedNode> node = new AtomicReference<>();
      java.util.function.BiFunction<Integer, Boolean, cuda.graph.ScopeBody> shape =
          (target, conditional) ->
              sc -> {
                node.set(sc.recordNode(ConformanceKernels.inc(buffers.get(target))));
                sc.record(ConformanceKernels.inc(buffers.get((target + 1) % 3)));
                if (conditional) {
                  GraphCondition c = sc.condition(0);
                  sc.record(ConditionalKernels.choose(flag, c));
                  sc.ifThen(c, then -> then.record(ConformanceKernels.inc(hits)));
                }
              };
      int[] want = new int[3];
      try (CudaGraph<@Nullable Void> graph = CudaGraph.scope(stream, shape.apply(0, true))) {
        graph.setEnabled(node.get(), false);
        graph.launch().syncOn(stream);
        want[1]++;
        assertArrayEquals(want, firsts(buffers, stream), "a switched-off kernel node");

        assertInstanceOf(GraphUpdate.Reinstantiated.class, graph.recapture(shape.apply(0, true)));
        graph.launch().syncOn(stream);
        want[0]++;
        want[1]++;
        assertArrayEquals(want, firsts(buffers, stream), "after a recapture");

        assertInstanceOf(GraphUpdate.InPlace.class, graph.recapture(shape.apply(0, true)));
        graph.launch().syncOn(stream);
        want[0]++;
        want[1]++;
        assertArrayEquals(want, firsts(buffers, stream), "after an in-place recapture");

        graph.setEnabled(node.get(), false);
        var early = graph.launch();
        assertInstanceOf(GraphUpdate.Reinstantiated.class, graph.recapture(shape.apply(0, true)));
        early.syncOn(stream);
        want[0]++;
        want[1]++;
        assertArrayEquals(want, firsts(buffers, stream), "an early launch, a node off before");

        early = graph.launch();
        assertInstanceOf(GraphUpdate.InPlace.class, graph.recapture(shape.apply(0, true)));
        early.syncOn(stream);
        want[0]++;
        want[1]++;
        assertArrayEquals(want, firsts(buffers, stream), "an early launch, in place");

        assertInstanceOf(GraphUpdate.Reinstantiated.class, graph.recapture(shape.apply(1, false)));
        var earlier = graph.launch();
        assertInstanceOf(GraphUpdate.Reinstantiated.class, graph.recapture(shape.apply(0, true)));
        earlier.syncOn(stream);
        want[0]++;
        want[1]++;
        assertArrayEquals(want, firsts(buffers, stream), "an early launch, anew");
      }
    }
  }

  /** {@return {@code count} zeroed counters of 8 ints, owned by the session} */
  private static List<DeviceBuffer<Integer>> counters(ConformanceSession s, int count) {
    List<DeviceBuffer<Integer>> counters = new java.util.ArrayList<>();
    for (int i = 0; i < count; i++) {
      counters.add(s.own(DeviceBuffer.zeros(ElementType.I32, 8).syncOn(s.stream())));
    }
    return counters;
  }

  private static int[] firsts(List<DeviceBuffer<Integer>> buffers, Stream stream) {
    int[] firsts = new int[buffers.size()];
    for (int i = 0; i < firsts.length; i++) {
      firsts[i] = buffers.get(i).toIntArray().syncOn(stream)[0];
    }
    return firsts;
  }

  /**
   * A node replaced by {@code replaceNode} takes the next recapture's parameters when that
   * recapture is applied in place, and when it was switched off in between.
   */
  @Test
  default void anInPlaceRecaptureAfterAReplacementReplaysTheRecapturedNode() {
    try (ConformanceSession s = openSession()) {
      Stream stream = s.stream();
      List<DeviceBuffer<Integer>> buffers = counters(s, 3);
      AtomicReference<@Nullable RecordedNode> node = new AtomicReference<>();
      java.util.function.IntFunction<cuda.graph.ScopeBody> shape =
          target ->
              sc -> {
                node.set(sc.recordNode(ConformanceKernels.inc(buffers.get(target))));
                sc.record(ConformanceKernels.inc(buffers.get(1)));
              };
      int[] want = new int[3];
      try (CudaGraph<@Nullable Void> graph = CudaGraph.scope(stream, shape.apply(0))) {
        graph.replaceNode(node.get(), ConformanceKernels.inc(buffers.get(2)));
        assertInstanceOf(GraphUpdate.InPlace.class, graph.recapture(shape.apply(0)));
        graph.launch().syncOn(stream);
        want[0]++;
        want[1]++;
        assertArrayEquals(want, firsts(buffers, stream), "replaced, then recaptured in place");

        graph.replaceNode(node.get(), ConformanceKernels.inc(buffers.get(2)));
        assertInstanceOf(GraphUpdate.InPlace.class, graph.recapture(shape.apply(0)));
        graph.setEnabled(node.get(), false);
        graph.launch().syncOn(stream);
        want[1]++;
        assertArrayEquals(want, firsts(buffers, stream), "then switched off");
        assertInstanceOf(GraphUpdate.Reinstantiated.class, graph.recapture(shape.apply(0)));
        graph.launch().syncOn(stream);
        want[0]++;
        want[1]++;
        assertArrayEquals(want, firsts(buffers, stream), "then recaptured");
      }
    }
  }
}
