// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 the cuda-graph authors
package cuda.graph.simulator;

import static cuda.graph.simulator.SimFixture.assertStatus;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;

import cuda.graph.spi.CaptureInfo;
import cuda.graph.spi.CaptureMode;
import cuda.graph.spi.CaptureStatus;
import cuda.graph.spi.CuEvent;
import cuda.graph.spi.CuGraph;
import cuda.graph.spi.CuStream;
import cuda.graph.spi.EventFlags;
import cuda.graph.spi.GraphNodeType;
import cuda.graph.spi.HandleKind;
import java.util.List;
import org.junit.jupiter.api.AutoClose;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/**
 * Spec §3.3 and §3.4: the offending call fails (900/905/907) and invalidates the capture, later
 * captured calls fail with 901, end capture fails with 901 and yields no graph, and the stream is
 * usable again afterwards.
 */
@Timeout(20)
class CaptureInvalidationTests {

  // Instrumented: some tests read what crossed the driver boundary from the shared ledger.
  @AutoClose final SimFixture f = SimFixture.instrumented();

  private long p;

  private void beginWithOneKernel(CaptureMode mode) {
    p = f.allocInt();
    f.driver.streamBeginCapture(f.stream, mode);
    f.inc(f.stream, p);
  }

  @ParameterizedTest
  @EnumSource(CaptureMode.class)
  void synchronizingTheCapturingStreamReturns900AndInvalidatesInEveryMode(CaptureMode mode) {
    beginWithOneKernel(mode);
    assertStatus(900, () -> f.driver.streamSynchronize(f.stream));
    assertEquals(CaptureStatus.INVALIDATED, f.status(f.stream));
  }

  @ParameterizedTest
  @EnumSource(CaptureMode.class)
  void queryingTheCapturingStreamReturns900AndInvalidatesInEveryMode(CaptureMode mode) {
    beginWithOneKernel(mode);
    assertStatus(900, () -> f.driver.streamQuery(f.stream));
    assertEquals(CaptureStatus.INVALIDATED, f.status(f.stream));
  }

  @Test
  void laterCapturedCallsOnAnInvalidatedStreamReturn901() {
    beginWithOneKernel(CaptureMode.GLOBAL);
    assertStatus(900, () -> f.driver.streamSynchronize(f.stream));
    assertStatus(901, () -> f.inc(f.stream, p));
    assertStatus(901, () -> f.driver.memsetD32Async(p, 1, 1, f.stream));
    assertStatus(901, () -> f.driver.launchHostFunc(f.stream, () -> {}));
    assertEquals(CaptureStatus.INVALIDATED, f.status(f.stream));
  }

  @Test
  void endCaptureAfterInvalidationReturns901AndNoGraph() {
    beginWithOneKernel(CaptureMode.GLOBAL);
    long graphsBefore = f.instruments().ledger().created(HandleKind.GRAPH);
    assertStatus(900, () -> f.driver.streamSynchronize(f.stream));
    assertStatus(901, () -> f.driver.streamEndCapture(f.stream));
    assertEquals(CaptureStatus.NONE, f.status(f.stream));
    assertEquals(
        graphsBefore,
        f.instruments().ledger().created(HandleKind.GRAPH),
        "no graph was handed out");
  }

  @Test
  void streamIsUsableAfterAnInvalidatedCaptureEnds() {
    beginWithOneKernel(CaptureMode.GLOBAL);
    assertStatus(900, () -> f.driver.streamQuery(f.stream));
    assertStatus(901, () -> f.driver.streamEndCapture(f.stream));
    f.store(f.stream, p, 12);
    f.driver.streamSynchronize(f.stream);
    assertEquals(12, f.readInt(p), "the captured inc never ran; the new store did");
    assertNotNull(f.capture(() -> f.inc(f.stream, p)), "a new capture works");
  }

  @Test
  void captureInfoOfAnInvalidatedStreamReportsInvalidatedWithoutIdOrGraph() {
    beginWithOneKernel(CaptureMode.GLOBAL);
    assertStatus(900, () -> f.driver.streamSynchronize(f.stream));
    CaptureInfo info = f.driver.streamGetCaptureInfo(f.stream);
    assertEquals(CaptureStatus.INVALIDATED, info.status());
    assertEquals(0L, info.id());
    assertNull(info.graph());
  }

