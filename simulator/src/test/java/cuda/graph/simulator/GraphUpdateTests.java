// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 the cuda-graph authors
package cuda.graph.simulator;

import static org.junit.jupiter.api.Assertions.assertDoesNotThrow;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;

import cuda.graph.spi.CuGraph;
import cuda.graph.spi.CuGraphExec;
import cuda.graph.spi.DriverCall;
import cuda.graph.spi.GraphExecUpdateException;
import java.util.concurrent.CountDownLatch;
import org.junit.jupiter.api.AutoClose;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/** Whole-graph update, spec §4.4. */
@Timeout(20)
class GraphUpdateTests {

  @AutoClose final SimFixture f = SimFixture.start();

  private final long p = f.allocInt();

  private CuGraph storeGraph(int value) {
    return f.capture(() -> f.store(f.stream, p, value));
  }

  private int launchAndRead(CuGraphExec exec) {
    f.driver.graphLaunch(exec, f.stream);
    f.driver.streamSynchronize(f.stream);
    return f.readInt(p);
  }

  @Test
  void updateWithTheSameTopologySucceedsAndNewArgumentsTakeEffect() {
    CuGraphExec exec = f.driver.graphInstantiate(storeGraph(1), 0);
    assertEquals(1, launchAndRead(exec));
    f.driver.graphExecUpdate(exec, storeGraph(2));
    assertEquals(2, launchAndRead(exec));
  }

  @Test
  void updateThatChangesTheKernelFunctionSucceeds() {
    CuGraphExec exec = f.driver.graphInstantiate(storeGraph(5), 0);
    CuGraph twice = f.capture(() -> f.launch("storeTwice", f.stream, f.ptrIntArgs(p, 5)));
    f.driver.graphExecUpdate(exec, twice);
    assertEquals(10, launchAndRead(exec));
  }

  @Test
  void updateThatChangesTheGridSucceeds() {
    CuGraph small =
        f.capture(
            () ->
                f.driver.launchKernel(
                    f.fn("storeGridX"), 1, 1, 1, 1, 1, 1, 0, f.stream, f.ptrArg(p)));
    CuGraph large =
        f.capture(
            () ->
                f.driver.launchKernel(
                    f.fn("storeGridX"), 8, 1, 1, 32, 1, 1, 0, f.stream, f.ptrArg(p)));
    CuGraphExec exec = f.driver.graphInstantiate(small, 0);
    assertEquals(1, launchAndRead(exec));
    f.driver.graphExecUpdate(exec, large);
    assertEquals(8, launchAndRead(exec));
  }

  @Test
  void updateWithADifferentNodeCountFailsWithTopologyChangedAndNoNode() {
    CuGraphExec exec = f.driver.graphInstantiate(storeGraph(1), 0);
    CuGraph two =
        f.capture(
            () -> {
              f.store(f.stream, p, 2);
              f.inc(f.stream, p);
            });
    GraphExecUpdateException e =
        assertThrows(GraphExecUpdateException.class, () -> f.driver.graphExecUpdate(exec, two));
    assertEquals(910, e.status());
    assertEquals(DriverCall.GRAPH_EXEC_UPDATE, e.call());
    assertEquals(GraphExecUpdateException.TOPOLOGY_CHANGED, e.updateResult());
    assertNull(e.errorNode());
  }

  @Test
  void updateThatReplacesAKernelByAMemsetFailsWithNodeTypeChangedAndNamesTheNode() {
    CuGraphExec exec = f.driver.graphInstantiate(storeGraph(1), 0);
    CuGraph memset = f.capture(() -> f.driver.memsetD32Async(p, 2, 1, f.stream));
    GraphExecUpdateException e =
        assertThrows(GraphExecUpdateException.class, () -> f.driver.graphExecUpdate(exec, memset));
    assertEquals(910, e.status());
    assertEquals(GraphExecUpdateException.NODE_TYPE_CHANGED, e.updateResult());
    assertEquals(
        f.driver.graphGetNodes(memset).get(0),
        e.errorNode(),
        "the error node is the node of the update graph");
  }

  @Test
  void failedUpdateLeavesTheExecUnchanged() {
    CuGraphExec exec = f.driver.graphInstantiate(storeGraph(1), 0);
    CuGraph two =
        f.capture(
            () -> {
              f.store(f.stream, p, 2);
              f.store(f.stream, p, 3);
            });
    assertThrows(GraphExecUpdateException.class, () -> f.driver.graphExecUpdate(exec, two));
    f.writeInt(p, 0);
    assertEquals(1, launchAndRead(exec));
  }

  @Test
  void updateAffectsOnlyLaunchesIssuedAfterIt() {
    CuGraph one = f.capture(() -> f.appendDigit(f.stream, p, 1));
    CuGraph two = f.capture(() -> f.appendDigit(f.stream, p, 2));
    CuGraphExec exec = f.driver.graphInstantiate(one, 0);
    CountDownLatch gate = f.gate();
    f.block(f.stream, gate);
    f.driver.graphLaunch(exec, f.stream);
    f.driver.graphExecUpdate(exec, two);
    f.driver.graphLaunch(exec, f.stream);
    gate.countDown();
    f.driver.streamSynchronize(f.stream);
    assertEquals(12, f.readInt(p), "the launch enqueued before the update ran the old digit");
  }

  @Test
  void updateWorksAfterTheSourceGraphWasDestroyed() {
    CuGraph original = storeGraph(1);
    CuGraphExec exec = f.driver.graphInstantiate(original, 0);
    f.driver.graphDestroy(original);
    f.driver.graphExecUpdate(exec, storeGraph(4));
    assertEquals(4, launchAndRead(exec));
  }

  @Test
  void graphWithMemoryNodesCanUpdateItsOwnExecWithItself() {
    CuGraph g =
        f.capture(
            () -> {
              long a = f.driver.memAllocAsync(256, f.stream);
              f.driver.memFreeAsync(a, f.stream);
            });
    CuGraphExec exec = f.driver.graphInstantiate(g, 0);
    assertDoesNotThrow(() -> f.driver.graphExecUpdate(exec, g));
  }
}
