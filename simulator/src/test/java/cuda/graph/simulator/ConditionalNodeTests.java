// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 the cuda-graph authors
package cuda.graph.simulator;

import static cuda.graph.simulator.SimFixture.assertStatus;
import static org.junit.jupiter.api.Assertions.assertDoesNotThrow;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import cuda.graph.simulator.ConditionalKit.Built;
import cuda.graph.spi.CaptureMode;
import cuda.graph.spi.ConditionalHandle;
import cuda.graph.spi.ConditionalNode;
import cuda.graph.spi.ConditionalType;
import cuda.graph.spi.CuGraph;
import cuda.graph.spi.CuGraphExec;
import cuda.graph.spi.CudaDriver;
import cuda.graph.spi.CudaDriverException;
import cuda.graph.spi.GraphNodeType;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.AutoClose;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/** Conditional handles and nodes: how launches run their bodies, and what they refuse. */
@Timeout(20)
class ConditionalNodeTests {

  @AutoClose final SimFixture f = SimFixture.start();
  private final ConditionalKit kit = new ConditionalKit(f);
  private final long p = f.allocInt();

  private void appendDigit(int digit) {
    f.appendDigit(f.stream, p, digit);
  }

  /** A graph: {@code setCondition(value)}, then a conditional node, then {@code appendDigit(9)}. */
  private Built conditionSetBy(int value, ConditionalType type, int size) {
    CuGraph graph = f.driver.graphCreate(0);
    f.driver.streamBeginCaptureToGraph(f.stream, graph, List.of(), CaptureMode.GLOBAL);
    ConditionalHandle handle = f.driver.graphConditionalHandleCreate(graph, 0, 0);
    kit.setCondition(f.stream, handle, value);
    var info = f.driver.streamGetCaptureInfo(f.stream);
    ConditionalNode node =
        f.driver.graphAddConditionalNode(graph, info.dependencies(), handle, type, size);
    f.driver.streamUpdateCaptureDependencies(
        f.stream, List.of(node.node()), CudaDriver.SET_CAPTURE_DEPENDENCIES);
    appendDigit(9);
    f.driver.streamEndCapture(f.stream);
    return new Built(graph, handle, node);
  }

  private void fillBodiesWithTheirDigits(Built built, int size) {
    for (int b = 0; b < size; b++) {
      int digit = b + 1;
      kit.captureInto(built.body(b), () -> appendDigit(digit));
    }
  }

  private int runOnce(CuGraph graph) {
    f.writeInt(p, 0);
    kit.launchOnce(graph);
    return f.readInt(p);
  }

  // ---- IF

  @ParameterizedTest(name = "condition {0} -> {1}")
  @CsvSource({"1, 19", "7, 19", "0, 9"})
  void ifNodeWithOneBodyRunsItOnceWhenTheConditionIsNonZero(int condition, int expected) {
    Built built = conditionSetBy(condition, ConditionalType.IF, 1);
    fillBodiesWithTheirDigits(built, 1);
    assertEquals(expected, runOnce(built.graph()));
  }

  @ParameterizedTest(name = "condition {0} -> {1}")
  @CsvSource({"1, 19", "0, 29"})
  void ifNodeWithTwoBodiesRunsTheSecondWhenTheConditionIsZero(int condition, int expected) {
    Built built = conditionSetBy(condition, ConditionalType.IF, 2);
    fillBodiesWithTheirDigits(built, 2);
    assertEquals(expected, runOnce(built.graph()));
  }

  @Test
  void conditionStartsAtTheHandlesDefaultWhenNoKernelSetsIt() {
    Built on = kit.graphWith(ConditionalType.IF, 1, 1, 0);
    fillBodiesWithTheirDigits(on, 1);
    Built off = kit.graphWith(ConditionalType.IF, 1, 0, 0);
    fillBodiesWithTheirDigits(off, 1);
    assertEquals(1, runOnce(on.graph()));
    assertEquals(0, runOnce(off.graph()));
  }

  // ---- WHILE

  @Test
  void whileNodeRunsItsBodyUntilAKernelClearsTheCondition() {
    long counter = f.allocInt();
    f.writeInt(counter, 3);
    Built loop = kit.graphWith(ConditionalType.WHILE, 1, 1, 0);
    kit.captureInto(
        loop.body(0),
        () -> {
          appendDigit(4);
          kit.countDown(f.stream, counter, loop.handle());
        });
    assertEquals(444, runOnce(loop.graph()), "three iterations");
    assertEquals(0, f.readInt(counter));
  }

