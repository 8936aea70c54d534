// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 the cuda-graph authors
package cuda.graph;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import cuda.graph.spi.DriverCall;
import cuda.graph.spi.HandleKind;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.atomic.AtomicReference;
import org.jspecify.annotations.Nullable;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.function.Executable;

/**
 * {@code Scope.temporary}: scratch memory that a graph allocates and frees in every replay, usable
 * by the nodes of the capture that made it and refused, with a message naming it and its capture,
 * everywhere else before any driver call.
 */
class GraphTemporaryTests extends InstrumentedPlatformFixture {

  private static final LaunchConfig ONE = LaunchConfig.of(1, 1);

  @BeforeEach
  void loadKernels() {
    KernelFixtures.ADD_ONE.load(platform.defaultDevice());
    KernelFixtures.COPY_INTS.load(platform.defaultDevice());
  }

  private DeviceBuffer<Integer> ints(int... values) {
    return DeviceBuffer.fromArray(values).syncOn(stream);
  }

  private static GraphNode<@Nullable Void> addOne(DeviceBuffer<Integer> data) {
    return KernelFixtures.ADD_ONE.launch(ONE, (int) data.length(), data);
  }

  private static GraphNode<@Nullable Void> copy(
      DeviceBuffer<Integer> from, DeviceBuffer<Integer> to) {
    return KernelFixtures.COPY_INTS.launch(ONE, (int) from.length(), from, to);
  }

  /** in -> temporary (kernel), +1 on the temporary (kernel), temporary -> out (kernel). */
  private static ScopeBody scratchBetweenKernels(
      DeviceBuffer<Integer> in, DeviceBuffer<Integer> out, List<DeviceBuffer<Integer>> made) {
    return scope -> {
      DeviceBuffer<Integer> scratch = scope.temporary(ElementType.I32, in.length());
      made.add(scratch);
      scope.record(copy(in, scratch));
      scope.record(addOne(scratch));
      scope.record(copy(scratch, out));
    };
  }

  /** Asserts {@code use} fails with IllegalStateException naming the parts, and no driver call. */
  private IllegalStateException assertRefusedWithoutADriverCall(Executable use, String... parts) {
    int calls = simulator.calls().records().size();
    IllegalStateException refused = assertThrows(IllegalStateException.class, use);
    for (String part : parts) {
      assertTrue(refused.getMessage().contains(part), refused.getMessage());
    }
    assertEquals(calls, simulator.calls().records().size(), () -> "driver calls after the refusal");
    return refused;
  }

  @Test
  void aTemporaryCarriesDataBetweenKernelsOnEveryReplay() {
    DeviceBuffer<Integer> in = ints(1, 2, 3);
    DeviceBuffer<Integer> out = ints(0, 0, 0);
    List<DeviceBuffer<Integer>> made = new ArrayList<>();
    try (CudaGraph<@Nullable Void> graph =
        CudaGraph.scope(stream, scratchBetweenKernels(in, out, made))) {
      assertEquals(
          List.of(
              NodeKind.ALLOCATION,
              NodeKind.KERNEL,
              NodeKind.KERNEL,
              NodeKind.KERNEL,
              NodeKind.FREE),
          graph.nodeKinds());
      for (int replay = 0; replay < 3; replay++) {
        in.write(new int[] {10 * replay, 1, -replay}).syncOn(stream);
        graph.launch().syncOn(stream);
        assertArrayEquals(
            new int[] {10 * replay + 1, 2, 1 - replay}, out.toIntArray().syncOn(stream));
      }
    }
    assertEquals(1, made.size());
    assertTrue(made.getFirst().isClosed(), "a temporary is closed once its capture has ended");
    in.close();
    out.close();
  }

