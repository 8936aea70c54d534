// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 the cuda-graph authors
package cuda.graph.simulator;

import static cuda.graph.simulator.SimFixture.assertStatus;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import cuda.graph.spi.CaptureInfo;
import cuda.graph.spi.CaptureMode;
import cuda.graph.spi.CaptureStatus;
import cuda.graph.spi.CuEvent;
import cuda.graph.spi.CuGraph;
import cuda.graph.spi.CuGraphExec;
import cuda.graph.spi.CuStream;
import cuda.graph.spi.GraphNodeType;
import java.util.List;
import org.junit.jupiter.api.AutoClose;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/** Cross-stream capture through events: spec §3.3, §3.5 and §3.6. */
@Timeout(20)
class ForkJoinCaptureTests {

  @AutoClose final SimFixture f = SimFixture.start();

  private final CuStream origin = f.stream;
  private final CuStream side = f.newStream();
  private final CuEvent forkEvent = f.driver.eventCreate(0);
  private final CuEvent joinEvent = f.driver.eventCreate(0);

  private void fork() {
    f.driver.eventRecord(forkEvent, origin);
    f.driver.streamWaitEvent(side, forkEvent, 0);
  }

  private void join() {
    f.driver.eventRecord(joinEvent, side);
    f.driver.streamWaitEvent(origin, joinEvent, 0);
  }

  @Test
  void waitingOnACapturedEventPullsAnIdleStreamIntoTheSameCapture() {
    long p = f.allocInt();
    f.driver.streamBeginCapture(origin, CaptureMode.GLOBAL);
    f.inc(origin, p);
    fork();
    CaptureInfo sideInfo = f.driver.streamGetCaptureInfo(side);
    assertEquals(CaptureStatus.ACTIVE, sideInfo.status());
    assertEquals(f.driver.streamGetCaptureInfo(origin).id(), sideInfo.id());
    assertEquals(1, sideInfo.dependencies().size(), "the side stream depends on the forked kernel");
    f.driver.streamEndCapture(origin);
    assertEquals(CaptureStatus.NONE, f.status(side));
  }

  @Test
  void forkJoinCaptureReturnsAGraphWithFourKernelNodes() {
    long[] cells = {f.allocInt(), f.allocInt(), f.allocInt(), f.allocInt()};
    f.driver.streamBeginCapture(origin, CaptureMode.GLOBAL);
    f.store(origin, cells[0], 1);
    fork();
    f.store(origin, cells[1], 2);
    f.store(side, cells[2], 3);
    join();
    assertEquals(
        2,
        f.driver.streamGetCaptureInfo(origin).dependencies().size(),
        "after the join the origin depends on both branches");
    f.store(origin, cells[3], 4);
    CuGraph g = f.driver.streamEndCapture(origin);
    assertNotNull(g);
    assertEquals(
        List.of(
            GraphNodeType.KERNEL, GraphNodeType.KERNEL, GraphNodeType.KERNEL, GraphNodeType.KERNEL),
        f.nodeTypes(g));
    assertEquals(CaptureStatus.NONE, f.status(origin));
    assertEquals(CaptureStatus.NONE, f.status(side));

    CuGraphExec exec = f.driver.graphInstantiate(g, 0);
    f.driver.graphLaunch(exec, origin);
    f.driver.streamSynchronize(origin);
    for (int i = 0; i < 4; i++) {
      assertEquals(i + 1, f.readInt(cells[i]));
    }
  }

  @Test
  void unjoinedForkReturns904AndLeavesBothStreamsNotCapturing() {
    long p = f.allocInt();
    f.driver.streamBeginCapture(origin, CaptureMode.GLOBAL);
    f.inc(origin, p);
    fork();
    f.inc(side, p);
    assertStatus(904, () -> f.driver.streamEndCapture(origin));
    assertEquals(CaptureStatus.NONE, f.status(origin));
    assertEquals(CaptureStatus.NONE, f.status(side));
    // One stream after the other: two unordered streams adding to one int could lose an update.
    f.inc(side, p);
    f.driver.streamSynchronize(side);
    f.inc(origin, p);
    f.driver.streamSynchronize(origin);
    assertEquals(2, f.readInt(p), "both streams run work normally afterwards");
  }