  @Test
  void whileNodeTestsBeforeTheFirstIterationSoAZeroConditionRunsNothing() {
    Built loop = kit.graphWith(ConditionalType.WHILE, 1, 0, 0);
    kit.captureInto(loop.body(0), () -> appendDigit(4));
    assertEquals(0, runOnce(loop.graph()));
  }

  @Test
  void whileNestedInIfRunsOnlyWhenTheOuterConditionHolds() {
    long counter = f.allocInt();
    for (int outer : new int[] {1, 0}) {
      Built gate = conditionSetBy(outer, ConditionalType.IF, 1);
      Built loop = kit.addTo(gate.body(0), ConditionalType.WHILE, 1, 1, 0);
      kit.captureInto(
          loop.body(0),
          () -> {
            appendDigit(5);
            kit.countDown(f.stream, counter, loop.handle());
          });
      f.writeInt(counter, 2);
      assertEquals(outer == 1 ? 559 : 9, runOnce(gate.graph()), "outer condition " + outer);
    }
  }

  // ---- SWITCH

  @ParameterizedTest(name = "condition {0} -> {1}")
  @CsvSource({"0, 19", "1, 29", "2, 39"})
  void switchNodeRunsTheBodyTheConditionNames(int condition, int expected) {
    Built built = conditionSetBy(condition, ConditionalType.SWITCH, 3);
    fillBodiesWithTheirDigits(built, 3);
    assertEquals(expected, runOnce(built.graph()));
  }

  @ParameterizedTest(name = "condition {0}")
  @CsvSource({"3", "100", "-1"})
  void switchNodeWithTheConditionOutOfRangeRunsNothing(int condition) {
    Built built = conditionSetBy(condition, ConditionalType.SWITCH, 3);
    fillBodiesWithTheirDigits(built, 3);
    assertEquals(9, runOnce(built.graph()), "only the node after the switch ran");
  }

  // ---- the value across launches

  /** An IF node whose condition starts at 1 and whose body appends 1 and clears the condition. */
  private CuGraphExec runsOnceUnlessReset(int flags) {
    Built built = kit.graphWith(ConditionalType.IF, 1, 1, flags);
    kit.captureInto(
        built.body(0),
        () -> {
          appendDigit(1);
          kit.setCondition(f.stream, built.handle(), 0);
        });
    return f.driver.graphInstantiate(built.graph(), 0);
  }

  @Test
  void conditionCreatedWithAssignDefaultStartsEveryLaunchAtItsDefault() {
    CuGraphExec exec = runsOnceUnlessReset(ConditionalHandle.ASSIGN_DEFAULT);
    kit.launch(exec);
    kit.launch(exec);
    assertEquals(11, f.readInt(p), "the body ran in both launches");
  }

  @Test
  void conditionCreatedWithoutAssignDefaultKeepsItsValueAcrossLaunchesOfTheExec() {
    CuGraphExec exec = runsOnceUnlessReset(0);
    kit.launch(exec);
    kit.launch(exec);
    assertEquals(1, f.readInt(p), "the first launch cleared the condition for the second");
  }

  @Test
  void eachExecHasItsOwnConditionValueStartingAtTheDefault() {
    Built built = kit.graphWith(ConditionalType.IF, 1, 1, 0);
    kit.captureInto(
        built.body(0),
        () -> {
          appendDigit(1);
          kit.setCondition(f.stream, built.handle(), 0);
        });
    kit.launchOnce(built.graph());
    kit.launchOnce(built.graph());
    assertEquals(11, f.readInt(p));
  }

  // ---- setting a condition outside its graph's launch

  @Test
  void settingAConditionFromAKernelLaunchedOnAStreamIsUndefinedBehaviour() {
    CuGraph graph = f.driver.graphCreate(0);
    ConditionalHandle handle = f.driver.graphConditionalHandleCreate(graph, 0, 0);
    kit.trySetCondition(f.stream, handle, 1);
    CudaDriverException failure =
        assertThrows(CudaDriverException.class, () -> f.driver.streamSynchronize(f.stream));
    assertEquals(719, failure.status(), "the simulator stops the context: " + failure);
    UndefinedBehaviorException refused =
        assertInstanceOf(UndefinedBehaviorException.class, kit.refused.get());
    assertTrue(refused.getMessage().contains("outside a graph launch"), refused.getMessage());
  }

  @Test
  void settingAConditionOfAnotherGraphIsUndefinedBehaviour() {
    CuGraph other = f.driver.graphCreate(0);
    ConditionalHandle foreign = f.driver.graphConditionalHandleCreate(other, 0, 0);
    Built built = kit.graphWith(ConditionalType.IF, 1, 1, 0);
    kit.captureInto(built.body(0), () -> kit.trySetCondition(f.stream, foreign, 1));
    CuGraphExec exec = f.driver.graphInstantiate(built.graph(), 0);
    f.driver.graphLaunch(exec, f.stream);
    assertStatus(719, () -> f.driver.streamSynchronize(f.stream));
    UndefinedBehaviorException refused =
        assertInstanceOf(UndefinedBehaviorException.class, kit.refused.get());
    assertTrue(
        refused.getMessage().contains("no conditional node with that handle"),
        refused.getMessage());
  }

