// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 the cuda-graph authors
package cuda.graph.simulator;

import static cuda.graph.simulator.SimFixture.assertStatus;
import static org.junit.jupiter.api.Assertions.assertDoesNotThrow;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import cuda.graph.spi.CaptureInfo;
import cuda.graph.spi.CaptureMode;
import cuda.graph.spi.CaptureStatus;
import cuda.graph.spi.CuEvent;
import cuda.graph.spi.CuGraph;
import cuda.graph.spi.CuGraphExec;
import cuda.graph.spi.CuGraphNode;
import cuda.graph.spi.CuStream;
import cuda.graph.spi.EventFlags;
import cuda.graph.spi.GraphNodeType;
import java.lang.foreign.MemorySegment;
import java.util.List;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.AutoClose;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/**
 * Capture fundamentals: spec §3.1, §3.3 (normal end), §3.7 (node types) and §3.9 (introspection).
 */
@Timeout(20)
class CaptureBasicsTests {

  @AutoClose final SimFixture f = SimFixture.start();

  @Test
  void beginCaptureOnTheNullStreamReturns900() {
    assertStatus(900, () -> f.driver.streamBeginCapture(CuStream.NULL, CaptureMode.GLOBAL));
  }

  @Test
  void beginCaptureOnTheLegacyStreamReturns900() {
    assertStatus(900, () -> f.driver.streamBeginCapture(CuStream.LEGACY, CaptureMode.RELAXED));
  }

  @Test
  void beginCaptureTwiceReturns401AndLeavesTheCaptureActive() {
    f.driver.streamBeginCapture(f.stream, CaptureMode.GLOBAL);
    long id = f.driver.streamGetCaptureInfo(f.stream).id();
    assertStatus(401, () -> f.driver.streamBeginCapture(f.stream, CaptureMode.GLOBAL));
    CaptureInfo info = f.driver.streamGetCaptureInfo(f.stream);
    assertEquals(CaptureStatus.ACTIVE, info.status());
    assertEquals(id, info.id());
    assertNotNull(f.driver.streamEndCapture(f.stream));
  }

  @Test
  void beginCaptureOnAnInvalidatedStreamReturns401() {
    f.driver.streamBeginCapture(f.stream, CaptureMode.GLOBAL);
    assertStatus(900, () -> f.driver.streamSynchronize(f.stream));
    assertStatus(401, () -> f.driver.streamBeginCapture(f.stream, CaptureMode.GLOBAL));
    assertEquals(CaptureStatus.INVALIDATED, f.status(f.stream));
  }

  @Test
  void endCaptureOnAStreamThatIsNotCapturingReturns401() {
    assertStatus(401, () -> f.driver.streamEndCapture(f.stream));
  }

  @Test
  void isCapturingIsActiveDuringCaptureAndNoneBeforeAndAfter() {
    assertEquals(CaptureStatus.NONE, f.status(f.stream));
    f.driver.streamBeginCapture(f.stream, CaptureMode.GLOBAL);
    assertEquals(CaptureStatus.ACTIVE, f.status(f.stream));
    f.driver.streamEndCapture(f.stream);
    assertEquals(CaptureStatus.NONE, f.status(f.stream));
  }

  @Test
  void capturedWorkIsRecordedNotExecuted() {
    long p = f.allocInt();
    CuGraph g =
        f.capture(
            () -> {
              f.store(f.stream, p, 9);
              f.driver.memsetD32Async(p + 4, 5, 1, f.stream);
            });
    f.driver.streamSynchronize(f.stream);
    assertEquals(0, f.readInt(p), "the captured kernel did not run");
    assertEquals(0, f.readInt(p + 4), "the captured memset did not run");
    CuGraphExec exec = f.driver.graphInstantiate(g, 0);
    f.driver.graphLaunch(exec, f.stream);
    f.driver.streamSynchronize(f.stream);
    assertEquals(9, f.readInt(p));
    assertEquals(5, f.readInt(p + 4));
  }

