// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 the cuda-graph authors
package cuda.graph.simulator;

import static cuda.graph.simulator.SimFixture.assertStatus;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;

import cuda.graph.spi.CaptureMode;
import cuda.graph.spi.CaptureStatus;
import cuda.graph.spi.CuGraph;
import cuda.graph.spi.CuStream;
import cuda.graph.spi.GraphNodeType;
import cuda.graph.spi.StreamFlags;
import java.lang.foreign.MemorySegment;
import java.util.List;
import org.junit.jupiter.api.AutoClose;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/** Spec §3.4: the legacy stream and blocking capturing streams (906 IMPLICIT). */
@Timeout(20)
class LegacyStreamTests {

  @AutoClose final SimFixture f = SimFixture.start();

  private final CuStream blocking = f.driver.streamCreate(StreamFlags.DEFAULT);
  private final long p = f.allocInt();

  private void beginOnBlocking(CaptureMode mode) {
    f.driver.streamBeginCapture(blocking, mode);
    f.inc(blocking, p);
  }

  @ParameterizedTest
  @EnumSource(CaptureMode.class)
  void launchOnTheNullStreamWhileABlockingStreamCapturesReturns906AndInvalidates(CaptureMode mode) {
    beginOnBlocking(mode);
    assertStatus(906, () -> f.store(CuStream.NULL, p, 1));
    assertEquals(CaptureStatus.INVALIDATED, f.status(blocking));
    assertStatus(901, () -> f.driver.streamEndCapture(blocking));
  }

  @Test
  void launchOnTheLegacyHandleWhileABlockingStreamCapturesReturns906() {
    beginOnBlocking(CaptureMode.GLOBAL);
    assertStatus(906, () -> f.store(CuStream.LEGACY, p, 1));
    assertEquals(CaptureStatus.INVALIDATED, f.status(blocking));
  }

  @Test
  void isCapturingOfTheLegacyStreamReturns906WithoutInvalidating() {
    beginOnBlocking(CaptureMode.GLOBAL);
    assertStatus(906, () -> f.driver.streamIsCapturing(CuStream.LEGACY));
    assertEquals(CaptureStatus.ACTIVE, f.status(blocking));
    CuGraph g = f.driver.streamEndCapture(blocking);
    assertNotNull(g);
    assertEquals(List.of(GraphNodeType.KERNEL), f.nodeTypes(g));
  }

  @Test
  void captureInfoOfTheLegacyStreamWhileABlockingStreamCapturesReturns906() {
    beginOnBlocking(CaptureMode.GLOBAL);
    assertStatus(906, () -> f.driver.streamGetCaptureInfo(CuStream.LEGACY));
  }

  @ParameterizedTest
  @EnumSource(CaptureMode.class)
  void queryOfTheLegacyStreamWhileABlockingStreamCapturesReturns906AndInvalidates(
      CaptureMode mode) {
    beginOnBlocking(mode);
    assertStatus(906, () -> f.driver.streamQuery(CuStream.LEGACY));
    assertEquals(CaptureStatus.INVALIDATED, f.status(blocking));
  }

  @ParameterizedTest
  @EnumSource(CaptureMode.class)
  void synchronousCopyWhileABlockingStreamCapturesReturns906EvenWhenRelaxed(CaptureMode mode) {
    MemorySegment host = f.hostInt(5);
    beginOnBlocking(mode);
    assertStatus(906, () -> f.driver.memcpyHtoD(p, host, 4));
    assertEquals(CaptureStatus.INVALIDATED, f.status(blocking));
    assertStatus(901, () -> f.driver.streamEndCapture(blocking));
    assertEquals(0, f.readInt(p), "the failed copy did not write");
  }

  @Test
  void nonBlockingCaptureLeavesTheLegacyStreamAlone() {
    f.driver.streamBeginCapture(f.stream, CaptureMode.GLOBAL);
    f.inc(f.stream, p);
    f.store(CuStream.NULL, p, 8);
    assertEquals(CaptureStatus.NONE, f.status(CuStream.LEGACY));
    assertEquals(8, f.readInt(p), "the legacy launch ran eagerly");
    assertEquals(CaptureStatus.ACTIVE, f.status(f.stream));
    CuGraph g = f.driver.streamEndCapture(f.stream);
    assertEquals(List.of(GraphNodeType.KERNEL), f.nodeTypes(g));
  }
}