  // ---- creating handles and nodes

  @ParameterizedTest(name = "{0} with {1} bodies")
  @CsvSource({"WHILE, 0", "WHILE, 2", "IF, 0", "IF, 3", "SWITCH, 0", "SWITCH, -1"})
  void conditionalNodeWithTheWrongNumberOfBodiesIsInvalidValue(ConditionalType type, int size) {
    CuGraph graph = f.driver.graphCreate(0);
    ConditionalHandle handle = f.driver.graphConditionalHandleCreate(graph, 0, 0);
    assertStatus(1, () -> f.driver.graphAddConditionalNode(graph, List.of(), handle, type, size));
    assertEquals(List.of(), f.driver.graphGetNodes(graph), "no node was added");
  }

  @ParameterizedTest(name = "{0} with {1} bodies")
  @CsvSource({"WHILE, 1", "IF, 1", "IF, 2", "SWITCH, 1", "SWITCH, 5"})
  void conditionalNodeWithAnAllowedNumberOfBodiesGetsThatManyEmptyBodies(
      ConditionalType type, int size) {
    Built built = kit.graphWith(type, size, 0, 0);
    assertEquals(size, built.node().bodies().size());
    for (CuGraph body : built.node().bodies()) {
      assertEquals(List.of(), f.driver.graphGetNodes(body));
    }
    assertEquals(size, built.node().bodies().stream().distinct().count(), "distinct graphs");
  }

  @Test
  void handleCreatedForAnotherGraphIsInvalidValue() {
    CuGraph graph = f.driver.graphCreate(0);
    CuGraph other = f.driver.graphCreate(0);
    ConditionalHandle foreign = f.driver.graphConditionalHandleCreate(other, 0, 0);
    assertStatus(
        1,
        () -> f.driver.graphAddConditionalNode(graph, List.of(), foreign, ConditionalType.IF, 1));
  }

  @Test
  void handleCanBeTheConditionOfOneNodeOnly() {
    Built built = kit.graphWith(ConditionalType.IF, 1, 0, 0);
    assertStatus(
        1,
        () ->
            f.driver.graphAddConditionalNode(
                built.graph(), List.of(), built.handle(), ConditionalType.IF, 1));
  }

  @Test
  void handleCreateRefusesUnknownFlagsWithInvalidValue() {
    CuGraph graph = f.driver.graphCreate(0);
    assertStatus(1, () -> f.driver.graphConditionalHandleCreate(graph, 0, 2));
  }

  @Test
  void dependencyOfAnotherGraphIsInvalidValue() {
    CuGraph other = f.capture(() -> appendDigit(1));
    CuGraph graph = f.driver.graphCreate(0);
    ConditionalHandle handle = f.driver.graphConditionalHandleCreate(graph, 0, 0);
    assertStatus(
        1,
        () ->
            f.driver.graphAddConditionalNode(
                graph, f.driver.graphGetNodes(other), handle, ConditionalType.IF, 1));
  }

  @Test
  void handleOfADestroyedGraphIsUndefinedBehaviour() {
    CuGraph graph = f.driver.graphCreate(0);
    ConditionalHandle handle = f.driver.graphConditionalHandleCreate(graph, 0, 0);
    f.driver.graphDestroy(graph);
    CuGraph next = f.driver.graphCreate(0);
    assertThrows(
        UndefinedBehaviorException.class,
        () -> f.driver.graphAddConditionalNode(next, List.of(), handle, ConditionalType.IF, 1));
  }

  @Test
  void conditionalNodeIsOfTypeConditionalAndGetNodesListsTopLevelNodesOnly() {
    Built built = kit.graphWith(ConditionalType.IF, 2, 0, 0);
    fillBodiesWithTheirDigits(built, 2);
    assertEquals(List.of(GraphNodeType.CONDITIONAL), f.nodeTypes(built.graph()));
    assertEquals(List.of(GraphNodeType.KERNEL), f.nodeTypes(built.body(1)));
  }

  // ---- bodies belong to their node

  @Test
  void destroyingABodyWithGraphDestroyIsRefused() {
    Built built = kit.graphWith(ConditionalType.IF, 1, 0, 0);
    UndefinedBehaviorException e =
        assertThrows(UndefinedBehaviorException.class, () -> f.driver.graphDestroy(built.body(0)));
    assertTrue(e.getMessage().contains("owns"), e.getMessage());
    assertDoesNotThrow(() -> f.driver.graphGetNodes(built.body(0)), "the body is still there");
  }

