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
import java.util.concurrent.CountDownLatch;
import org.junit.jupiter.api.AutoClose;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/** Events outside capture: spec §2.3 event rows and §7. */
@Timeout(20)
class EventTests {

  @AutoClose final SimFixture f = SimFixture.start();

  @Test
  void eventCreateWithUnknownFlagReturnsInvalidValue() {
    assertStatus(1, () -> f.driver.eventCreate(0x80));
  }

  @Test
  void interprocessEventWithoutDisableTimingReturnsInvalidValue() {
    assertStatus(1, () -> f.driver.eventCreate(EventFlags.INTERPROCESS));
    assertDoesNotThrow(
        () -> f.driver.eventCreate(EventFlags.INTERPROCESS | EventFlags.DISABLE_TIMING));
  }

  @Test
  void neverRecordedEventIsCompleteForQueryAndSynchronize() {
    CuEvent e = f.driver.eventCreate(0);
    assertTrue(f.driver.eventQuery(e));
    assertDoesNotThrow(() -> f.driver.eventSynchronize(e));
  }

  @Test
  void eventQueryIsNotReadyUntilTheRecordedWorkCompletes() {
    CuEvent e = f.driver.eventCreate(0);
    CountDownLatch gate = f.gate();
    f.block(f.stream, gate);
    f.driver.eventRecord(e, f.stream);
    assertFalse(f.driver.eventQuery(e));
    gate.countDown();
    f.driver.streamSynchronize(f.stream);
    assertTrue(f.driver.eventQuery(e));
  }

  @Test
  void eventSynchronizeWaitsForTheRecordedWork() {
    long p = f.allocInt();
    CuEvent e = f.driver.eventCreate(0);
    CountDownLatch gate = f.gate();
    f.block(f.stream, gate);
    f.store(f.stream, p, 11);
    f.driver.eventRecord(e, f.stream);
    Thread.ofPlatform()
        .start(
            () -> {
              SimFixture.pause(20);
              gate.countDown();
            });
    f.driver.eventSynchronize(e);
    assertEquals(11, f.readInt(p));
  }

  @Test
  void eventStandsOnlyForWorkQueuedBeforeTheRecord() {
    CuEvent e = f.driver.eventCreate(0);
    f.driver.eventRecord(e, f.stream);
    f.driver.eventSynchronize(e);
    CountDownLatch gate = f.gate();
    f.block(f.stream, gate);
    assertTrue(f.driver.eventQuery(e), "work queued after the record does not affect the event");
    gate.countDown();
  }

  @Test
  void recordingAgainReplacesTheEventsWorkSet() {
    CuEvent e = f.driver.eventCreate(0);
    CountDownLatch gate = f.gate();
    f.block(f.stream, gate);
    f.driver.eventRecord(e, f.stream);
    assertFalse(f.driver.eventQuery(e));
    CuStream idle = f.newStream();
    f.driver.eventRecord(e, idle);
    f.driver.streamSynchronize(idle);
    assertTrue(f.driver.eventQuery(e), "the second record overwrote the first");
    gate.countDown();
  }

  @Test
  void elapsedTimeOfCompletedTimedEventsIsNonNegative() {
    CuEvent start = f.driver.eventCreate(0);
    CuEvent end = f.driver.eventCreate(0);
    f.driver.eventRecord(start, f.stream);
    f.probe(f.stream);
    f.driver.eventRecord(end, f.stream);
    f.driver.eventSynchronize(end);
    assertTrue(f.driver.eventElapsedTime(start, end) >= 0f);
  }

  @Test
  void elapsedTimeWithAPendingEventReturnsNotReady() {
    CuEvent start = f.driver.eventCreate(0);
    CuEvent end = f.driver.eventCreate(0);
    f.driver.eventRecord(start, f.stream);
    f.driver.eventSynchronize(start);
    CountDownLatch gate = f.gate();
    f.block(f.stream, gate);
    f.driver.eventRecord(end, f.stream);
    assertStatus(600, () -> f.driver.eventElapsedTime(start, end));
    gate.countDown();
  }

  @Test
  void elapsedTimeWithANeverRecordedEventReturnsInvalidHandle() {
    CuEvent start = f.driver.eventCreate(0);
    CuEvent end = f.driver.eventCreate(0);
    f.driver.eventRecord(start, f.stream);
    f.driver.eventSynchronize(start);
    assertStatus(400, () -> f.driver.eventElapsedTime(start, end));
  }

  @Test
  void elapsedTimeOfDisableTimingEventsReturnsInvalidHandle() {
    CuEvent start = f.driver.eventCreate(EventFlags.DISABLE_TIMING);
    CuEvent end = f.driver.eventCreate(EventFlags.DISABLE_TIMING);
    f.driver.eventRecord(start, f.stream);
    f.driver.eventRecord(end, f.stream);
    f.driver.eventSynchronize(end);
    assertStatus(400, () -> f.driver.eventElapsedTime(start, end));
  }

  @Test
  void recordWithExternalFlagOutsideCaptureReturnsIllegalState() {
    CuEvent e = f.driver.eventCreate(0);
    assertStatus(401, () -> f.driver.eventRecordWithFlags(e, f.stream, EventFlags.RECORD_EXTERNAL));
  }

  @Test
  void recordWithFlagsZeroBehavesLikeRecord() {
    CuEvent e = f.driver.eventCreate(0);
    CountDownLatch gate = f.gate();
    f.block(f.stream, gate);
    f.driver.eventRecordWithFlags(e, f.stream, 0);
    assertFalse(f.driver.eventQuery(e));
    gate.countDown();
    f.driver.eventSynchronize(e);
    assertTrue(f.driver.eventQuery(e));
  }

  @Test
  void eventDestroyReturnsAtOnceWhileRecordedWorkIsPending() {
    long p = f.allocInt();
    CuEvent e = f.driver.eventCreate(0);
    CountDownLatch gate = f.gate();
    f.block(f.stream, gate);
    f.driver.eventRecord(e, f.stream);
    f.store(f.stream, p, 8);
    f.driver.eventDestroy(e);
    assertEquals(1, gate.getCount());
    gate.countDown();
    f.driver.streamSynchronize(f.stream);
    assertEquals(8, f.readInt(p));
  }
}
