// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 the cuda-graph authors
package cuda.graph.conformance;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import cuda.graph.CudaGraph;
import cuda.graph.DeviceBuffer;
import cuda.graph.ElementType;
import cuda.graph.GraphCondition;
import cuda.graph.Stream;
import cuda.graph.conformance.kernels.ConformanceKernels;
import cuda.graph.simulator.Simulator;
import cuda.graph.spi.CudaDriver;
import cuda.graph.spi.HandleKind;
import org.jspecify.annotations.Nullable;
import org.junit.jupiter.api.Test;
import org.opentest4j.AssertionFailedError;

/**
 * The kit on a simulator that reuses handle values as the real driver does: a graph the driver
 * makes itself (the one a capture records into, a conditional node's body) may take the value of a
 * graph destroyed earlier, and is a new object, not a use after destroy (issue 23, item 12: on the
 * H200 every recordNode after a graph was destroyed failed with a LifetimeViolation).
 */
class ReusedHandleValuesTests {

  private static ConformanceSession openSession() {
    return ConformanceSession.open(
        Simulator.builder().reuseHandleValues(true).build(), "simulator");
  }

  /** Captures and runs a one-kernel graph. */
  private static CudaGraph<@Nullable Void> incGraph(Stream stream, DeviceBuffer<Integer> buffer) {
    CudaGraph<@Nullable Void> graph =
        CudaGraph.scope(stream, scope -> scope.record(ConformanceKernels.inc(buffer)));
    graph.launch().syncOn(stream);
    return graph;
  }

  /** Captures, runs and closes a one-kernel graph, so that its graph's value is free again. */
  private static void destroyAGraph(Stream stream, DeviceBuffer<Integer> buffer) {
    incGraph(stream, buffer).close();
  }

  /**
   * {@link HandleValueReuseContract}, which holds the simulator's model to the real driver, can
   * fail: a simulator that never hands a value out twice (the default outside this kit) fails it.
   */
  @Test
  void theReuseContractFailsASimulatorThatNeverHandsAValueOutTwice() {
    HandleValueReuseContract neverReuses =
        new HandleValueReuseContract() {
          @Override
          public CudaDriver openDriver() {
            return Simulator.builder().reuseHandleValues(false).build();
          }
        };
    HandleValueReuseContract reuses =
        new HandleValueReuseContract() {
          @Override
          public CudaDriver openDriver() {
            return Simulator.builder().reuseHandleValues(true).build();
          }
        };

    reuses.aCapturesGraphIsTheOneEndCaptureReturnsAndTakesADestroyedGraphsValue();
    String message =
        assertThrows(
                AssertionFailedError.class,
                neverReuses::aCapturesGraphIsTheOneEndCaptureReturnsAndTakesADestroyedGraphsValue)
            .getMessage();
    assertTrue(message.startsWith("0 of 1000 capture graphs had the value"), message);
  }

  @Test
  void aNodeRecordedAfterAGraphWasDestroyedIsNoUseOfTheDestroyedGraph() {
    try (ConformanceSession s = openSession()) {
      Stream stream = s.stream();
      DeviceBuffer<Integer> a = s.own(DeviceBuffer.zeros(ElementType.I32, 4).syncOn(stream));
      destroyAGraph(stream, a);

      try (CudaGraph<@Nullable Void> graph =
          CudaGraph.scope(stream, scope -> scope.recordNode(ConformanceKernels.inc(a)))) {
        graph.launch().syncOn(stream);
      }

      assertArrayEquals(new int[] {2, 2, 2, 2}, a.toIntArray().syncOn(stream));
      assertEquals(0, s.driver().ledger().live(HandleKind.GRAPH));
    }
  }

  @Test
  void aConditionalBodyThatTakesADestroyedGraphsValueIsRecordedInto() {
    try (ConformanceSession s = openSession()) {
      Stream stream = s.stream();
      DeviceBuffer<Integer> a = s.own(DeviceBuffer.zeros(ElementType.I32, 4).syncOn(stream));
      // Two graphs live at once, then destroyed: the capture below takes the value of the second,
      // its conditional node's body the value of the first.
      CudaGraph<@Nullable Void> first = incGraph(stream, a);
      CudaGraph<@Nullable Void> second = incGraph(stream, a);
      assertEquals(2, s.driver().ledger().live(HandleKind.GRAPH));
      first.close();
      second.close();

      try (CudaGraph<@Nullable Void> graph =
          CudaGraph.scope(
              stream,
              scope -> {
                GraphCondition always = scope.condition(1);
                scope.ifThen(always, body -> body.record(ConformanceKernels.inc(a)));
              })) {
        graph.launch().syncOn(stream);
      }

      assertArrayEquals(new int[] {3, 3, 3, 3}, a.toIntArray().syncOn(stream));
    }
  }
}
