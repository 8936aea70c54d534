// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 the cuda-graph authors
package cuda.graph.conformance;

import static org.apiguardian.api.API.Status.EXPERIMENTAL;
import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import cuda.graph.CudaGraph;
import cuda.graph.DeviceBuffer;
import cuda.graph.ElementType;
import cuda.graph.GraphNode;
import cuda.graph.GraphUpdate;
import cuda.graph.NodeKind;
import cuda.graph.ScopeBody;
import cuda.graph.Stream;
import cuda.graph.conformance.kernels.ConformanceKernels;
import cuda.graph.spi.HandleKind;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import org.apiguardian.api.API;
import org.jspecify.annotations.Nullable;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.function.Executable;

/**
 * Temporaries ({@code Scope.temporary}): scratch memory a graph allocates and frees in every replay
 * through its allocation and free nodes. Kernels, fills and copies of the capture pass data through
 * it on every replay, in parallel branches and conditional bodies too; graphs with temporaries
 * replay side by side; a recapture records new ones; every use outside the capture is refused
 * before any driver call; and nothing is left once the graphs are closed.
 *
 * @since 0.1.0
 */
@API(status = EXPERIMENTAL, since = "0.1.0")
public interface GraphTemporariesContract extends ConformanceContract {

  /** Elements of each buffer: more than one block of the kit's kernels. */
  int N = 100;

  private static float[] ramp(float start) {
    float[] values = new float[N];
    for (int i = 0; i < N; i++) {
      values[i] = start + i;
    }
    return values;
  }

  private static float[] times(float a, float[] x) {
    float[] y = new float[N];
    for (int i = 0; i < N; i++) {
      y[i] = a * x[i];
    }
    return y;
  }

  /** {@code t = 0; t += 2x; t += x; out = t}: scratch between two kernels, read by a copy. */
  private static ScopeBody tripleThroughATemporary(
      DeviceBuffer<Float> x, DeviceBuffer<Float> out, List<DeviceBuffer<Float>> made) {
    return scope -> {
      DeviceBuffer<Float> t = scope.temporary(ElementType.F32, N);
      made.add(t);
      scope.record(t.fill(0f));
      scope.record(ConformanceKernels.saxpy(2f, x, t));
      scope.record(ConformanceKernels.saxpy(1f, x, t));
      scope.record(out.copyFrom(t));
    };
  }

  /** Two kernels pass data through a temporary, and every replay computes it anew. */
  @Test
  default void aTemporaryBetweenTwoKernelsGivesTheRightResultOnEveryReplay() {
    try (ConformanceSession s = openSession()) {
      Stream stream = s.stream();
      DeviceBuffer<Float> x = s.own(DeviceBuffer.fromArray(ramp(0)).syncOn(stream));
      DeviceBuffer<Float> out = s.own(DeviceBuffer.zeros(ElementType.F32, N).syncOn(stream));
      List<DeviceBuffer<Float>> made = new ArrayList<>();
      try (CudaGraph<@Nullable Void> graph =
          CudaGraph.scope(stream, tripleThroughATemporary(x, out, made))) {
        assertEquals(
            List.of(
                NodeKind.ALLOCATION,
                NodeKind.FILL,
                NodeKind.KERNEL,
                NodeKind.KERNEL,
                NodeKind.COPY,
                NodeKind.FREE),
            graph.nodeKinds());
        for (int replay = 0; replay < 5; replay++) {
          float[] input = ramp(-7f * replay);
          x.write(input).syncOn(stream);
          graph.launch().syncOn(stream);
          assertArrayEquals(
              times(3f, input), out.toFloatArray().syncOn(stream), "replay " + replay);
        }
      }
      assertTrue(made.getFirst().isClosed(), "a temporary is closed once its capture has ended");
    }
  }

  /**
   * Parallel branches and a conditional body use a temporary allocated by the top-level scope; the
   * graph holds one allocation node, before all of them, and one free node, after all of them.
   */
  @Test
  default void branchesAndConditionalBodiesUseATemporaryBetweenItsAllocationAndFreeNodes() {
    try (ConformanceSession s = openSession()) {
      Stream stream = s.stream();
      DeviceBuffer<Integer> out = s.own(DeviceBuffer.zeros(ElementType.I32, N).syncOn(stream));
      try (CudaGraph<@Nullable Void> graph =
          CudaGraph.scope(
              stream,
              scope -> {
                DeviceBuffer<Integer> t = scope.temporary(ElementType.I32, N);
                scope.record(t.fill(40));
                scope.record(
                    GraphNode.parallel(
                        List.of(
                            ConformanceKernels.inc(t.slice(0, N / 2)),
                            ConformanceKernels.inc(t.slice(N / 2, N - N / 2)))));
                scope.ifThen(scope.condition(1), body -> body.record(ConformanceKernels.inc(t)));
                scope.record(out.copyFrom(t));
              })) {
        List<NodeKind> kinds = graph.nodeKinds();
        assertEquals(NodeKind.ALLOCATION, kinds.getFirst(), kinds::toString);
        assertEquals(NodeKind.FREE, kinds.getLast(), kinds::toString);
        assertEquals(1, kinds.stream().filter(k -> k == NodeKind.ALLOCATION).count());
        assertEquals(1, kinds.stream().filter(k -> k == NodeKind.FREE).count());
        int[] expected = new int[N];
        Arrays.fill(expected, 42);
        for (int replay = 0; replay < 3; replay++) {
          out.fill(0).syncOn(stream);
          graph.launch().syncOn(stream);
          assertArrayEquals(expected, out.toIntArray().syncOn(stream), "replay " + replay);
        }
      }
    }
  }

