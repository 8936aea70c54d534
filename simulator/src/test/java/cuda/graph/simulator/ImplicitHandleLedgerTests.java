// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 the cuda-graph authors
package cuda.graph.simulator;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import cuda.graph.spi.CaptureMode;
import cuda.graph.spi.ConditionalHandle;
import cuda.graph.spi.ConditionalNode;
import cuda.graph.spi.ConditionalType;
import cuda.graph.spi.CuEvent;
import cuda.graph.spi.CuGraph;
import cuda.graph.spi.CuResult;
import cuda.graph.spi.CuStream;
import cuda.graph.spi.CudaDriverException;
import cuda.graph.spi.DriverCall;
import cuda.graph.spi.HandleKind;
import cuda.graph.testkit.HandleLedger;
import cuda.graph.testkit.LifetimeViolation;
import java.util.List;
import org.junit.jupiter.api.AutoClose;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * How {@link cuda.graph.testkit.InstrumentedDriver} learns the graphs the driver makes itself (the
 * graph a capture records into, the bodies of a conditional node), over a simulator that reuses
 * handle values as the real driver does: a destroyed value that comes back as such a graph is a new
 * object, while a destroyed value that did not come back is still a use after destroy.
 */
@Timeout(20)
class ImplicitHandleLedgerTests {

  @AutoClose
  final SimFixture f = SimFixture.instrumented(Simulator.builder().reuseHandleValues(true));

  private HandleLedger ledger() {
    return f.instruments().ledger();
  }

  private CuGraph destroyedGraph() {
    return destroyedGraphs(1).getFirst();
  }

  /** Graphs that were live together, destroyed in order: the simulator reuses the last first. */
  private List<CuGraph> destroyedGraphs(int count) {
    List<CuGraph> graphs = new java.util.ArrayList<>();
    for (int i = 0; i < count; i++) {
      graphs.add(f.driver.graphCreate(0));
    }
    graphs.forEach(f.driver::graphDestroy);
    return graphs;
  }

  @Test
  void anEventCreatedWithADestroyedEventsValueIsUsable() {
    CuEvent old = f.driver.eventCreate(0);
    f.driver.eventDestroy(old);
    CuEvent fresh = f.driver.eventCreate(0);
    assertEquals(old, fresh, "the simulator handed the value out again");

    assertTrue(f.driver.eventQuery(fresh));
    f.driver.eventDestroy(fresh);
  }

  @Test
  void theGraphACaptureRecordsIntoIsUsableThoughItTookADestroyedGraphsValue() {
    CuGraph destroyed = destroyedGraph();
    long p = f.allocInt();
    f.driver.streamBeginCapture(f.stream, CaptureMode.GLOBAL);
    f.inc(f.stream, p);

    CuGraph capturing = f.driver.streamGetCaptureInfo(f.stream).graph();
    assertEquals(destroyed, capturing, "the capture's graph took the destroyed value");
    assertEquals(1, f.driver.graphGetNodes(capturing).size());
    CuGraph graph = f.driver.streamEndCapture(f.stream);

    assertEquals(1, f.driver.graphGetNodes(graph).size());
    f.driver.graphDestroy(graph);
    assertEquals(List.of(), f.instruments().violations());
  }

  @Test
  void theCapturesGraphIsLiveFromBeginCaptureAndCountedOnlyWhenEndCaptureHandsItOut() {
    CuGraph destroyed = destroyedGraph();
    long graphs = ledger().live(HandleKind.GRAPH);
    long created = ledger().created(HandleKind.GRAPH);
    f.driver.streamBeginCapture(f.stream, CaptureMode.GLOBAL);

    assertEquals(0, f.driver.graphGetNodes(destroyed).size(), "the value names the new graph");
    assertEquals(graphs, ledger().live(HandleKind.GRAPH), "lent by the capture, not the caller's");
    CuGraph graph = f.driver.streamEndCapture(f.stream);
    assertEquals(graphs + 1, ledger().live(HandleKind.GRAPH));
    assertEquals(created + 1, ledger().created(HandleKind.GRAPH));
    f.driver.graphDestroy(graph);

    assertEquals(graphs, ledger().live(HandleKind.GRAPH));
    assertThrows(LifetimeViolation.class, () -> f.driver.graphDestroy(graph));
  }

