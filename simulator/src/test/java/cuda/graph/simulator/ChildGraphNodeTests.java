// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 the cuda-graph authors
package cuda.graph.simulator;

import static cuda.graph.simulator.SimFixture.assertStatus;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import cuda.graph.spi.CaptureInfo;
import cuda.graph.spi.CaptureMode;
import cuda.graph.spi.ConditionalType;
import cuda.graph.spi.CuEvent;
import cuda.graph.spi.CuGraph;
import cuda.graph.spi.CuGraphExec;
import cuda.graph.spi.CuGraphNode;
import cuda.graph.spi.CudaDriver;
import cuda.graph.spi.EventFlags;
import cuda.graph.spi.GraphExecUpdateException;
import cuda.graph.spi.GraphNodeType;
import cuda.graph.spi.HandleKind;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import org.junit.jupiter.api.AutoClose;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * Child-graph nodes: {@code cuGraphAddChildGraphNode} (the node runs a clone of the graph it was
 * given) and {@code cuGraphExecChildGraphNodeSetParams} (an exec's node takes the parameters of a
 * graph of the same topology), and what whole-graph updates, enabling and DOT make of them.
 */
@Timeout(20)
class ChildGraphNodeTests {

  @AutoClose final SimFixture f = SimFixture.instrumented();
  private final ConditionalKit kit = new ConditionalKit(f);
  private final long p = f.allocInt();

  /** A graph that appends each digit to {@code *p}, in order, one kernel node per digit. */
  private CuGraph digits(int... digits) {
    return f.capture(
        () -> {
          for (int d : digits) {
            f.appendDigit(f.stream, p, d);
          }
        });
  }

  /** A new graph holding only a child-graph node of {@code child}. */
  private CuGraph parentOf(CuGraph child) {
    CuGraph parent = f.driver.graphCreate(0);
    f.driver.graphAddChildGraphNode(parent, List.of(), child);
    return parent;
  }

  private CuGraphNode only(CuGraph graph) {
    List<CuGraphNode> nodes = f.driver.graphGetNodes(graph);
    assertEquals(1, nodes.size());
    return nodes.getFirst();
  }

  private int launchAndRead(CuGraphExec exec) {
    f.writeInt(p, 0);
    kit.launch(exec);
    return f.readInt(p);
  }

  // ---- adding

  @Test
  void aChildGraphNodeRunsItsChildsNodesInOrderOnEveryLaunch() {
    CuGraph parent = parentOf(digits(1, 2));
    CuGraphExec exec = f.driver.graphInstantiate(parent, 0);

    kit.launch(exec);
    kit.launch(exec);

    assertEquals(1212, f.readInt(p));
    assertEquals(List.of(GraphNodeType.GRAPH), f.nodeTypes(parent));
  }

  @Test
  void theNodeHoldsACloneSoTheChildStaysTheCallersAndLaterChangesToItDoNotReachTheNode() {
    CuGraph child = digits(1);
    CuGraph parent = parentOf(child);
    f.driver.streamBeginCaptureToGraph(
        f.stream, child, f.driver.graphGetNodes(child), CaptureMode.GLOBAL);
    f.appendDigit(f.stream, p, 2);
    f.driver.streamEndCapture(f.stream);
    long graphsBefore = f.instruments().ledger().live(HandleKind.GRAPH);

    f.driver.graphDestroy(child);

    assertEquals(graphsBefore - 1, f.instruments().ledger().live(HandleKind.GRAPH));
    assertEquals(1, launchAndRead(f.driver.graphInstantiate(parent, 0)));
  }

