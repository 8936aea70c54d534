// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 the cuda-graph authors
package cuda.graph.simulator;

import static cuda.graph.simulator.SimFixture.assertStatus;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import cuda.graph.simulator.ConditionalKit.Built;
import cuda.graph.spi.CaptureMode;
import cuda.graph.spi.ConditionalType;
import cuda.graph.spi.CopyEndpoint;
import cuda.graph.spi.CuContext;
import cuda.graph.spi.CuFunction;
import cuda.graph.spi.CuGraph;
import cuda.graph.spi.CuGraphExec;
import cuda.graph.spi.CuGraphNode;
import cuda.graph.spi.CuModule;
import cuda.graph.spi.Dim3;
import java.lang.foreign.MemorySegment;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import org.junit.jupiter.api.AutoClose;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * Per-node changes to an exec: {@code cuGraphExec{Kernel,Memcpy,Memset}NodeSetParams} and {@code
 * cuGraphNode{Set,Get}Enabled}. Each affects launches issued afterwards only.
 */
@Timeout(20)
class ExecNodeUpdateTests {

  private static final Dim3 ONE = new Dim3(1, 1, 1);

  @AutoClose final SimFixture f = SimFixture.start(Simulator.builder().devices(2));
  private final ConditionalKit kit = new ConditionalKit(f);
  private final long p = f.allocInt();

  private CuGraphNode only(CuGraph graph) {
    List<CuGraphNode> nodes = f.driver.graphGetNodes(graph);
    assertEquals(1, nodes.size());
    return nodes.get(0);
  }

  private void setDigit(CuGraphExec exec, CuGraphNode node, int digit) {
    f.driver.graphExecKernelNodeSetParams(
        exec, node, f.fn("appendDigit"), ONE, ONE, 0, f.ptrIntArgs(p, digit));
  }

  private int launchAndRead(CuGraphExec exec) {
    kit.launch(exec);
    return f.readInt(p);
  }

  // ---- kernel nodes

  @Test
  void kernelNodeGetsNewArgumentsForLaterLaunches() {
    CuGraph graph = f.capture(() -> f.store(f.stream, p, 1));
    CuGraphExec exec = f.driver.graphInstantiate(graph, 0);
    f.driver.graphExecKernelNodeSetParams(
        exec, only(graph), f.fn("store"), ONE, ONE, 0, f.ptrIntArgs(p, 7));
    assertEquals(7, launchAndRead(exec));
  }

  @Test
  void kernelNodeGetsANewFunctionAndShape() {
    CuGraph graph = f.capture(() -> f.store(f.stream, p, 1));
    CuGraphExec exec = f.driver.graphInstantiate(graph, 0);
    f.driver.graphExecKernelNodeSetParams(
        exec, only(graph), f.fn("storeGridX"), new Dim3(6, 1, 1), ONE, 0, f.ptrArg(p));
    assertEquals(6, launchAndRead(exec));
  }

  @Test
  void launchesEnqueuedBeforeAKernelNodeUpdateKeepTheOldParameters() {
    CuGraph graph = f.capture(() -> f.appendDigit(f.stream, p, 1));
    CuGraphExec exec = f.driver.graphInstantiate(graph, 0);
    CountDownLatch gate = f.gate();
    f.block(f.stream, gate);
    f.driver.graphLaunch(exec, f.stream);
    setDigit(exec, only(graph), 2);
    f.driver.graphLaunch(exec, f.stream);
    gate.countDown();
    f.driver.streamSynchronize(f.stream);
    assertEquals(12, f.readInt(p));
  }

  @Test
  void kernelNodeUpdateLeavesTheGraphAndOtherExecsAsTheyWere() {
    CuGraph graph = f.capture(() -> f.appendDigit(f.stream, p, 1));
    CuGraphExec changed = f.driver.graphInstantiate(graph, 0);
    CuGraphExec other = f.driver.graphInstantiate(graph, 0);
    setDigit(changed, only(graph), 2);
    assertEquals(1, launchAndRead(other), "another exec is unchanged");
    f.writeInt(p, 0);
    kit.launchOnce(graph);
    assertEquals(1, f.readInt(p), "a new exec of the graph is unchanged");
  }

  @Test
  void kernelParametersOfANodeThatIsNotAKernelAreInvalidValue() {
    CuGraph graph = f.capture(() -> f.driver.memsetD32Async(p, 3, 1, f.stream));
    CuGraphExec exec = f.driver.graphInstantiate(graph, 0);
    assertStatus(1, () -> setDigit(exec, only(graph), 2));
  }