  @Test
  void invalidationReachesEveryMemberStreamOfTheCapture() {
    CuStream member = f.newStream();
    CuEvent fork = f.driver.eventCreate(0);
    beginWithOneKernel(CaptureMode.GLOBAL);
    f.driver.eventRecord(fork, f.stream);
    f.driver.streamWaitEvent(member, fork, 0);
    f.inc(member, p);
    assertStatus(900, () -> f.driver.streamSynchronize(f.stream));
    assertEquals(CaptureStatus.INVALIDATED, f.status(member));
    assertStatus(901, () -> f.inc(member, p));
    assertStatus(901, () -> f.driver.streamEndCapture(f.stream));
    assertEquals(CaptureStatus.NONE, f.status(f.stream));
    assertEquals(CaptureStatus.NONE, f.status(member));
  }

  @ParameterizedTest
  @EnumSource(CaptureMode.class)
  void queryingACapturedEventReturns907AndInvalidatesInEveryMode(CaptureMode mode) {
    CuEvent e = f.driver.eventCreate(0);
    beginWithOneKernel(mode);
    f.driver.eventRecord(e, f.stream);
    assertStatus(907, () -> f.driver.eventQuery(e));
    assertEquals(CaptureStatus.INVALIDATED, f.status(f.stream));
    assertStatus(901, () -> f.driver.streamEndCapture(f.stream));
  }

  @ParameterizedTest
  @EnumSource(CaptureMode.class)
  void synchronizingACapturedEventReturns907AndInvalidatesInEveryMode(CaptureMode mode) {
    CuEvent e = f.driver.eventCreate(0);
    beginWithOneKernel(mode);
    f.driver.eventRecord(e, f.stream);
    assertStatus(907, () -> f.driver.eventSynchronize(e));
    assertEquals(CaptureStatus.INVALIDATED, f.status(f.stream));
  }

  @ParameterizedTest
  @EnumSource(CaptureMode.class)
  void waitingOnAnEventRecordedOutsideCaptureReturns905AndInvalidates(CaptureMode mode) {
    CuEvent outside = f.driver.eventCreate(0);
    f.driver.eventRecord(outside, f.newStream());
    beginWithOneKernel(mode);
    assertStatus(905, () -> f.driver.streamWaitEvent(f.stream, outside, 0));
    assertEquals(CaptureStatus.INVALIDATED, f.status(f.stream));
    assertStatus(901, () -> f.driver.streamEndCapture(f.stream));
  }

  @Test
  void waitExternalOnAnEventRecordedOutsideCaptureAddsAWaitEventNode() {
    CuEvent outside = f.driver.eventCreate(0);
    f.driver.eventRecord(outside, f.newStream());
    beginWithOneKernel(CaptureMode.GLOBAL);
    f.driver.streamWaitEvent(f.stream, outside, EventFlags.WAIT_EXTERNAL);
    assertEquals(CaptureStatus.ACTIVE, f.status(f.stream));
    CuGraph g = f.driver.streamEndCapture(f.stream);
    assertEquals(List.of(GraphNodeType.KERNEL, GraphNodeType.WAIT_EVENT), f.nodeTypes(g));
  }

  @Test
  void instantiatingTheGraphUnderCaptureReturns900AndInvalidates() {
    beginWithOneKernel(CaptureMode.GLOBAL);
    CuGraph underConstruction = f.driver.streamGetCaptureInfo(f.stream).graph();
    assertNotNull(underConstruction);
    assertStatus(900, () -> f.driver.graphInstantiate(underConstruction, 0));
    assertEquals(CaptureStatus.INVALIDATED, f.status(f.stream));
    assertStatus(901, () -> f.driver.streamEndCapture(f.stream));
  }

  @ParameterizedTest
  @EnumSource(CaptureMode.class)
  void argumentErrorOnTheCapturingStreamDoesNotInvalidate(CaptureMode mode) {
    beginWithOneKernel(mode);
    assertStatus(
        1, () -> f.driver.launchKernel(f.fn("inc"), 1, 1, 1, 1025, 1, 1, 0, f.stream, f.ptrArg(p)));
    assertStatus(1, () -> f.driver.memsetD32Async(p + 2, 0, 1, f.stream));
    assertEquals(CaptureStatus.ACTIVE, f.status(f.stream));
    CuGraph g = f.driver.streamEndCapture(f.stream);
    assertEquals(List.of(GraphNodeType.KERNEL), f.nodeTypes(g), "the failed calls added no nodes");
  }
}