  @Test
  void aTemporaryIsUsableInParallelBranchesAndConditionalBodiesBetweenItsAllocationAndFree() {
    DeviceBuffer<Integer> out = ints(0, 0, 0, 0);
    try (CudaGraph<@Nullable Void> graph =
        CudaGraph.scope(
            stream,
            scope -> {
              DeviceBuffer<Integer> scratch = scope.temporary(ElementType.I32, 4);
              scope.record(scratch.fill(5));
              scope.record(
                  GraphNode.parallel(
                      List.of(addOne(scratch.slice(0, 2)), addOne(scratch.slice(2, 2)))));
              GraphCondition always = scope.condition(1);
              scope.ifThen(always, body -> body.record(addOne(scratch)));
              scope.record(out.copyFrom(scratch));
            })) {
      List<NodeKind> kinds = graph.nodeKinds();
      assertEquals(NodeKind.ALLOCATION, kinds.getFirst(), kinds::toString);
      assertEquals(NodeKind.FREE, kinds.getLast(), kinds::toString);
      assertEquals(1, kinds.stream().filter(k -> k == NodeKind.ALLOCATION).count());
      assertEquals(1, kinds.stream().filter(k -> k == NodeKind.FREE).count());
      for (int replay = 0; replay < 2; replay++) {
        out.fill(0).syncOn(stream);
        graph.launch().syncOn(stream);
        assertArrayEquals(new int[] {7, 7, 7, 7}, out.toIntArray().syncOn(stream));
      }
    }
    out.close();
  }

  @Test
  void closingTheGraphLeavesNoGraphExecOrMemoryAndTheTemporaryHeldNoLease() {
    DeviceBuffer<Integer> in = ints(4);
    DeviceBuffer<Integer> out = ints(0);
    long memoryBefore = liveDeviceMemory();
    List<DeviceBuffer<Integer>> made = new ArrayList<>();
    CudaGraph<@Nullable Void> graph = CudaGraph.scope(stream, scratchBetweenKernels(in, out, made));
    graph.launch().syncOn(stream);
    assertEquals(memoryBefore, liveDeviceMemory(), "graph memory is not a device allocation");
    graph.close();
    assertEquals(0, simulator.ledger().live(HandleKind.GRAPH));
    assertEquals(0, simulator.ledger().live(HandleKind.GRAPH_EXEC));
    in.close();
    out.close();
    assertEquals(memoryBefore - 2, liveDeviceMemory(), "closing the buffers frees them at once");
  }

  @Test
  void everyUseOfATemporaryAfterItsCaptureIsRefusedWhenTheOpIsBuilt() {
    DeviceBuffer<Integer> in = ints(1, 2);
    DeviceBuffer<Integer> out = ints(0, 0);
    List<DeviceBuffer<Integer>> made = new ArrayList<>();
    try (CudaGraph<@Nullable Void> graph =
        CudaGraph.scope(stream, scratchBetweenKernels(in, out, made))) {
      DeviceBuffer<Integer> stale = made.getFirst();
      String[] why = {"temporary 1", "scope capture on", "has ended", "Scope.temporary"};
      assertRefusedWithoutADriverCall(() -> stale.fill(0), why);
      assertRefusedWithoutADriverCall(() -> out.copyFrom(stale), why);
      assertRefusedWithoutADriverCall(() -> stale.copyFrom(out), why);
      assertRefusedWithoutADriverCall(() -> addOne(stale), why);
      assertRefusedWithoutADriverCall(() -> addOne(stale.slice(1, 1)), why);
      assertRefusedWithoutADriverCall(
          () -> GraphNode.foreign("library call", List.of(stale), foreignStream -> {}), why);
      // The graph replays as before.
      graph.launch().syncOn(stream);
      assertArrayEquals(new int[] {2, 3}, out.toIntArray().syncOn(stream));
    }
    in.close();
    out.close();
  }