  @Test
  void nodeOfAnotherGraphIsInvalidValue() {
    CuGraph graph = f.capture(() -> f.appendDigit(f.stream, p, 1));
    CuGraph other = f.capture(() -> f.appendDigit(f.stream, p, 1));
    CuGraphExec exec = f.driver.graphInstantiate(graph, 0);
    assertStatus(1, () -> setDigit(exec, only(other), 2));
  }

  @Test
  void nodeAddedToTheGraphAfterInstantiationIsInvalidValue() {
    CuGraph graph = f.capture(() -> f.appendDigit(f.stream, p, 1));
    CuGraphExec exec = f.driver.graphInstantiate(graph, 0);
    f.driver.streamBeginCaptureToGraph(f.stream, graph, List.of(), CaptureMode.GLOBAL);
    f.appendDigit(f.stream, p, 2);
    f.driver.streamEndCapture(f.stream);
    CuGraphNode added = f.driver.graphGetNodes(graph).get(1);
    assertStatus(1, () -> setDigit(exec, added, 3));
  }

  @Test
  void kernelOfAnotherContextIsInvalidValue() {
    CuGraph graph = f.capture(() -> f.appendDigit(f.stream, p, 1));
    CuGraphExec exec = f.driver.graphInstantiate(graph, 0);
    CuContext second = f.driver.devicePrimaryCtxRetain(1);
    f.driver.ctxSetCurrent(second);
    CuModule module = f.driver.moduleLoadData(f.testKernels());
    CuFunction foreign = f.driver.moduleGetFunction(module, "appendDigit");
    f.driver.ctxSetCurrent(f.context);
    assertStatus(
        1,
        () ->
            f.driver.graphExecKernelNodeSetParams(
                exec, only(graph), foreign, ONE, ONE, 0, f.ptrIntArgs(p, 2)));
  }

  @Test
  void kernelShapeIsValidatedAsALaunchIs() {
    CuGraph graph = f.capture(() -> f.appendDigit(f.stream, p, 1));
    CuGraphExec exec = f.driver.graphInstantiate(graph, 0);
    assertStatus(
        1,
        () ->
            f.driver.graphExecKernelNodeSetParams(
                exec,
                only(graph),
                f.fn("appendDigit"),
                ONE,
                new Dim3(2048, 1, 1),
                0,
                f.ptrIntArgs(p, 2)));
    assertEquals(1, launchAndRead(exec), "the node kept its parameters");
  }

  @Test
  void kernelNodeInsideAConditionalBodyCanBeUpdated() {
    Built built = kit.graphWith(ConditionalType.IF, 1, 1, 0);
    kit.captureInto(built.body(0), () -> f.appendDigit(f.stream, p, 1));
    CuGraphExec exec = f.driver.graphInstantiate(built.graph(), 0);
    setDigit(exec, only(built.body(0)), 4);
    assertEquals(4, launchAndRead(exec));
  }

  // ---- copy nodes

  @Test
  void copyNodeGetsNewEndpointsOfTheSameKinds() {
    long q = f.allocInt();
    MemorySegment seven = f.hostInt(7);
    CuGraph graph = f.capture(() -> f.driver.memcpyHtoDAsync(p, f.hostInt(1), 4, f.stream));
    CuGraphExec exec = f.driver.graphInstantiate(graph, 0);
    f.driver.graphExecMemcpyNodeSetParams(
        exec, only(graph), new CopyEndpoint.Device(q), new CopyEndpoint.Host(seven), 4);
    kit.launch(exec);
    assertEquals(7, f.readInt(q));
    assertEquals(0, f.readInt(p), "the old destination was not written");
  }

  @Test
  void copyNodeCannotChangeTheKindsOfItsEndpoints() {
    long q = f.allocInt();
    CuGraph graph = f.capture(() -> f.driver.memcpyHtoDAsync(p, f.hostInt(1), 4, f.stream));
    CuGraphExec exec = f.driver.graphInstantiate(graph, 0);
    assertStatus(
        1,
        () ->
            f.driver.graphExecMemcpyNodeSetParams(
                exec, only(graph), new CopyEndpoint.Device(q), new CopyEndpoint.Device(p), 4));
  }

