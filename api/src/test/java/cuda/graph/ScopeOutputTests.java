// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 the cuda-graph authors
package cuda.graph;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import org.jspecify.annotations.Nullable;
import org.junit.jupiter.api.Test;

/**
 * {@code CudaGraph.scopeReturning}: what the body returns is the graph's output, so the nodes to
 * change later leave the body without a holder, and {@code recaptureReturning} hands out the new
 * capture's nodes while the old ones go stale.
 */
class ScopeOutputTests extends InstrumentedPlatformFixture {

  private DeviceBuffer<Integer> ints(int... values) {
    return DeviceBuffer.fromArray(values).syncOn(stream);
  }

  private int[] read(DeviceBuffer<Integer> buffer) {
    return buffer.toIntArray().syncOn(stream);
  }

  /** Two nodes a graph hands out, to change one and switch the other off. */
  private record Fills(RecordedNode first, RecordedNode second) {}

  @Test
  void theRecordedNodeABodyReturnsIsTheGraphsOutputAndTakesAReplacement() {
    try (DeviceBuffer<Integer> a = ints(0, 0);
        DeviceBuffer<Integer> b = ints(0, 0);
        CudaGraph<RecordedNode> graph =
            CudaGraph.scopeReturning(stream, scope -> scope.recordNode(a.fill(3)))) {
      RecordedNode fill = graph.takeOutput();
      graph.launch().syncOn(stream);
      assertArrayEquals(new int[] {3, 3}, read(a));

      graph.replaceNode(fill, b.fill(7));
      graph.launch().syncOn(stream);

      assertArrayEquals(new int[] {7, 7}, read(b));
      assertArrayEquals(new int[] {3, 3}, read(a), "the replaced node no longer writes a");
    }
  }

  @Test
  void aRecordOfSeveralNodesLeavesTheBodyAsOneOutput() {
    try (DeviceBuffer<Integer> a = ints(0, 0);
        DeviceBuffer<Integer> b = ints(0, 0);
        CudaGraph<Fills> graph =
            CudaGraph.scopeReturning(
                stream,
                scope -> new Fills(scope.recordNode(a.fill(1)), scope.recordNode(b.fill(2))))) {
      Fills fills = graph.takeOutput();
      graph.setEnabled(fills.second(), false);
      graph.launch().syncOn(stream);

      assertArrayEquals(new int[] {1, 1}, read(a));
      assertArrayEquals(new int[] {0, 0}, read(b), "the node switched off wrote nothing");
      assertEquals(List.of(NodeKind.FILL, NodeKind.FILL), graph.nodeKinds());
    }
  }

  @Test
  void theOutputIsHandedOutOnce() {
    try (DeviceBuffer<Integer> a = ints(0);
        CudaGraph<RecordedNode> graph =
            CudaGraph.scopeReturning(stream, scope -> scope.recordNode(a.fill(1)))) {
      graph.takeOutput();

      IllegalStateException e = assertThrows(IllegalStateException.class, graph::takeOutput);
      assertTrue(e.getMessage().contains("already taken"), e.getMessage());
    }
  }

  @Test
  void aRecaptureReturningHandsOutTheNewNodesAndTheOldOnesGoStale() {
    try (DeviceBuffer<Integer> a = ints(0, 0);
        DeviceBuffer<Integer> b = ints(0, 0);
        DeviceBuffer<Integer> c = ints(0, 0);
        CudaGraph<RecordedNode> graph =
            CudaGraph.scopeReturning(stream, scope -> scope.recordNode(a.fill(1)))) {
      RecordedNode old = graph.takeOutput();

      GraphUpdate applied = graph.recaptureReturning(scope -> scope.recordNode(b.fill(2)));
      RecordedNode fresh = graph.takeOutput();

      assertInstanceOf(GraphUpdate.InPlace.class, applied, "one fill for another: in place");
      IllegalStateException stale =
          assertThrows(IllegalStateException.class, () -> graph.replaceNode(old, c.fill(9)));
      assertTrue(stale.getMessage().contains("stale"), stale.getMessage());
      graph.replaceNode(fresh, c.fill(4));
      graph.launch().syncOn(stream);
      assertArrayEquals(new int[] {0, 0}, read(a));
      assertArrayEquals(new int[] {0, 0}, read(b), "b's fill was replaced before any launch");
      assertArrayEquals(new int[] {4, 4}, read(c));
    }
  }

  @Test
  void aGraphOfAScopeTakesAFunctionReturningNullAndAFunctionsGraphRefusesABody() {
    try (DeviceBuffer<Integer> a = ints(0);
        CudaGraph<@Nullable Void> body = CudaGraph.scope(stream, scope -> scope.record(a.fill(1)));
        CudaGraph<RecordedNode> function =
            CudaGraph.scopeReturning(stream, scope -> scope.recordNode(a.fill(2)))) {
      body.recaptureReturning(
          scope -> {
            scope.record(a.fill(5));
            return null;
          });
      assertNull(body.takeOutput());
      body.launch().syncOn(stream);
      assertArrayEquals(new int[] {5}, read(a));

      IllegalStateException refused =
          assertThrows(IllegalStateException.class, () -> function.recapture(scope -> {}));
      assertTrue(
          refused.getMessage().contains("recaptureReturning(ScopeFunction)"), refused.getMessage());
      RecordedNode node = function.takeOutput();
      IllegalStateException op =
          assertThrows(IllegalStateException.class, () -> function.recapture(DeviceOp.value(node)));
      assertTrue(op.getMessage().contains("scopeReturning"), op.getMessage());
    }
  }

  @Test
  void aCapturedOpsGraphRefusesAScopeFunction() {
    try (DeviceBuffer<Integer> a = ints(0);
        CudaGraph<@Nullable Void> graph = CudaGraph.capture(stream, a.fill(1))) {
      IllegalStateException e =
          assertThrows(
              IllegalStateException.class,
              () ->
                  graph.recaptureReturning(
                      scope -> {
                        scope.record(a.fill(2));
                        return null;
                      }));
      assertTrue(e.getMessage().contains("recapture(op)"), e.getMessage());
    }
  }

  @Test
  void whatABodyThrowsPropagatesAndLeavesNoGraph() {
    IllegalStateException thrown = new IllegalStateException("the body gives up");
    try (DeviceBuffer<Integer> a = ints(0)) {
      IllegalStateException e =
          assertThrows(
              IllegalStateException.class,
              () ->
                  CudaGraph.scopeReturning(
                      stream,
                      scope -> {
                        scope.recordNode(a.fill(1));
                        throw thrown;
                      }));
      assertSame(thrown, e);
    }
    // The fixture checks afterwards that no graph, exec or memory is left alive.
  }
}