  @Test
  void hostReadsWritesCopiesIntoNewBuffersFreesAndClosesOfATemporaryAreRefused() {
    List<Executable> refusedInTheScope = new ArrayList<>();
    AtomicReference<@Nullable DeviceBuffer<Integer>> kept = new AtomicReference<>();
    try (CudaGraph<@Nullable Void> graph =
        CudaGraph.scope(
            stream,
            scope -> {
              DeviceBuffer<Integer> scratch = scope.temporary(ElementType.I32, 2);
              kept.set(scratch);
              scope.record(scratch.fill(1));
              String[] why = {"temporary 1", "scope capture on", "cannot be"};
              assertRefusedWithoutADriverCall(scratch::toIntArray, why);
              assertRefusedWithoutADriverCall(scratch::toByteArray, why);
              assertRefusedWithoutADriverCall(() -> scratch.write(new int[] {1, 2}), why);
              assertRefusedWithoutADriverCall(scratch::duplicate, why);
              assertRefusedWithoutADriverCall(scratch::free, why);
              assertRefusedWithoutADriverCall(scratch::close, "cannot be closed", "replay");
              assertFalse(scratch.isClosed(), "usable while its capture runs");
            })) {
      graph.launch().syncOn(stream);
    }
    DeviceBuffer<Integer> scratch = java.util.Objects.requireNonNull(kept.get());
    assertRefusedWithoutADriverCall(scratch::toIntArray, "cannot be read");
    assertRefusedWithoutADriverCall(scratch::close, "cannot be closed");
    assertTrue(scratch.isClosed());
  }

  @Test
  void anOpOnATemporaryExecutedOutsideItsCaptureIsRefusedBeforeItsWork() throws Exception {
    DeviceBuffer<Integer> out = ints(0);
    try (Stream other = platform.defaultDevice().newStream()) {
      AtomicReference<@Nullable Throwable> eager = new AtomicReference<>();
      AtomicReference<@Nullable Throwable> elsewhere = new AtomicReference<>();
      try (CudaGraph<@Nullable Void> graph =
          CudaGraph.scope(
              stream,
              scope -> {
                DeviceBuffer<Integer> scratch = scope.temporary(ElementType.I32, 1);
                scope.record(scratch.fill(3));
                scope.record(out.copyFrom(scratch));
                // Built while the capture runs, executed on other threads: eagerly, and recorded
                // by another capture.
                long fills = simulator.calls().count(DriverCall.MEMSET_D32_ASYNC);
                eager.set(onAnotherThread(() -> scratch.fill(1).syncOn(other)));
                elsewhere.set(
                    onAnotherThread(
                        () -> CudaGraph.scope(other, sc -> sc.record(scratch.fill(2))).close()));
                assertEquals(fills, simulator.calls().count(DriverCall.MEMSET_D32_ASYNC));
              })) {
        graph.launch().syncOn(stream);
        assertArrayEquals(new int[] {3}, out.toIntArray().syncOn(stream));
      }
      IllegalStateException e = assertInstanceOf(IllegalStateException.class, eager.get());
      assertTrue(
          e.getMessage().contains("temporary 1] is a temporary of scope capture on"),
          e.getMessage());
      assertTrue(e.getMessage().contains("outside a capture"), e.getMessage());
      IllegalStateException c = assertInstanceOf(IllegalStateException.class, elsewhere.get());
      assertTrue(c.getMessage().contains("cannot be used by scope capture on"), c.getMessage());
      assertTrue(c.getMessage().contains("only while that graph replays"), c.getMessage());
    }
    out.close();
  }

  /** {@return what {@code work} threw on a thread of its own, or null} */
  private static @Nullable Throwable onAnotherThread(Executable work) {
    AtomicReference<@Nullable Throwable> thrown = new AtomicReference<>();
    Thread thread =
        Thread.ofPlatform()
            .start(
                () -> {
                  try {
                    work.execute();
                  } catch (Throwable t) {
                    thrown.set(t);
                  }
                });
    try {
      thread.join();
    } catch (InterruptedException e) {
      throw new AssertionError(e);
    }
    return thrown.get();
  }

  @Test
  void aTemporaryCannotBeAllocatedInAConditionalBodyButTheBodyMayUseOneFromOutside() {
    DeviceBuffer<Integer> out = ints(0);
    try (CudaGraph<@Nullable Void> graph =
        CudaGraph.scope(
            stream,
            scope -> {
              DeviceBuffer<Integer> scratch = scope.temporary(ElementType.I32, 1);
              scope.record(scratch.fill(0));
              scope.ifThen(
                  scope.condition(1),
                  body -> {
                    assertRefusedWithoutADriverCall(
                        () -> body.temporary(ElementType.I32, 1),
                        "conditional body",
                        "before the conditional node");
                    body.record(addOne(scratch));
                  });
              scope.record(out.copyFrom(scratch));
            })) {
      graph.launch().syncOn(stream);
      assertArrayEquals(new int[] {1}, out.toIntArray().syncOn(stream));
    }
    out.close();
  }