  @Test
  void copyNodeEndpointsMustBeLiveMemoryLargeEnough() {
    long q = f.allocInt();
    CuGraph graph = f.capture(() -> f.driver.memcpyDtoDAsync(p, q, 4, f.stream));
    CuGraphExec exec = f.driver.graphInstantiate(graph, 0);
    CuGraphNode node = only(graph);
    assertStatus(
        1,
        () ->
            f.driver.graphExecMemcpyNodeSetParams(
                exec, node, new CopyEndpoint.Device(p), new CopyEndpoint.Device(q), 4096));
    long freed = f.driver.memAlloc(256);
    f.driver.memFree(freed);
    assertStatus(
        1,
        () ->
            f.driver.graphExecMemcpyNodeSetParams(
                exec, node, new CopyEndpoint.Device(freed), new CopyEndpoint.Device(q), 4));
    assertStatus(
        1,
        () ->
            f.driver.graphExecMemcpyNodeSetParams(
                exec, node, new CopyEndpoint.Device(p), new CopyEndpoint.Device(q), 0));
  }

  @Test
  void copyParametersOfAKernelNodeAreInvalidValue() {
    CuGraph graph = f.capture(() -> f.appendDigit(f.stream, p, 1));
    CuGraphExec exec = f.driver.graphInstantiate(graph, 0);
    assertStatus(
        1,
        () ->
            f.driver.graphExecMemcpyNodeSetParams(
                exec, only(graph), new CopyEndpoint.Device(p), new CopyEndpoint.Device(p), 4));
  }

  // ---- fill nodes

  @Test
  void fillNodeGetsANewDestinationValueAndCount() {
    long q = f.allocZeroed(256);
    CuGraph graph = f.capture(() -> f.driver.memsetD32Async(p, 3, 1, f.stream));
    CuGraphExec exec = f.driver.graphInstantiate(graph, 0);
    f.driver.graphExecMemsetNodeSetParams(exec, only(graph), q, 4, 9, 2);
    kit.launch(exec);
    assertEquals(0, f.readInt(p));
    assertEquals(9, f.readInt(q));
    assertEquals(9, f.readInt(q + 4));
  }

  @Test
  void fillNodeCannotChangeItsElementSize() {
    CuGraph graph = f.capture(() -> f.driver.memsetD32Async(p, 3, 1, f.stream));
    CuGraphExec exec = f.driver.graphInstantiate(graph, 0);
    assertStatus(1, () -> f.driver.graphExecMemsetNodeSetParams(exec, only(graph), p, 1, 9, 4));
  }

  @Test
  void fillNodeRangeMustBeInsideALiveAllocation() {
    CuGraph graph = f.capture(() -> f.driver.memsetD32Async(p, 3, 1, f.stream));
    CuGraphExec exec = f.driver.graphInstantiate(graph, 0);
    assertStatus(
        1, () -> f.driver.graphExecMemsetNodeSetParams(exec, only(graph), p, 4, 9, 1 << 20));
    assertStatus(1, () -> f.driver.graphExecMemsetNodeSetParams(exec, only(graph), p, 4, 9, 0));
  }

  @Test
  void twoDimensionalFillNodeCannotBeChanged() {
    long grid = f.allocZeroed(1024);
    CuGraph graph = f.capture(() -> f.driver.memsetD2D32Async(grid, 64, 1, 4, 4, f.stream));
    CuGraphExec exec = f.driver.graphInstantiate(graph, 0);
    assertStatus(1, () -> f.driver.graphExecMemsetNodeSetParams(exec, only(graph), grid, 4, 2, 4));
  }

  // ---- enabling and disabling

  /** A graph of three chained nodes appending 1, 2 and 3. */
  private CuGraph chainOfDigits() {
    return f.capture(
        () -> {
          f.appendDigit(f.stream, p, 1);
          f.appendDigit(f.stream, p, 2);
          f.appendDigit(f.stream, p, 3);
        });
  }

  @Test
  void disabledNodeDoesNothingButItsDependentsStillRunAfterWhatItDependsOn() {
    CuGraph graph = chainOfDigits();
    CuGraphExec exec = f.driver.graphInstantiate(graph, 0);
    CuGraphNode middle = f.driver.graphGetNodes(graph).get(1);
    f.driver.graphNodeSetEnabled(exec, middle, false);
    assertFalse(f.driver.graphNodeGetEnabled(exec, middle));
    assertEquals(13, launchAndRead(exec));
  }

  @Test
  void reEnablingANodeRestoresIt() {
    CuGraph graph = chainOfDigits();
    CuGraphExec exec = f.driver.graphInstantiate(graph, 0);
    CuGraphNode middle = f.driver.graphGetNodes(graph).get(1);
    assertTrue(f.driver.graphNodeGetEnabled(exec, middle), "nodes start enabled");
    f.driver.graphNodeSetEnabled(exec, middle, false);
    f.driver.graphNodeSetEnabled(exec, middle, true);
    assertTrue(f.driver.graphNodeGetEnabled(exec, middle));
    assertEquals(123, launchAndRead(exec));
  }

