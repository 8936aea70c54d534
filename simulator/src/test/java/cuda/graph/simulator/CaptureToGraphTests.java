// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 the cuda-graph authors
package cuda.graph.simulator;

import static cuda.graph.simulator.SimFixture.assertStatus;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import cuda.graph.simulator.ConditionalKit.Built;
import cuda.graph.spi.CaptureMode;
import cuda.graph.spi.CaptureStatus;
import cuda.graph.spi.ConditionalType;
import cuda.graph.spi.CuEvent;
import cuda.graph.spi.CuGraph;
import cuda.graph.spi.CuGraphNode;
import cuda.graph.spi.CuStream;
import cuda.graph.spi.CudaDriver;
import cuda.graph.spi.GraphNodeType;
import java.util.List;
import org.junit.jupiter.api.AutoClose;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * {@code cuStreamBeginCaptureToGraph} and {@code cuStreamUpdateCaptureDependencies}: capturing into
 * a graph that exists, and steering what the next captured node depends on.
 */
@Timeout(20)
class CaptureToGraphTests {

  @AutoClose final SimFixture f = SimFixture.start();
  private final ConditionalKit kit = new ConditionalKit(f);
  private final long p = f.allocInt();
  private final CuStream side = f.newStream();

  private void appendDigit(CuStream s, int digit) {
    f.appendDigit(s, p, digit);
  }

  private CuGraph graphOfOneDigit() {
    return f.capture(() -> appendDigit(f.stream, 1));
  }

  private void beginInto(CuGraph graph, List<CuGraphNode> dependencies) {
    f.driver.streamBeginCaptureToGraph(f.stream, graph, dependencies, CaptureMode.GLOBAL);
  }

  private int runOnce(CuGraph graph) {
    f.writeInt(p, 0);
    kit.launchOnce(graph);
    return f.readInt(p);
  }

  @Test
  void captureIntoAnExistingGraphAppendsItsNodesAndEndCaptureReturnsThatGraph() {
    CuGraph graph = graphOfOneDigit();
    List<CuGraphNode> before = f.driver.graphGetNodes(graph);
    beginInto(graph, before);
    appendDigit(f.stream, 2);
    assertEquals(graph, f.driver.streamEndCapture(f.stream));
    assertEquals(2, f.driver.graphGetNodes(graph).size());
    assertEquals(12, runOnce(graph));
  }

  @Test
  void firstCapturedNodeDependsOnTheGivenDependencies() {
    CuGraph graph = graphOfOneDigit();
    List<CuGraphNode> before = f.driver.graphGetNodes(graph);
    beginInto(graph, before);
    assertEquals(before, f.driver.streamGetCaptureInfo(f.stream).dependencies());
    assertEquals(graph, f.driver.streamGetCaptureInfo(f.stream).graph());
    f.driver.streamEndCapture(f.stream);
  }

  @Test
  void captureIntoAGraphWithoutDependenciesStartsAnotherRoot() {
    CuGraph graph = graphOfOneDigit();
    beginInto(graph, List.of());
    assertEquals(List.of(), f.driver.streamGetCaptureInfo(f.stream).dependencies());
    f.driver.streamEndCapture(f.stream);
  }

  @Test
  void dependencyOfAnotherGraphIsInvalidValueAndStartsNoCapture() {
    CuGraph graph = f.driver.graphCreate(0);
    List<CuGraphNode> foreign = f.driver.graphGetNodes(graphOfOneDigit());
    assertStatus(1, () -> beginInto(graph, foreign));
    assertEquals(CaptureStatus.NONE, f.status(f.stream));
  }

  @Test
  void aStreamThatIsAlreadyCapturingCannotBeginAgain() {
    f.driver.streamBeginCapture(f.stream, CaptureMode.GLOBAL);
    CuGraph graph = f.driver.graphCreate(0);
    assertStatus(401, () -> beginInto(graph, List.of()));
    f.driver.streamEndCapture(f.stream);
  }

  @Test
  void theLegacyStreamCannotCaptureIntoAGraph() {
    CuGraph graph = f.driver.graphCreate(0);
    assertStatus(
        900,
        () ->
            f.driver.streamBeginCaptureToGraph(
                CuStream.LEGACY, graph, List.of(), CaptureMode.GLOBAL));
  }

  @Test
  void aGraphCanBeCapturedIntoByOneCaptureAtATime() {
    CuGraph graph = f.driver.graphCreate(0);
    beginInto(graph, List.of());
    assertStatus(
        401, () -> f.driver.streamBeginCaptureToGraph(side, graph, List.of(), CaptureMode.GLOBAL));
    f.driver.streamEndCapture(f.stream);
  }

  @Test
  void destroyingAGraphWhileItIsCapturedIntoIsUndefinedBehaviour() {
    CuGraph graph = f.driver.graphCreate(0);
    beginInto(graph, List.of());
    assertThrows(UndefinedBehaviorException.class, () -> f.driver.graphDestroy(graph));
    f.driver.streamEndCapture(f.stream);
  }

