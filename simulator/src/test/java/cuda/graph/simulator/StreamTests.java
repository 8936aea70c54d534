// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 the cuda-graph authors
package cuda.graph.simulator;

import static cuda.graph.simulator.SimFixture.assertStatus;
import static org.junit.jupiter.api.Assertions.assertDoesNotThrow;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import cuda.graph.spi.CuEvent;
import cuda.graph.spi.CuStream;
import cuda.graph.spi.EventFlags;
import cuda.graph.spi.StreamFlags;
import java.util.concurrent.CountDownLatch;
import org.junit.jupiter.api.AutoClose;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/** Streams outside capture: spec §1.1, §2.3, §5 and §7 (asynchronous, in order per stream). */
@Timeout(20)
class StreamTests {

  @AutoClose final SimFixture f = SimFixture.start();

  @Test
  void streamCreateWithUnknownFlagsReturnsInvalidValue() {
    assertStatus(1, () -> f.driver.streamCreate(2));
  }

  @Test
  void blockingAndNonBlockingStreamsCanBeCreated() {
    assertDoesNotThrow(() -> f.driver.streamCreate(StreamFlags.DEFAULT));
    assertDoesNotThrow(() -> f.driver.streamCreate(StreamFlags.NON_BLOCKING));
  }

  @Test
  void workOnOneStreamRunsInIssueOrder() {
    long p = f.allocInt();
    for (int digit = 1; digit <= 9; digit++) {
      f.appendDigit(f.stream, p, digit);
    }
    f.driver.streamSynchronize(f.stream);
    assertEquals(123456789, f.readInt(p));
  }

  @Test
  void streamQueryOfANewStreamIsReady() {
    assertTrue(f.driver.streamQuery(f.newStream()));
  }

  @Test
  void streamQueryIsNotReadyWhileWorkIsPendingAndReadyAfterwards() {
    CountDownLatch gate = f.gate();
    f.block(f.stream, gate);
    assertFalse(f.driver.streamQuery(f.stream), "busy stream answers NOT_READY (600)");
    gate.countDown();
    f.driver.streamSynchronize(f.stream);
    assertTrue(f.driver.streamQuery(f.stream));
  }

  @Test
  void streamSynchronizeWaitsForAllQueuedWork() {
    long p = f.allocInt();
    CountDownLatch gate = f.gate();
    f.block(f.stream, gate);
    f.store(f.stream, p, 42);
    Thread.ofPlatform()
        .start(
            () -> {
              SimFixture.pause(20);
              gate.countDown();
            });
    f.driver.streamSynchronize(f.stream);
    assertEquals(0, gate.getCount());
    assertEquals(42, f.readInt(p));
  }

  @Test
  void destroyingABusyStreamReturnsAtOnceAndItsWorkStillCompletes() {
    long p = f.allocInt();
    CuStream s = f.newStream();
    CuEvent done = f.driver.eventCreate(EventFlags.DISABLE_TIMING);
    CountDownLatch gate = f.gate();
    f.block(s, gate);
    f.store(s, p, 7);
    f.driver.eventRecord(done, s);
    f.driver.streamDestroy(s);
    assertEquals(1, gate.getCount(), "streamDestroy returned while the stream was still blocked");
    gate.countDown();
    f.driver.eventSynchronize(done);
    assertEquals(7, f.readInt(p));
  }

  @Test
  void independentStreamsRunConcurrently() {
    long p = f.allocInt();
    CuStream other = f.newStream();
    CountDownLatch gate = f.gate();
    f.block(f.stream, gate);
    f.store(other, p, 5);
    f.driver.streamSynchronize(other);
    assertEquals(5, f.readInt(p), "the other stream finished while the first was blocked");
    assertFalse(f.driver.streamQuery(f.stream));
    gate.countDown();
  }

  @Test
  void kernelsLaunchOnNullLegacyAndPerThreadStreams() {
    long a = f.allocInt();
    long b = f.allocInt();
    long c = f.allocInt();
    f.store(CuStream.NULL, a, 1);
    f.store(CuStream.LEGACY, b, 2);
    f.store(CuStream.PER_THREAD, c, 3);
    f.driver.streamSynchronize(CuStream.NULL);
    f.driver.streamSynchronize(CuStream.PER_THREAD);
    assertEquals(1, f.readInt(a));
    assertEquals(2, f.readInt(b));
    assertEquals(3, f.readInt(c));
  }

  @Test
  void legacyStreamWorkWaitsForEarlierWorkOnBlockingStreams() {
    long p = f.allocInt();
    CuStream blocking = f.driver.streamCreate(StreamFlags.DEFAULT);
    CountDownLatch gate = f.gate();
    f.block(blocking, gate);
    f.store(CuStream.LEGACY, p, 9);
    assertFalse(
        f.driver.streamQuery(CuStream.LEGACY),
        "the legacy stream waits for the blocked blocking stream");
    gate.countDown();
    f.driver.streamSynchronize(CuStream.LEGACY);
    assertEquals(9, f.readInt(p));
  }

  @Test
  void legacyStreamDoesNotWaitForNonBlockingStreams() {
    long p = f.allocInt();
    CountDownLatch gate = f.gate();
    f.block(f.stream, gate);
    f.store(CuStream.LEGACY, p, 4);
    f.driver.streamSynchronize(CuStream.LEGACY);
    assertEquals(4, f.readInt(p));
    assertEquals(1, gate.getCount());
    assertFalse(f.driver.streamQuery(f.stream), "the non-blocking stream is still blocked");
    gate.countDown();
  }

  @Test
  void streamWaitEventOrdersWorkAcrossStreams() {
    long p = f.allocInt();
    CuStream other = f.newStream();
    CuEvent e = f.driver.eventCreate(EventFlags.DISABLE_TIMING);
    CountDownLatch gate = f.gate();
    f.block(f.stream, gate);
    f.appendDigit(f.stream, p, 1);
    f.driver.eventRecord(e, f.stream);
    f.driver.streamWaitEvent(other, e, 0);
    f.appendDigit(other, p, 2);
    SimFixture.pause(20);
    assertFalse(f.driver.streamQuery(other), "the waiting stream cannot pass the event");
    gate.countDown();
    f.driver.streamSynchronize(other);
    assertEquals(12, f.readInt(p));
  }

  @Test
  void streamWaitEventOnANeverRecordedEventIsANoOp() {
    long p = f.allocInt();
    CuEvent e = f.driver.eventCreate(0);
    f.driver.streamWaitEvent(f.stream, e, 0);
    f.store(f.stream, p, 3);
    f.driver.streamSynchronize(f.stream);
    assertEquals(3, f.readInt(p));
  }

  @Test
  void streamWaitEventWithUnknownFlagsReturnsInvalidValue() {
    CuEvent e = f.driver.eventCreate(0);
    assertStatus(1, () -> f.driver.streamWaitEvent(f.stream, e, 4));
  }

  @Test
  void streamWaitEventWithWaitExternalOutsideCaptureReturnsIllegalState() {
    CuEvent e = f.driver.eventCreate(0);
    f.driver.eventRecord(e, f.newStream());
    assertStatus(401, () -> f.driver.streamWaitEvent(f.stream, e, EventFlags.WAIT_EXTERNAL));
  }
}
