// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 the cuda-graph authors
package cuda.graph.simulator;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import cuda.graph.simulator.ConditionalKit.Built;
import cuda.graph.spi.ConditionalHandle;
import cuda.graph.spi.ConditionalType;
import cuda.graph.spi.CuGraphExec;
import cuda.graph.spi.GraphExecUpdateException;
import org.junit.jupiter.api.AutoClose;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/** {@code cuGraphExecUpdate_v2} on graphs with conditional nodes: bodies are paired recursively. */
@Timeout(20)
class ConditionalGraphUpdateTests {

  @AutoClose final SimFixture f = SimFixture.start();
  private final ConditionalKit kit = new ConditionalKit(f);
  private final long p = f.allocInt();

  /** An IF graph whose body appends the digits given, the condition starting at {@code value}. */
  private Built ifAppending(int value, int flags, int... digits) {
    Built built = kit.graphWith(ConditionalType.IF, 1, value, flags);
    kit.captureInto(
        built.body(0),
        () -> {
          for (int digit : digits) {
            f.appendDigit(f.stream, p, digit);
          }
        });
    return built;
  }

  private int launchAndRead(CuGraphExec exec) {
    f.writeInt(p, 0);
    kit.launch(exec);
    return f.readInt(p);
  }

  private GraphExecUpdateException refusedUpdate(CuGraphExec exec, Built update) {
    return assertThrows(
        GraphExecUpdateException.class, () -> f.driver.graphExecUpdate(exec, update.graph()));
  }

  @Test
  void updateWithATopologicallyIdenticalGraphTakesTheNewBodyParameters() {
    CuGraphExec exec = f.driver.graphInstantiate(ifAppending(1, 0, 1, 2).graph(), 0);
    f.driver.graphExecUpdate(exec, ifAppending(1, 0, 3, 4).graph());
    assertEquals(34, launchAndRead(exec));
  }

  @Test
  void updateTakesTheDefaultValueAndFlagsOfTheUpdateGraphsHandle() {
    CuGraphExec exec = f.driver.graphInstantiate(ifAppending(0, 0, 1).graph(), 0);
    assertEquals(0, launchAndRead(exec));
    f.driver.graphExecUpdate(exec, ifAppending(1, ConditionalHandle.ASSIGN_DEFAULT, 1).graph());
    assertEquals(1, launchAndRead(exec), "the new default is assigned at the launch");
  }

  @Test
  void afterAnUpdateKernelsSetTheConditionThroughTheUpdateGraphsHandle() {
    long counter = f.allocInt();
    Built original = kit.graphWith(ConditionalType.WHILE, 1, 1, ConditionalHandle.ASSIGN_DEFAULT);
    kit.captureInto(
        original.body(0),
        () -> {
          f.appendDigit(f.stream, p, 1);
          kit.countDown(f.stream, counter, original.handle());
        });
    Built update = kit.graphWith(ConditionalType.WHILE, 1, 1, ConditionalHandle.ASSIGN_DEFAULT);
    kit.captureInto(
        update.body(0),
        () -> {
          f.appendDigit(f.stream, p, 2);
          kit.countDown(f.stream, counter, update.handle());
        });
    CuGraphExec exec = f.driver.graphInstantiate(original.graph(), 0);
    f.driver.graphExecUpdate(exec, update.graph());
    f.writeInt(counter, 3);
    assertEquals(222, launchAndRead(exec));
  }

  @Test
  void bodyWithAnotherNodeCountFailsWithTopologyChangedNamingTheConditionalNode() {
    CuGraphExec exec = f.driver.graphInstantiate(ifAppending(1, 0, 1).graph(), 0);
    Built update = ifAppending(1, 0, 1, 2);
    GraphExecUpdateException e = refusedUpdate(exec, update);
    assertEquals(GraphExecUpdateException.TOPOLOGY_CHANGED, e.updateResult());
    assertEquals(update.node().node(), e.errorNode());
    assertEquals(1, launchAndRead(exec), "the exec is unchanged");
  }

  @Test
  void conditionalNodeWithAnotherNumberOfBodiesFailsWithTopologyChanged() {
    CuGraphExec exec =
        f.driver.graphInstantiate(kit.graphWith(ConditionalType.IF, 1, 0, 0).graph(), 0);
    GraphExecUpdateException e = refusedUpdate(exec, kit.graphWith(ConditionalType.IF, 2, 0, 0));
    assertEquals(GraphExecUpdateException.TOPOLOGY_CHANGED, e.updateResult());
  }

  @Test
  void conditionalNodeOfAnotherKindFailsWithParametersChanged() {
    CuGraphExec exec =
        f.driver.graphInstantiate(kit.graphWith(ConditionalType.IF, 1, 0, 0).graph(), 0);
    Built update = kit.graphWith(ConditionalType.WHILE, 1, 0, 0);
    GraphExecUpdateException e = refusedUpdate(exec, update);
    assertEquals(GraphExecUpdateException.PARAMETERS_CHANGED, e.updateResult());
    assertEquals(update.node().node(), e.errorNode());
  }

  @Test
  void bodyNodeOfAnotherTypeFailsWithNodeTypeChangedNamingThatNode() {
    CuGraphExec exec = f.driver.graphInstantiate(ifAppending(1, 0, 1).graph(), 0);
    Built update = kit.graphWith(ConditionalType.IF, 1, 1, 0);
    kit.captureInto(update.body(0), () -> f.driver.memsetD32Async(p, 5, 1, f.stream));
    GraphExecUpdateException e = refusedUpdate(exec, update);
    assertEquals(GraphExecUpdateException.NODE_TYPE_CHANGED, e.updateResult());
    assertEquals(f.driver.graphGetNodes(update.body(0)).get(0), e.errorNode());
  }

  @Test
  void conditionalNodeReplacingAKernelFailsWithNodeTypeChanged() {
    CuGraphExec exec = f.driver.graphInstantiate(f.capture(() -> f.inc(f.stream, p)), 0);
    GraphExecUpdateException e = refusedUpdate(exec, kit.graphWith(ConditionalType.IF, 1, 0, 0));
    assertEquals(GraphExecUpdateException.NODE_TYPE_CHANGED, e.updateResult());
  }

  @Test
  void nestedBodiesArePairedToo() {
    Built outer = kit.graphWith(ConditionalType.IF, 1, 1, 0);
    Built inner = kit.addTo(outer.body(0), ConditionalType.IF, 1, 1, 0);
    kit.captureInto(inner.body(0), () -> f.appendDigit(f.stream, p, 1));
    CuGraphExec exec = f.driver.graphInstantiate(outer.graph(), 0);
    Built outerUpdate = kit.graphWith(ConditionalType.IF, 1, 1, 0);
    Built innerUpdate = kit.addTo(outerUpdate.body(0), ConditionalType.IF, 1, 1, 0);
    kit.captureInto(innerUpdate.body(0), () -> f.appendDigit(f.stream, p, 8));
    f.driver.graphExecUpdate(exec, outerUpdate.graph());
    assertEquals(8, launchAndRead(exec));
    Built emptyInner = kit.graphWith(ConditionalType.IF, 1, 1, 0);
    kit.addTo(emptyInner.body(0), ConditionalType.IF, 1, 1, 0);
    assertEquals(
        GraphExecUpdateException.TOPOLOGY_CHANGED, refusedUpdate(exec, emptyInner).updateResult());
  }
}