  @Test
  void parametersSetWhileANodeIsDisabledTakeEffectWhenItIsEnabledAgain() {
    CuGraph graph = chainOfDigits();
    CuGraphExec exec = f.driver.graphInstantiate(graph, 0);
    CuGraphNode middle = f.driver.graphGetNodes(graph).get(1);
    f.driver.graphNodeSetEnabled(exec, middle, false);
    setDigit(exec, middle, 7);
    assertFalse(f.driver.graphNodeGetEnabled(exec, middle), "an update keeps it disabled");
    assertEquals(13, launchAndRead(exec));
    f.writeInt(p, 0);
    f.driver.graphNodeSetEnabled(exec, middle, true);
    assertEquals(173, launchAndRead(exec));
  }

  @Test
  void launchesEnqueuedBeforeANodeIsDisabledStillRunIt() {
    CuGraph graph = f.capture(() -> f.appendDigit(f.stream, p, 1));
    CuGraphExec exec = f.driver.graphInstantiate(graph, 0);
    CountDownLatch gate = f.gate();
    f.block(f.stream, gate);
    f.driver.graphLaunch(exec, f.stream);
    f.driver.graphNodeSetEnabled(exec, only(graph), false);
    f.driver.graphLaunch(exec, f.stream);
    gate.countDown();
    f.driver.streamSynchronize(f.stream);
    assertEquals(1, f.readInt(p), "only the launch enqueued first ran the node");
  }

  @Test
  void copyAndFillNodesCanBeDisabled() {
    long q = f.allocInt();
    CuGraph graph =
        f.capture(
            () -> {
              f.driver.memsetD32Async(q, 5, 1, f.stream);
              f.driver.memcpyDtoDAsync(p, q, 4, f.stream);
            });
    CuGraphExec exec = f.driver.graphInstantiate(graph, 0);
    List<CuGraphNode> nodes = f.driver.graphGetNodes(graph);
    f.driver.graphNodeSetEnabled(exec, nodes.get(0), false);
    f.driver.graphNodeSetEnabled(exec, nodes.get(1), false);
    kit.launch(exec);
    assertEquals(0, f.readInt(q));
    assertEquals(0, f.readInt(p));
  }

  @Test
  void onlyKernelCopyAndFillNodesCanBeEnabledOrDisabled() {
    Built built = kit.graphWith(ConditionalType.IF, 1, 0, 0);
    CuGraphExec exec = f.driver.graphInstantiate(built.graph(), 0);
    CuGraphNode conditional = built.node().node();
    assertStatus(1, () -> f.driver.graphNodeSetEnabled(exec, conditional, false));
    assertStatus(1, () -> f.driver.graphNodeGetEnabled(exec, conditional));
    CuGraph host = f.capture(() -> f.driver.launchHostFunc(f.stream, () -> {}));
    CuGraphExec hostExec = f.driver.graphInstantiate(host, 0);
    assertStatus(1, () -> f.driver.graphNodeSetEnabled(hostExec, only(host), false));
  }

  @Test
  void nodeInsideAConditionalBodyCanBeDisabled() {
    Built built = kit.graphWith(ConditionalType.WHILE, 1, 1, 0);
    kit.captureInto(
        built.body(0),
        () -> {
          f.appendDigit(f.stream, p, 1);
          kit.setCondition(f.stream, built.handle(), 0);
        });
    CuGraphExec exec = f.driver.graphInstantiate(built.graph(), 0);
    f.driver.graphNodeSetEnabled(exec, f.driver.graphGetNodes(built.body(0)).get(0), false);
    assertEquals(0, launchAndRead(exec), "the loop ran once, its digit disabled");
  }

  @Test
  void wholeGraphUpdateKeepsANodeDisabled() {
    CuGraph graph = chainOfDigits();
    CuGraphExec exec = f.driver.graphInstantiate(graph, 0);
    f.driver.graphNodeSetEnabled(exec, f.driver.graphGetNodes(graph).get(1), false);
    CuGraph update =
        f.capture(
            () -> {
              f.appendDigit(f.stream, p, 4);
              f.appendDigit(f.stream, p, 5);
              f.appendDigit(f.stream, p, 6);
            });
    f.driver.graphExecUpdate(exec, update);
    assertFalse(f.driver.graphNodeGetEnabled(exec, f.driver.graphGetNodes(graph).get(1)));
    assertEquals(46, launchAndRead(exec));
  }
}