  @Test
  void aChildAddedDuringACaptureRunsBetweenTheWorkBeforeAndAfterIt() {
    CuGraph child = digits(2);
    f.driver.streamBeginCapture(f.stream, CaptureMode.GLOBAL);
    f.appendDigit(f.stream, p, 1);
    CaptureInfo info = f.driver.streamGetCaptureInfo(f.stream);
    CuGraph captured = info.graph();
    assertNotNull(captured);
    CuGraphNode node = f.driver.graphAddChildGraphNode(captured, info.dependencies(), child);
    f.driver.streamUpdateCaptureDependencies(
        f.stream, List.of(node), CudaDriver.SET_CAPTURE_DEPENDENCIES);
    f.appendDigit(f.stream, p, 3);
    CuGraph graph = f.driver.streamEndCapture(f.stream);
    assertNotNull(graph);

    assertEquals(123, launchAndRead(f.driver.graphInstantiate(graph, 0)));
    assertEquals(
        List.of(GraphNodeType.KERNEL, GraphNodeType.GRAPH, GraphNodeType.KERNEL),
        f.nodeTypes(graph));
  }

  @Test
  void aChildWithAnAllocationNodeIsRefusedWithInvalidValueAndAddsNothing() {
    CuGraph child =
        f.capture(
            () -> {
              long a = f.driver.memAllocAsync(256, f.stream);
              f.driver.memFreeAsync(a, f.stream);
            });
    CuGraph parent = f.driver.graphCreate(0);

    assertStatus(1, () -> f.driver.graphAddChildGraphNode(parent, List.of(), child));
    assertEquals(0, f.driver.graphGetNodes(parent).size());
  }

  @Test
  void aChildWithAConditionalNodeIsRefusedWithInvalidValue() {
    CuGraph child = kit.graphWith(ConditionalType.IF, 1, 1, 0).graph();
    CuGraph parent = f.driver.graphCreate(0);

    assertStatus(1, () -> f.driver.graphAddChildGraphNode(parent, List.of(), child));
    assertEquals(0, f.driver.graphGetNodes(parent).size());
  }

  @Test
  void aGraphCannotBeItsOwnChildNorDependOnAnotherGraphsNode() {
    CuGraph graph = digits(1);
    CuGraph other = digits(2);

    assertStatus(1, () -> f.driver.graphAddChildGraphNode(graph, List.of(), graph));
    assertStatus(1, () -> f.driver.graphAddChildGraphNode(graph, List.of(only(other)), other));
    assertEquals(1, f.driver.graphGetNodes(graph).size());
  }

  @Test
  void anEventRecordedInAChildIsRecordedByTheLaunch() {
    CuEvent event = f.driver.eventCreate(EventFlags.DISABLE_TIMING);
    CuGraph child =
        f.capture(
            () -> {
              f.appendDigit(f.stream, p, 1);
              f.driver.eventRecordWithFlags(event, f.stream, EventFlags.RECORD_EXTERNAL);
            });
    CuGraphExec exec = f.driver.graphInstantiate(parentOf(child), 0);
    CountDownLatch gate = f.gate();
    f.block(f.stream, gate);

    f.driver.graphLaunch(exec, f.stream);
    boolean doneWhileBlocked = f.driver.eventQuery(event);
    gate.countDown();
    f.driver.streamSynchronize(f.stream);

    assertFalse(doneWhileBlocked, "the event stands for the launch, which has not run");
    assertTrue(f.driver.eventQuery(event));
  }

  // ---- per-node parameters of an exec

  @Test
  void anExecsChildGraphNodeTakesTheParametersOfAChildOfTheSameTopology() {
    CuGraph parent = parentOf(digits(1, 2));
    CuGraphExec exec = f.driver.graphInstantiate(parent, 0);

    f.driver.graphExecChildGraphNodeSetParams(exec, only(parent), digits(3, 4));

    assertEquals(34, launchAndRead(exec));
  }

  @Test
  void launchesEnqueuedBeforeTheChangeKeepTheOldChild() {
    CuGraph parent = parentOf(digits(1));
    CuGraphExec exec = f.driver.graphInstantiate(parent, 0);
    CountDownLatch gate = f.gate();
    f.block(f.stream, gate);

    f.driver.graphLaunch(exec, f.stream);
    f.driver.graphExecChildGraphNodeSetParams(exec, only(parent), digits(2));
    f.driver.graphLaunch(exec, f.stream);
    gate.countDown();
    f.driver.streamSynchronize(f.stream);

    assertEquals(12, f.readInt(p));
  }