  @Test
  void emptyCaptureReturnsAGraphWithNoNodesThatLaunches() {
    CuGraph g = f.capture(() -> {});
    assertEquals(List.of(), f.driver.graphGetNodes(g));
    CuGraphExec exec = f.driver.graphInstantiate(g, 0);
    assertDoesNotThrow(() -> f.driver.graphLaunch(exec, f.stream));
    f.driver.streamSynchronize(f.stream);
  }

  @Test
  void captureInfoOfAnActiveCaptureHasANonZeroIdAndTheGraphUnderConstruction() {
    f.driver.streamBeginCapture(f.stream, CaptureMode.GLOBAL);
    CaptureInfo info = f.driver.streamGetCaptureInfo(f.stream);
    assertEquals(CaptureStatus.ACTIVE, info.status());
    assertNotEquals(0L, info.id());
    assertNotNull(info.graph());
    assertEquals(List.of(), info.dependencies(), "nothing captured yet: no dependencies");
    CuGraph g = f.driver.streamEndCapture(f.stream);
    assertEquals(info.graph(), g, "end capture returns the graph that was under construction");
  }

  @Test
  void captureInfoOfAStreamThatIsNotCapturingIsNoneWithIdZeroAndNoGraph() {
    CaptureInfo info = f.driver.streamGetCaptureInfo(f.stream);
    assertEquals(CaptureStatus.NONE, info.status());
    assertEquals(0L, info.id());
    assertNull(info.graph());
    assertEquals(List.of(), info.dependencies());
  }

  @Test
  void captureIdsAreUniqueAndNonZero() {
    CuStream other = f.newStream();
    f.driver.streamBeginCapture(f.stream, CaptureMode.GLOBAL);
    f.driver.streamBeginCapture(other, CaptureMode.GLOBAL);
    long a = f.driver.streamGetCaptureInfo(f.stream).id();
    long b = f.driver.streamGetCaptureInfo(other).id();
    f.driver.streamEndCapture(other);
    f.driver.streamEndCapture(f.stream);
    f.driver.streamBeginCapture(f.stream, CaptureMode.GLOBAL);
    long c = f.driver.streamGetCaptureInfo(f.stream).id();
    f.driver.streamEndCapture(f.stream);
    assertNotEquals(0L, a);
    assertNotEquals(0L, b);
    assertNotEquals(0L, c);
    assertNotEquals(a, b);
    assertNotEquals(a, c);
    assertNotEquals(b, c);
  }

  @Test
  void sequentialCaptureKeepsOneDependencyTheLastNode() {
    long p = f.allocInt();
    f.driver.streamBeginCapture(f.stream, CaptureMode.GLOBAL);
    f.inc(f.stream, p);
    assertEquals(1, f.driver.streamGetCaptureInfo(f.stream).dependencies().size());
    f.inc(f.stream, p);
    List<CuGraphNode> deps = f.driver.streamGetCaptureInfo(f.stream).dependencies();
    assertEquals(1, deps.size());
    CuGraph g = f.driver.streamEndCapture(f.stream);
    List<CuGraphNode> nodes = f.driver.graphGetNodes(g);
    assertEquals(2, nodes.size());
    assertEquals(nodes.get(1), deps.get(0));
  }

  @Test
  void eachCapturedCallBecomesTheNodeTypeOfSection37() {
    long p = f.allocZeroed(1024);
    long q = f.allocZeroed(1024);
    MemorySegment pinned = f.driver.memAllocHost(64);
    CuEvent outside = f.driver.eventCreate(0);
    f.driver.eventRecord(outside, f.newStream());
    CuEvent external = f.driver.eventCreate(0);
    CuGraph g =
        f.capture(
            () -> {
              f.inc(f.stream, p);
              f.driver.memcpyHtoDAsync(p, pinned, 64, f.stream);
              f.driver.memcpyDtoHAsync(pinned, p, 64, f.stream);
              f.driver.memcpyDtoDAsync(q, p, 64, f.stream);
              f.driver.memsetD8Async(p, (byte) 1, 64, f.stream);
              f.driver.memsetD32Async(p, 1, 16, f.stream);
              f.driver.launchHostFunc(f.stream, () -> {});
              f.driver.eventRecordWithFlags(external, f.stream, EventFlags.RECORD_EXTERNAL);
              f.driver.streamWaitEvent(f.stream, outside, EventFlags.WAIT_EXTERNAL);
              long a = f.driver.memAllocAsync(256, f.stream);
              f.driver.memFreeAsync(a, f.stream);
            });
    assertEquals(
        List.of(
            GraphNodeType.KERNEL,
            GraphNodeType.MEMCPY,
            GraphNodeType.MEMCPY,
            GraphNodeType.MEMCPY,
            GraphNodeType.MEMSET,
            GraphNodeType.MEMSET,
            GraphNodeType.HOST,
            GraphNodeType.EVENT_RECORD,
            GraphNodeType.WAIT_EVENT,
            GraphNodeType.MEM_ALLOC,
            GraphNodeType.MEM_FREE),
        f.nodeTypes(g));
  }

