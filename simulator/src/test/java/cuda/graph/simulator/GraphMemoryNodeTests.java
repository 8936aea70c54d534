// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 the cuda-graph authors
package cuda.graph.simulator;

import static cuda.graph.simulator.SimFixture.assertStatus;
import static org.junit.jupiter.api.Assertions.assertDoesNotThrow;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;

import cuda.graph.spi.CaptureMode;
import cuda.graph.spi.CaptureStatus;
import cuda.graph.spi.CuGraph;
import cuda.graph.spi.CuGraphExec;
import cuda.graph.spi.GraphInstantiateFlags;
import cuda.graph.spi.GraphNodeType;
import cuda.graph.spi.HandleKind;
import java.util.List;
import org.junit.jupiter.api.AutoClose;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/** Stream-ordered allocation during capture: spec §3.8 and §4.2 (one exec per memory graph). */
@Timeout(20)
class GraphMemoryNodeTests {

  // Instrumented: some tests read what crossed the driver boundary from the shared ledger.
  @AutoClose final SimFixture f = SimFixture.instrumented();

  private final long out = f.allocInt();
  private long graphPointer;

  /** alloc; store(value); copy to {@link #out}; and a free node if {@code free}. */
  private CuGraph allocGraph(int value, boolean free) {
    return f.capture(
        () -> {
          graphPointer = f.driver.memAllocAsync(256, f.stream);
          f.store(f.stream, graphPointer, value);
          f.driver.memcpyDtoDAsync(out, graphPointer, 4, f.stream);
          if (free) {
            f.driver.memFreeAsync(graphPointer, f.stream);
          }
        });
  }

  @Test
  void memAllocAsyncInCaptureAddsAMemAllocNodeAndReturnsAnAddressAtOnce() {
    f.driver.streamBeginCapture(f.stream, CaptureMode.GLOBAL);
    long a = f.driver.memAllocAsync(256, f.stream);
    assertNotEquals(0L, a);
    CuGraph g = f.driver.streamEndCapture(f.stream);
    assertEquals(List.of(GraphNodeType.MEM_ALLOC), f.nodeTypes(g));
  }

  @Test
  void graphWithAllocAndFreeNodesRunsAndCanBeRelaunched() {
    CuGraph g = allocGraph(5, true);
    assertEquals(
        List.of(
            GraphNodeType.MEM_ALLOC,
            GraphNodeType.KERNEL,
            GraphNodeType.MEMCPY,
            GraphNodeType.MEM_FREE),
        f.nodeTypes(g));
    CuGraphExec exec = f.driver.graphInstantiate(g, 0);
    f.driver.graphLaunch(exec, f.stream);
    f.driver.streamSynchronize(f.stream);
    assertEquals(5, f.readInt(out));
    f.writeInt(out, 0);
    assertDoesNotThrow(() -> f.driver.graphLaunch(exec, f.stream));
    f.driver.streamSynchronize(f.stream);
    assertEquals(5, f.readInt(out));
  }

  @Test
  void secondInstantiationOfAGraphWithMemoryNodesReturns801() {
    CuGraph g = allocGraph(1, true);
    f.driver.graphInstantiate(g, 0);
    assertStatus(801, () -> f.driver.graphInstantiate(g, 0));
  }

  @Test
  void graphWithMemoryNodesCanBeInstantiatedAgainAfterItsExecIsDestroyed() {
    CuGraph g = allocGraph(1, true);
    CuGraphExec first = f.driver.graphInstantiate(g, 0);
    f.driver.graphExecDestroy(first);
    assertDoesNotThrow(() -> f.driver.graphInstantiate(g, 0));
  }

  @Test
  void relaunchWhileThePreviousLaunchsAllocationIsUnfreedReturns1() {
    CuGraphExec exec = f.driver.graphInstantiate(allocGraph(6, false), 0);
    f.driver.graphLaunch(exec, f.stream);
    f.driver.streamSynchronize(f.stream);
    assertEquals(6, f.readInt(graphPointer), "the allocation outlives the launch");
    assertStatus(1, () -> f.driver.graphLaunch(exec, f.stream));
  }