  @Test
  void aScopeUsedAfterItsCaptureAllocatesNoTemporary() {
    AtomicReference<@Nullable Scope> leaked = new AtomicReference<>();
    try (CudaGraph<@Nullable Void> graph = CudaGraph.scope(stream, leaked::set)) {
      Scope scope = java.util.Objects.requireNonNull(leaked.get());
      assertRefusedWithoutADriverCall(
          () -> scope.temporary(ElementType.I32, 1), "capture has ended");
      assertEquals(List.of(), graph.nodeKinds());
    }
    assertThrows(
        IllegalArgumentException.class,
        () -> CudaGraph.scope(stream, scope -> scope.temporary(ElementType.I32, 0)));
  }

  @Test
  void aRecaptureRecordsNewTemporariesIsInstantiatedAnewAndRefusesTheEarlierOnes() {
    DeviceBuffer<Integer> in = ints(1, 2);
    DeviceBuffer<Integer> out = ints(0, 0);
    List<DeviceBuffer<Integer>> made = new ArrayList<>();
    try (CudaGraph<@Nullable Void> graph =
        CudaGraph.scope(stream, scratchBetweenKernels(in, out, made))) {
      long instantiations = simulator.calls().count(DriverCall.GRAPH_INSTANTIATE);
      GraphUpdate update = graph.recapture(scratchBetweenKernels(in, out, made));
      GraphUpdate.Reinstantiated anew = assertInstanceOf(GraphUpdate.Reinstantiated.class, update);
      assertTrue(anew.reason().contains("temporaries"), anew.reason());
      assertEquals(0, simulator.calls().count(DriverCall.GRAPH_EXEC_UPDATE));
      assertEquals(instantiations + 1, simulator.calls().count(DriverCall.GRAPH_INSTANTIATE));
      assertEquals(2, made.size());
      in.write(new int[] {5, 6}).syncOn(stream);
      graph.launch().syncOn(stream);
      assertArrayEquals(new int[] {6, 7}, out.toIntArray().syncOn(stream));

      // A recapture whose nodes use the earlier capture's temporary fails; the graph is unchanged.
      DeviceBuffer<Integer> earlier = made.getFirst();
      IllegalStateException refused =
          assertThrows(
              IllegalStateException.class,
              () -> graph.recapture(scope -> scope.record(addOne(earlier))));
      assertTrue(refused.getMessage().contains("temporary 1] is a temporary of scope capture on"));
      assertTrue(refused.getMessage().contains("has ended"), refused.getMessage());
      graph.launch().syncOn(stream);
      assertArrayEquals(new int[] {6, 7}, out.toIntArray().syncOn(stream));

      // To a capture without temporaries and back: both are instantiated anew.
      assertInstanceOf(
          GraphUpdate.Reinstantiated.class, graph.recapture(scope -> scope.record(copy(in, out))));
      assertInstanceOf(
          GraphUpdate.Reinstantiated.class, graph.recapture(scratchBetweenKernels(in, out, made)));
      in.write(new int[] {7, 8}).syncOn(stream);
      graph.launch().syncOn(stream);
      assertArrayEquals(new int[] {8, 9}, out.toIntArray().syncOn(stream));
    }
    in.close();
    out.close();
  }

  @Test
  void aCaptureThatFailsAfterAllocatingATemporaryLeavesNothingBehind() {
    IllegalStateException failure =
        assertThrows(
            IllegalStateException.class,
            () ->
                CudaGraph.scope(
                    stream,
                    scope -> {
                      scope.temporary(ElementType.F32, 16);
                      throw new IllegalStateException("the body failed");
                    }));
    assertEquals("the body failed", failure.getMessage());
    assertEquals(0, simulator.ledger().live(HandleKind.GRAPH));
    assertEquals(0, simulator.calls().count(DriverCall.MEM_FREE_ASYNC));
  }
}