  @Test
  void eventRecordAndWaitOnACapturedEventAddNoNodes() {
    long p = f.allocInt();
    CuEvent e = f.driver.eventCreate(0);
    CuGraph g =
        f.capture(
            () -> {
              f.inc(f.stream, p);
              f.driver.eventRecord(e, f.stream);
              f.driver.streamWaitEvent(f.stream, e, 0);
              f.inc(f.stream, p);
            });
    assertEquals(List.of(GraphNodeType.KERNEL, GraphNodeType.KERNEL), f.nodeTypes(g));
  }

  @Test
  void waitOnANeverRecordedEventInCaptureAddsNoNodeAndKeepsTheCaptureActive() {
    CuEvent never = f.driver.eventCreate(0);
    f.driver.streamBeginCapture(f.stream, CaptureMode.GLOBAL);
    f.driver.streamWaitEvent(f.stream, never, 0);
    assertEquals(CaptureStatus.ACTIVE, f.status(f.stream));
    CuGraph g = f.driver.streamEndCapture(f.stream);
    assertEquals(List.of(), f.driver.graphGetNodes(g));
  }

  @Test
  void capturedHostFunctionDoesNotRunAtCaptureAndRunsOncePerLaunch() {
    AtomicInteger calls = new AtomicInteger();
    CuGraph g = f.capture(() -> f.driver.launchHostFunc(f.stream, calls::incrementAndGet));
    f.driver.streamSynchronize(f.stream);
    assertEquals(0, calls.get());
    CuGraphExec exec = f.driver.graphInstantiate(g, 0);
    f.driver.graphLaunch(exec, f.stream);
    f.driver.graphLaunch(exec, f.stream);
    f.driver.streamSynchronize(f.stream);
    assertEquals(2, calls.get());
  }

  @ParameterizedTest
  @EnumSource(CaptureMode.class)
  void anotherThreadsLaunchIntoTheCapturingStreamIsCaptured(CaptureMode mode) {
    long p = f.allocInt();
    f.driver.streamBeginCapture(f.stream, mode);
    f.inc(f.stream, p);
    f.onNewThread(() -> f.inc(f.stream, p));
    assertEquals(CaptureStatus.ACTIVE, f.status(f.stream));
    CuGraph g = f.driver.streamEndCapture(f.stream);
    assertEquals(List.of(GraphNodeType.KERNEL, GraphNodeType.KERNEL), f.nodeTypes(g));
    f.driver.streamSynchronize(f.stream);
    assertEquals(0, f.readInt(p));
  }

  @Test
  void streamWorkAfterCaptureRunsNormally() {
    long p = f.allocInt();
    f.capture(() -> f.store(f.stream, p, 1));
    f.store(f.stream, p, 2);
    f.driver.streamSynchronize(f.stream);
    assertEquals(2, f.readInt(p));
  }

  @Test
  void destroyingACapturingStreamSucceeds() {
    CuStream s = f.newStream();
    long p = f.allocInt();
    f.driver.streamBeginCapture(s, CaptureMode.GLOBAL);
    f.inc(s, p);
    assertDoesNotThrow(() -> f.driver.streamDestroy(s));
    assertTrue(f.driver.streamQuery(f.stream), "other streams are unaffected");
  }
}