  @Test
  void relaunchAfterMemFreeAsyncSucceedsAndTheAllocationReappearsAtItsFixedAddress() {
    CuGraphExec exec = f.driver.graphInstantiate(allocGraph(6, false), 0);
    long fixed = graphPointer;
    f.driver.graphLaunch(exec, f.stream);
    f.driver.memFreeAsync(fixed, f.stream);
    assertDoesNotThrow(() -> f.driver.graphLaunch(exec, f.stream));
    f.driver.streamSynchronize(f.stream);
    assertEquals(6, f.readInt(fixed), "the same address is live again after the relaunch");
  }

  @Test
  void relaunchAfterMemFreeOfTheGraphAllocationSucceeds() {
    CuGraphExec exec = f.driver.graphInstantiate(allocGraph(6, false), 0);
    f.driver.graphLaunch(exec, f.stream);
    f.driver.streamSynchronize(f.stream);
    f.driver.memFree(graphPointer);
    assertDoesNotThrow(() -> f.driver.graphLaunch(exec, f.stream));
    f.driver.streamSynchronize(f.stream);
  }

  @Test
  void autoFreeOnLaunchAllowsBackToBackRelaunches() {
    CuGraphExec exec =
        f.driver.graphInstantiate(allocGraph(7, false), GraphInstantiateFlags.AUTO_FREE_ON_LAUNCH);
    for (int i = 0; i < 3; i++) {
      assertDoesNotThrow(() -> f.driver.graphLaunch(exec, f.stream));
    }
    f.driver.streamSynchronize(f.stream);
    assertEquals(7, f.readInt(out));
  }

  @ParameterizedTest
  @EnumSource(CaptureMode.class)
  void memFreeAsyncOfANonGraphPointerInCaptureReturns1AndTheCaptureStaysActive(CaptureMode mode) {
    long regular = f.driver.memAlloc(256);
    long liveBefore = f.instruments().ledger().live(HandleKind.DEVICE_MEMORY);
    f.driver.streamBeginCapture(f.stream, mode);
    f.inc(f.stream, out);
    assertStatus(1, () -> f.driver.memFreeAsync(regular, f.stream));
    assertEquals(CaptureStatus.ACTIVE, f.status(f.stream));
    CuGraph g = f.driver.streamEndCapture(f.stream);
    assertNotNull(g);
    assertEquals(List.of(GraphNodeType.KERNEL), f.nodeTypes(g));
    assertEquals(liveBefore, f.instruments().ledger().live(HandleKind.DEVICE_MEMORY), "not freed");
    assertDoesNotThrow(() -> f.driver.memFree(regular));
  }

  @Test
  void memFreeAsyncInCaptureOfAnUncapturedAsyncAllocationReturns1() {
    long async = f.driver.memAllocAsync(256, f.stream);
    f.driver.streamSynchronize(f.stream);
    f.driver.streamBeginCapture(f.stream, CaptureMode.GLOBAL);
    assertStatus(1, () -> f.driver.memFreeAsync(async, f.stream));
    assertEquals(CaptureStatus.ACTIVE, f.status(f.stream));
    f.driver.streamEndCapture(f.stream);
  }

  @Test
  void graphAllocationsAreNotCountedAsDeviceMemoryHandles() {
    long created = f.instruments().ledger().created(HandleKind.DEVICE_MEMORY);
    CuGraphExec exec = f.driver.graphInstantiate(allocGraph(1, true), 0);
    f.driver.graphLaunch(exec, f.stream);
    f.driver.streamSynchronize(f.stream);
    assertEquals(created, f.instruments().ledger().created(HandleKind.DEVICE_MEMORY));
  }
}