  @Test
  void forkedStreamThatCapturedNothingNeedsNoJoin() {
    long p = f.allocInt();
    f.driver.streamBeginCapture(origin, CaptureMode.GLOBAL);
    f.inc(origin, p);
    fork();
    CuGraph g = f.driver.streamEndCapture(origin);
    assertNotNull(g);
    assertEquals(List.of(GraphNodeType.KERNEL), f.nodeTypes(g));
    assertEquals(CaptureStatus.NONE, f.status(side));
  }

  @Test
  void endCaptureOnAMemberStreamReturns903ThenOnTheOriginReturns901() {
    long p = f.allocInt();
    f.driver.streamBeginCapture(origin, CaptureMode.GLOBAL);
    f.inc(origin, p);
    fork();
    f.inc(side, p);
    join();
    assertStatus(903, () -> f.driver.streamEndCapture(side));
    assertEquals(CaptureStatus.INVALIDATED, f.status(origin));
    assertEquals(CaptureStatus.INVALIDATED, f.status(side));
    assertStatus(901, () -> f.driver.streamEndCapture(origin));
    assertEquals(CaptureStatus.NONE, f.status(origin));
    assertEquals(CaptureStatus.NONE, f.status(side));
  }

  @Test
  void waitingOnAnEventOfAnotherCaptureReturns902AndInvalidatesBoth() {
    CuStream second = f.newStream();
    CuEvent e = f.driver.eventCreate(0);
    long p = f.allocInt();
    f.driver.streamBeginCapture(origin, CaptureMode.GLOBAL);
    f.inc(origin, p);
    f.driver.streamBeginCapture(second, CaptureMode.GLOBAL);
    f.inc(second, p);
    f.driver.eventRecord(e, second);
    assertStatus(902, () -> f.driver.streamWaitEvent(origin, e, 0));
    assertEquals(CaptureStatus.INVALIDATED, f.status(origin));
    assertEquals(CaptureStatus.INVALIDATED, f.status(second));
    assertStatus(901, () -> f.driver.streamEndCapture(origin));
    assertStatus(901, () -> f.driver.streamEndCapture(second));
  }

  @ParameterizedTest
  @EnumSource(
      value = CaptureMode.class,
      names = {"GLOBAL", "THREAD_LOCAL"})
  void endCaptureFromAnotherThreadReturns908AndTerminatesTheCapture(CaptureMode mode) {
    long p = f.allocInt();
    f.driver.streamBeginCapture(origin, mode);
    f.inc(origin, p);
    assertStatus(908, () -> f.onNewThread(() -> f.driver.streamEndCapture(origin)));
    assertEquals(CaptureStatus.NONE, f.status(origin), "the capture is gone");
    assertStatus(401, () -> f.driver.streamEndCapture(origin));
  }

  @Test
  void endCaptureFromAnotherThreadSucceedsForARelaxedCapture() {
    long p = f.allocInt();
    f.driver.streamBeginCapture(origin, CaptureMode.RELAXED);
    f.inc(origin, p);
    CuGraph g = f.onNewThread(() -> f.driver.streamEndCapture(origin));
    assertNotNull(g);
    assertEquals(List.of(GraphNodeType.KERNEL), f.nodeTypes(g));
    assertEquals(CaptureStatus.NONE, f.status(origin));
  }

  @Test
  void capturedEventIsUnusableAfterTheCaptureEndsUntilRecordedAgain() {
    CuEvent e = f.driver.eventCreate(0);
    long p = f.allocInt();
    f.capture(
        () -> {
          f.inc(origin, p);
          f.driver.eventRecord(e, origin);
        });
    assertStatus(1, () -> f.driver.eventQuery(e));
    assertStatus(1, () -> f.driver.streamWaitEvent(side, e, 0));
    f.driver.eventRecord(e, side);
    f.driver.streamSynchronize(side);
    assertTrue(f.driver.eventQuery(e), "recording outside capture makes it usable again");
  }
}