  @Test
  void bodiesAreDestroyedWithTheGraphHoldingTheirNode() {
    Built built = kit.graphWith(ConditionalType.IF, 1, 0, 0);
    f.driver.graphDestroy(built.graph());
    assertThrows(UndefinedBehaviorException.class, () -> f.driver.graphGetNodes(built.body(0)));
  }

  @Test
  void destroyingAGraphWhileOneOfItsBodiesIsCapturedIntoIsUndefinedBehaviour() {
    Built built = kit.graphWith(ConditionalType.IF, 1, 0, 0);
    f.driver.streamBeginCaptureToGraph(f.stream, built.body(0), List.of(), CaptureMode.GLOBAL);
    assertThrows(UndefinedBehaviorException.class, () -> f.driver.graphDestroy(built.graph()));
    f.driver.streamEndCapture(f.stream);
    assertDoesNotThrow(() -> f.driver.graphDestroy(built.graph()), "after the capture it can go");
  }

  // ---- instantiation

  @Test
  void execKeepsTheBodiesAsTheyWereAtInstantiation() {
    Built built = kit.graphWith(ConditionalType.IF, 1, 1, 0);
    kit.captureInto(built.body(0), () -> appendDigit(1));
    CuGraphExec exec = f.driver.graphInstantiate(built.graph(), 0);
    kit.captureInto(built.body(0), () -> appendDigit(2));
    kit.launch(exec);
    assertEquals(1, f.readInt(p), "the digit captured after instantiation did not run");
    assertEquals(12, runOnce(built.graph()), "a new exec runs both");
  }

  @Test
  void instantiatingAGraphWhoseBodyHoldsAHostFunctionIsNotSupportedAndNamesTheNodeType() {
    Built built = kit.graphWith(ConditionalType.IF, 1, 1, 0);
    kit.captureInto(built.body(0), () -> f.driver.launchHostFunc(f.stream, () -> {}));
    CudaDriverException e = assertStatus(801, () -> f.driver.graphInstantiate(built.graph(), 0));
    assertTrue(e.getMessage().contains("HOST"), e.getMessage());
  }

  @Test
  void forbiddenNodesAreFoundInNestedBodiesToo() {
    Built outer = kit.graphWith(ConditionalType.WHILE, 1, 0, 0);
    Built inner = kit.addTo(outer.body(0), ConditionalType.IF, 1, 0, 0);
    kit.captureInto(
        inner.body(0),
        () -> f.driver.memFreeAsync(f.driver.memAllocAsync(256, f.stream), f.stream));
    CudaDriverException e = assertStatus(801, () -> f.driver.graphInstantiate(outer.graph(), 0));
    assertTrue(e.getMessage().contains("MEM_ALLOC"), e.getMessage());
  }

  @Test
  void graphWhoseBodiesHoldOnlyAllowedNodesInstantiates() {
    long q = f.allocInt();
    Built built = kit.graphWith(ConditionalType.SWITCH, 2, 0, 0);
    kit.captureInto(
        built.body(0),
        () -> {
          appendDigit(3);
          f.driver.memsetD32Async(q, 5, 1, f.stream);
          f.driver.memcpyDtoDAsync(p, q, 4, f.stream);
        });
    assertEquals(5, runOnce(built.graph()));
  }

  // ---- DOT

  @Test
  void dotPrintShowsConditionalNodesWithTheirBodiesAsClusters(@TempDir Path dir) throws Exception {
    Built built = kit.graphWith(ConditionalType.IF, 2, 0, 0);
    kit.captureInto(built.body(0), () -> appendDigit(1));
    Path file = dir.resolve("g.dot");
    f.driver.graphDebugDotPrint(built.graph(), file, 0);
    String dot = Files.readString(file);
    String handle = Long.toHexString(built.handle().value());
    assertTrue(dot.contains("IF body 0 of CUgraphConditionalHandle(0x" + handle + ")"), dot);
    assertTrue(dot.contains("IF body 1 of CUgraphConditionalHandle(0x" + handle + ")"), dot);
    assertTrue(dot.contains("appendDigit"), "the body's kernel is drawn: " + dot);
    assertTrue(dot.contains("empty body"), "the empty second body is drawn: " + dot);
    assertEquals(
        dot.chars().filter(c -> c == '{').count(),
        dot.chars().filter(c -> c == '}').count(),
        "balanced braces");
    assertNotEquals(-1, dot.indexOf("CONDITIONAL"), dot);
  }
}