  @Test
  void theExecKeepsAClone() {
    CuGraph parent = parentOf(digits(1));
    CuGraphExec exec = f.driver.graphInstantiate(parent, 0);
    CuGraph replacement = digits(2);

    f.driver.graphExecChildGraphNodeSetParams(exec, only(parent), replacement);
    f.driver.graphDestroy(replacement);

    assertEquals(2, launchAndRead(exec));
  }

  @Test
  void aChildOfAnotherTopologyIsRefusedWithInvalidValueAndTheExecKeepsItsChild() {
    CuGraph parent = parentOf(digits(1));
    CuGraphExec exec = f.driver.graphInstantiate(parent, 0);
    CuGraph longer = digits(2, 3);
    CuGraph fill = f.capture(() -> f.driver.memsetD32Async(p, 9, 1, f.stream));

    var refused =
        assertStatus(
            1, () -> f.driver.graphExecChildGraphNodeSetParams(exec, only(parent), longer));
    assertStatus(1, () -> f.driver.graphExecChildGraphNodeSetParams(exec, only(parent), fill));

    assertTrue(refused.getMessage().contains("topology"), refused.getMessage());
    assertEquals(1, launchAndRead(exec));
  }

  @Test
  void childParametersOfANodeThatIsNoChildGraphAreInvalidValue() {
    CuGraph graph = digits(1);
    CuGraphExec exec = f.driver.graphInstantiate(graph, 0);

    assertStatus(1, () -> f.driver.graphExecChildGraphNodeSetParams(exec, only(graph), digits(2)));
  }

  @Test
  void aChildGraphNodeCannotBeSwitchedOff() {
    CuGraph parent = parentOf(digits(1));
    CuGraphExec exec = f.driver.graphInstantiate(parent, 0);

    assertStatus(1, () -> f.driver.graphNodeSetEnabled(exec, only(parent), false));
    assertEquals(1, launchAndRead(exec));
  }

  // ---- whole-graph updates

  @Test
  void aWholeGraphUpdateTakesAChildOfTheSameTopologyInPlace() {
    CuGraphExec exec = f.driver.graphInstantiate(parentOf(digits(1, 2)), 0);

    f.driver.graphExecUpdate(exec, parentOf(digits(5, 6)));

    assertEquals(56, launchAndRead(exec));
  }

  @Test
  void aWholeGraphUpdateWithAChildOfAnotherTopologyIsRefusedAtTheChildGraphNode() {
    CuGraphExec exec = f.driver.graphInstantiate(parentOf(digits(1)), 0);
    CuGraph update = parentOf(digits(5, 6));

    GraphExecUpdateException refused =
        assertThrows(GraphExecUpdateException.class, () -> f.driver.graphExecUpdate(exec, update));

    assertEquals(GraphExecUpdateException.TOPOLOGY_CHANGED, refused.updateResult());
    assertEquals(only(update), refused.errorNode());
    assertEquals(1, launchAndRead(exec));
  }

  // ---- DOT

  @Test
  void dotPrintShowsTheChildAsACluster(@TempDir Path dir) throws Exception {
    CuGraph parent = parentOf(digits(7));
    Path file = dir.resolve("g.dot");

    f.driver.graphDebugDotPrint(parent, file, 0);

    String dot = Files.readString(file);
    assertTrue(dot.contains("child graph of " + only(parent)), dot);
    assertTrue(dot.contains("appendDigit"), "the child's kernel is drawn: " + dot);
    assertEquals(
        dot.chars().filter(c -> c == '{').count(),
        dot.chars().filter(c -> c == '}').count(),
        "balanced braces");
  }
}