  @Test
  void aDestroyedGraphWhoseValueNoGraphTookIsStillAUseAfterDestroy() {
    List<CuGraph> destroyed = destroyedGraphs(2);
    CuGraph older = destroyed.get(0);
    CuGraph newer = destroyed.get(1);
    f.driver.streamBeginCapture(f.stream, CaptureMode.GLOBAL);
    assertEquals(newer, f.driver.streamGetCaptureInfo(f.stream).graph(), "last freed first");

    LifetimeViolation v =
        assertThrows(LifetimeViolation.class, () -> f.driver.graphGetNodes(older));
    assertTrue(v.getMessage().contains("destroyed by cuGraphDestroy"), v.getMessage());
    f.driver.graphDestroy(f.driver.streamEndCapture(f.stream));
  }

  @Test
  void aCaptureThatFailsTakesItsGraphWithIt() {
    f.driver.streamBeginCapture(f.stream, CaptureMode.GLOBAL);
    CuGraph capturing = f.driver.streamGetCaptureInfo(f.stream).graph();
    SimFixture.assertStatus(
        CuResult.STREAM_CAPTURE_UNSUPPORTED, () -> f.driver.streamSynchronize(f.stream));
    SimFixture.assertStatus(
        CuResult.STREAM_CAPTURE_INVALIDATED, () -> f.driver.streamEndCapture(f.stream));

    LifetimeViolation v =
        assertThrows(LifetimeViolation.class, () -> f.driver.graphGetNodes(capturing));
    assertTrue(v.getMessage().contains("its capture failed"), v.getMessage());
  }

  @Test
  void anInjectedEndCaptureFailureLeavesTheCaptureAndItsGraphAlive() {
    f.driver.streamBeginCapture(f.stream, CaptureMode.GLOBAL);
    CuGraph capturing = f.driver.streamGetCaptureInfo(f.stream).graph();
    f.instruments().faults().failNth(DriverCall.STREAM_END_CAPTURE, 1, CuResult.UNKNOWN);
    assertThrows(CudaDriverException.class, () -> f.driver.streamEndCapture(f.stream));

    assertEquals(0, f.driver.graphGetNodes(capturing).size());
    CuGraph graph = f.driver.streamEndCapture(f.stream);
    assertEquals(capturing, graph);
    f.driver.graphDestroy(graph);
  }

  @Test
  void aGraphWithheldByAnInjectedNoGraphIsDestroyed() {
    f.driver.streamBeginCapture(f.stream, CaptureMode.GLOBAL);
    CuGraph capturing = f.driver.streamGetCaptureInfo(f.stream).graph();
    f.instruments().faults().endCaptureReturnsNoGraph();
    assertNull(f.driver.streamEndCapture(f.stream));

    assertThrows(LifetimeViolation.class, () -> f.driver.graphGetNodes(capturing));
  }

  @Test
  void conditionalBodiesThatTookDestroyedValuesAreUsableAndGoWithTheirGraph() {
    List<CuGraph> destroyed = destroyedGraphs(2);
    CuGraph first = destroyed.get(0);
    CuGraph second = destroyed.get(1);
    CuStream lane = f.newStream();
    long p = f.allocInt();
    f.driver.streamBeginCapture(f.stream, CaptureMode.GLOBAL);
    CuGraph capturing = f.driver.streamGetCaptureInfo(f.stream).graph();
    assertEquals(second, capturing);
    ConditionalHandle condition =
        f.driver.graphConditionalHandleCreate(capturing, 1, ConditionalHandle.ASSIGN_DEFAULT);
    ConditionalNode node =
        f.driver.graphAddConditionalNode(capturing, List.of(), condition, ConditionalType.IF, 1);
    CuGraph body = node.bodies().getFirst();
    assertEquals(first, body, "the body took the other destroyed value");

    f.driver.streamBeginCaptureToGraph(lane, body, List.of(), CaptureMode.RELAXED);
    f.inc(lane, p);
    assertEquals(body, f.driver.streamEndCapture(lane));
    CuGraph graph = f.driver.streamEndCapture(f.stream);
    assertEquals(1, f.driver.graphGetNodes(body).size());
    f.driver.graphDestroy(graph);

    LifetimeViolation v = assertThrows(LifetimeViolation.class, () -> f.driver.graphGetNodes(body));
    assertTrue(v.getMessage().contains("with its graph " + graph), v.getMessage());
    f.driver.streamDestroy(lane);
  }
}