  /** Graphs with temporaries replayed one after the other and on two streams keep apart. */
  @Test
  default void graphsWithTemporariesReplaySideBySide() {
    try (ConformanceSession s = openSession()) {
      Stream first = s.stream();
      Stream second = s.newStream();
      DeviceBuffer<Float> x = s.own(DeviceBuffer.fromArray(ramp(1)).syncOn(first));
      DeviceBuffer<Float> y = s.own(DeviceBuffer.fromArray(ramp(-50)).syncOn(first));
      DeviceBuffer<Float> outX = s.own(DeviceBuffer.zeros(ElementType.F32, N).syncOn(first));
      DeviceBuffer<Float> outY = s.own(DeviceBuffer.zeros(ElementType.F32, N).syncOn(first));
      List<DeviceBuffer<Float>> made = new ArrayList<>();
      try (CudaGraph<@Nullable Void> gx =
              CudaGraph.scope(first, tripleThroughATemporary(x, outX, made));
          CudaGraph<@Nullable Void> gy =
              CudaGraph.scope(second, tripleThroughATemporary(y, outY, made))) {
        for (int replay = 0; replay < 4; replay++) {
          gx.launch().syncOn(first);
          gy.launch().syncOn(first);
        }
        var pending = gy.launch().asyncOn(second);
        gx.launch().syncOn(first);
        pending.join();
        assertArrayEquals(times(3f, ramp(1)), outX.toFloatArray().syncOn(first));
        assertArrayEquals(times(3f, ramp(-50)), outY.toFloatArray().syncOn(first));
      }
    }
  }

  /**
   * A recapture records new temporaries and is instantiated anew (an in-place update would keep the
   * allocation nodes of the first capture); a recapture whose nodes use the earlier capture's
   * temporary is refused and leaves the graph as it was.
   */
  @Test
  default void aRecaptureRecordsNewTemporariesAndRefusesTheEarlierOnes() {
    try (ConformanceSession s = openSession()) {
      Stream stream = s.stream();
      DeviceBuffer<Float> x = s.own(DeviceBuffer.fromArray(ramp(0)).syncOn(stream));
      DeviceBuffer<Float> out = s.own(DeviceBuffer.zeros(ElementType.F32, N).syncOn(stream));
      List<DeviceBuffer<Float>> made = new ArrayList<>();
      try (CudaGraph<@Nullable Void> graph =
          CudaGraph.scope(stream, tripleThroughATemporary(x, out, made))) {
        graph.launch().syncOn(stream);
        for (int recapture = 1; recapture <= 3; recapture++) {
          GraphUpdate update = graph.recapture(tripleThroughATemporary(x, out, made));
          GraphUpdate.Reinstantiated anew =
              assertInstanceOf(GraphUpdate.Reinstantiated.class, update);
          assertTrue(anew.reason().contains("temporaries"), anew.reason());
          float[] input = ramp(recapture * 10f);
          x.write(input).syncOn(stream);
          graph.launch().syncOn(stream);
          assertArrayEquals(times(3f, input), out.toFloatArray().syncOn(stream));
        }
        DeviceBuffer<Float> earliest = made.getFirst();
        assertThrows(
            IllegalStateException.class,
            () ->
                graph.recapture(scope -> scope.record(ConformanceKernels.saxpy(1f, x, earliest))));
        graph.launch().syncOn(stream);
        assertArrayEquals(times(3f, ramp(30f)), out.toFloatArray().syncOn(stream));
      }
      assertEquals(0, s.driver().ledger().live(HandleKind.GRAPH));
      assertEquals(0, s.driver().ledger().live(HandleKind.GRAPH_EXEC));
    }
  }

  /**
   * Once its capture has ended, a temporary is refused by every op that could reach the driver,
   * with a message naming it and its capture, and no driver call is made.
   */
  @Test
  default void everyUseOfATemporaryOutsideItsCaptureIsRefusedBeforeAnyDriverCall() {
    try (ConformanceSession s = openSession()) {
      Stream stream = s.stream();
      DeviceBuffer<Float> x = s.own(DeviceBuffer.fromArray(ramp(0)).syncOn(stream));
      DeviceBuffer<Float> out = s.own(DeviceBuffer.zeros(ElementType.F32, N).syncOn(stream));
      List<DeviceBuffer<Float>> made = new ArrayList<>();
      try (CudaGraph<@Nullable Void> graph =
          CudaGraph.scope(stream, tripleThroughATemporary(x, out, made))) {
        DeviceBuffer<Float> t = made.getFirst();
        List<Executable> uses =
            List.of(
                () -> t.fill(1f),
                () -> ConformanceKernels.saxpy(1f, x, t),
                () -> out.copyFrom(t),
                () -> t.copyFrom(x),
                t::toFloatArray,
                () -> t.write(ramp(0)),
                t::duplicate,
                t::free,
                t::close);
        int calls = s.driver().calls().records().size();
        for (Executable use : uses) {
          IllegalStateException refused = assertThrows(IllegalStateException.class, use);
          assertTrue(refused.getMessage().contains("temporary 1"), refused.getMessage());
          assertTrue(refused.getMessage().contains("scope capture on"), refused.getMessage());
        }
        assertEquals(calls, s.driver().calls().records().size(), "driver calls after refusals");
        graph.launch().syncOn(stream);
        assertArrayEquals(times(3f, ramp(0)), out.toFloatArray().syncOn(stream));
      }
    }
  }
}
