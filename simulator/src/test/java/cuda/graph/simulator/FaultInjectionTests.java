// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 the cuda-graph authors
package cuda.graph.simulator;

import static cuda.graph.simulator.SimFixture.assertStatus;
import static org.junit.jupiter.api.Assertions.assertDoesNotThrow;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import cuda.graph.spi.CaptureMode;
import cuda.graph.spi.CaptureStatus;
import cuda.graph.spi.CuGraph;
import cuda.graph.spi.CudaDriverException;
import cuda.graph.spi.DriverCall;
import cuda.graph.spi.GraphNodeType;
import cuda.graph.spi.HandleKind;
import cuda.graph.spi.StreamFlags;
import cuda.graph.testkit.FaultPlan;
import cuda.graph.testkit.LoggedCall;
import java.util.List;
import org.junit.jupiter.api.AutoClose;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * {@link FaultPlan}, the shared fault injection, over the simulator: an injected failure replaces
 * the call and changes no state.
 */
@Timeout(20)
class FaultInjectionTests {

  @AutoClose final SimFixture f = SimFixture.instrumented();

  private FaultPlan faults() {
    return f.instruments().faults();
  }

  @Test
  void failNthOneFailsTheNextCallWithTheChosenStatusAndNamesTheCall() {
    faults().failNth(DriverCall.MEM_ALLOC, 1, 2);
    CudaDriverException e = assertStatus(2, () -> f.driver.memAlloc(256));
    assertEquals(DriverCall.MEM_ALLOC, e.call());
    assertDoesNotThrow(() -> f.driver.memAlloc(256), "each rule fires once");
  }

  @Test
  void failNthCountsOnlyCallsOfThatEntryPoint() {
    faults().failNth(DriverCall.EVENT_CREATE, 3, 999);
    f.driver.memAlloc(256);
    f.driver.eventCreate(0);
    f.driver.memAlloc(256);
    f.driver.eventCreate(0);
    assertStatus(999, () -> f.driver.eventCreate(0));
    assertDoesNotThrow(() -> f.driver.eventCreate(0));
  }

  @Test
  void failAlwaysFailsEveryCallUntilCleared() {
    faults().failAlways(DriverCall.STREAM_CREATE, 1);
    assertStatus(1, () -> f.driver.streamCreate(StreamFlags.NON_BLOCKING));
    assertStatus(1, () -> f.driver.streamCreate(StreamFlags.NON_BLOCKING));
    faults().clear();
    assertDoesNotThrow(() -> f.driver.streamCreate(StreamFlags.NON_BLOCKING));
  }

  @Test
  void pendingListsRulesUntilTheyFireAndFiredCountsThem() {
    assertEquals(List.of(), faults().pending());
    assertEquals(0, faults().fired());
    faults().failNth(DriverCall.MEM_ALLOC, 2, 2);
    assertEquals(1, faults().pending().size());
    f.driver.memAlloc(256);
    assertEquals(1, faults().pending().size());
    assertStatus(2, () -> f.driver.memAlloc(256));
    assertEquals(List.of(), faults().pending());
    assertEquals(1, faults().fired());
  }

  @Test
  void clearRemovesPendingRules() {
    faults().failNth(DriverCall.MEM_ALLOC, 1, 2);
    faults().clear();
    assertTrue(faults().pending().isEmpty());
    assertDoesNotThrow(() -> f.driver.memAlloc(256));
  }

  @Test
  void injectedFailureCreatesNoHandle() {
    long streams = f.instruments().ledger().created(HandleKind.STREAM);
    long memory = f.instruments().ledger().created(HandleKind.DEVICE_MEMORY);
    faults().failNth(DriverCall.STREAM_CREATE, 1, 2);
    faults().failNth(DriverCall.MEM_ALLOC, 1, 2);
    assertStatus(2, () -> f.driver.streamCreate(StreamFlags.NON_BLOCKING));
    assertStatus(2, () -> f.driver.memAlloc(256));
    assertEquals(streams, f.instruments().ledger().created(HandleKind.STREAM));
    assertEquals(memory, f.instruments().ledger().created(HandleKind.DEVICE_MEMORY));
  }

  @Test
  void injectedLaunchFailureRunsNothing() {
    faults().failNth(DriverCall.LAUNCH_KERNEL, 1, 719);
    assertStatus(719, () -> f.probe(f.stream));
    f.driver.streamSynchronize(f.stream);
    assertEquals(0, f.probes.get());
    assertDoesNotThrow(
        () -> f.driver.streamSynchronize(f.stream), "an injected status is not sticky");
  }

  @Test
  void injectedBeginCaptureFailureLeavesTheStreamNotCapturing() {
    faults().failNth(DriverCall.STREAM_BEGIN_CAPTURE, 1, 999);
    assertStatus(999, () -> f.driver.streamBeginCapture(f.stream, CaptureMode.GLOBAL));
    assertEquals(CaptureStatus.NONE, f.status(f.stream));
  }

  @Test
  void injectedFailureDuringCaptureDoesNotInvalidateItOrAddANode() {
    long p = f.allocInt();
    f.driver.streamBeginCapture(f.stream, CaptureMode.GLOBAL);
    f.inc(f.stream, p);
    faults().failNth(DriverCall.LAUNCH_KERNEL, 1, 1);
    assertStatus(1, () -> f.inc(f.stream, p));
    assertEquals(CaptureStatus.ACTIVE, f.status(f.stream));
    CuGraph g = f.driver.streamEndCapture(f.stream);
    assertEquals(List.of(GraphNodeType.KERNEL), f.nodeTypes(g));
  }

  @Test
  void injectedFailureOfEndCaptureLeavesTheCaptureActive() {
    f.driver.streamBeginCapture(f.stream, CaptureMode.GLOBAL);
    faults().failNth(DriverCall.STREAM_END_CAPTURE, 1, 999);
    assertStatus(999, () -> f.driver.streamEndCapture(f.stream));
    assertEquals(CaptureStatus.ACTIVE, f.status(f.stream));
    assertDoesNotThrow(() -> f.driver.streamEndCapture(f.stream));
  }

  @Test
  void injectedFailureIsRecordedInTheCallLog() {
    f.instruments().calls().clear();
    faults().failNth(DriverCall.MEM_ALLOC, 1, 2);
    assertStatus(2, () -> f.driver.memAlloc(256));
    LoggedCall last = f.instruments().calls().records().getLast();
    assertEquals(DriverCall.MEM_ALLOC, last.call());
    assertEquals(2, last.status());
  }

  @Test
  void injectedFailureOfDestroyKeepsTheHandleAlive() {
    var s = f.newStream();
    faults().failNth(DriverCall.STREAM_DESTROY, 1, 1);
    assertStatus(1, () -> f.driver.streamDestroy(s));
    assertTrue(f.instruments().ledger().liveHandles(HandleKind.STREAM).contains(s));
    assertDoesNotThrow(() -> f.driver.streamDestroy(s));
  }
}