  @Test
  void forkAndJoinThroughEventsWorkInACaptureIntoAGraph() {
    CuEvent fork = f.driver.eventCreate(0);
    CuEvent join = f.driver.eventCreate(0);
    long q = f.allocInt();
    CuGraph graph = f.driver.graphCreate(0);
    beginInto(graph, List.of());
    appendDigit(f.stream, 1);
    f.driver.eventRecord(fork, f.stream);
    f.driver.streamWaitEvent(side, fork, 0);
    f.store(side, q, 7);
    f.driver.eventRecord(join, side);
    f.driver.streamWaitEvent(f.stream, join, 0);
    appendDigit(f.stream, 2);
    assertEquals(graph, f.driver.streamEndCapture(f.stream));
    assertEquals(CaptureStatus.NONE, f.status(side));
    assertEquals(12, runOnce(graph));
    assertEquals(7, f.readInt(q));
  }

  @Test
  void unjoinedWorkFails904AndRemovesOnlyTheNodesThatCaptureAdded() {
    CuEvent fork = f.driver.eventCreate(0);
    CuGraph graph = graphOfOneDigit();
    beginInto(graph, f.driver.graphGetNodes(graph));
    appendDigit(f.stream, 2);
    f.driver.eventRecord(fork, f.stream);
    f.driver.streamWaitEvent(side, fork, 0);
    appendDigit(side, 3);
    assertStatus(904, () -> f.driver.streamEndCapture(f.stream));
    assertEquals(CaptureStatus.NONE, f.status(f.stream));
    assertEquals(CaptureStatus.NONE, f.status(side));
    assertEquals(List.of(GraphNodeType.KERNEL), f.nodeTypes(graph), "the graph is as before");
    assertEquals(1, runOnce(graph));
  }

  @Test
  void invalidatedCaptureIntoAGraphFails901AndLeavesTheGraphToItsOwner() {
    CuGraph graph = graphOfOneDigit();
    beginInto(graph, List.of());
    appendDigit(f.stream, 2);
    assertStatus(900, () -> f.driver.streamSynchronize(f.stream));
    assertStatus(901, () -> f.driver.streamEndCapture(f.stream));
    assertEquals(1, f.driver.graphGetNodes(graph).size());
    f.driver.graphDestroy(graph);
  }

  // ---- cuStreamUpdateCaptureDependencies

  @Test
  void addingAConditionalNodeDuringCaptureAndSettingItAsTheDependencyOrdersWhatFollows() {
    f.driver.streamBeginCapture(f.stream, CaptureMode.GLOBAL);
    appendDigit(f.stream, 1);
    Built built = kit.addToCapture(f.stream, ConditionalType.IF, 1, 1, 0);
    assertEquals(
        List.of(built.node().node()), f.driver.streamGetCaptureInfo(f.stream).dependencies());
    appendDigit(f.stream, 3);
    CuGraph graph = f.driver.streamEndCapture(f.stream);
    kit.captureInto(built.body(0), () -> appendDigit(f.stream, 2));
    assertEquals(graph, built.graph());
    assertEquals(
        List.of(GraphNodeType.KERNEL, GraphNodeType.CONDITIONAL, GraphNodeType.KERNEL),
        f.nodeTypes(graph));
    assertEquals(123, runOnce(graph));
  }

  @Test
  void setReplacesAndAddExtendsTheDependenciesOfTheNextCapturedNode() {
    f.driver.streamBeginCapture(f.stream, CaptureMode.GLOBAL);
    appendDigit(f.stream, 1);
    appendDigit(f.stream, 2);
    CuGraph graph = f.driver.streamGetCaptureInfo(f.stream).graph();
    List<CuGraphNode> nodes = f.driver.graphGetNodes(graph);
    f.driver.streamUpdateCaptureDependencies(
        f.stream, List.of(nodes.get(0)), CudaDriver.SET_CAPTURE_DEPENDENCIES);
    assertEquals(List.of(nodes.get(0)), f.driver.streamGetCaptureInfo(f.stream).dependencies());
    f.driver.streamUpdateCaptureDependencies(
        f.stream, List.of(nodes.get(1)), CudaDriver.ADD_CAPTURE_DEPENDENCIES);
    assertEquals(nodes, f.driver.streamGetCaptureInfo(f.stream).dependencies());
    f.driver.streamEndCapture(f.stream);
  }

  @Test
  void updatingTheDependenciesOfAStreamThatIsNotCapturingIsIllegalState() {
    CuGraph graph = graphOfOneDigit();
    assertStatus(
        401,
        () ->
            f.driver.streamUpdateCaptureDependencies(
                f.stream, f.driver.graphGetNodes(graph), CudaDriver.SET_CAPTURE_DEPENDENCIES));
  }

  @Test
  void dependenciesMustBeNodesOfTheCapturesGraph() {
    List<CuGraphNode> foreign = f.driver.graphGetNodes(graphOfOneDigit());
    f.driver.streamBeginCapture(f.stream, CaptureMode.GLOBAL);
    assertStatus(
        1,
        () ->
            f.driver.streamUpdateCaptureDependencies(
                f.stream, foreign, CudaDriver.SET_CAPTURE_DEPENDENCIES));
    f.driver.streamEndCapture(f.stream);
  }

  @Test
  void unknownUpdateFlagsAreInvalidValue() {
    f.driver.streamBeginCapture(f.stream, CaptureMode.GLOBAL);
    assertStatus(1, () -> f.driver.streamUpdateCaptureDependencies(f.stream, List.of(), 2));
    f.driver.streamEndCapture(f.stream);
  }
}
