// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 the cuda-graph authors
package cuda.graph;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import cuda.graph.spi.CuResult;
import java.time.Duration;
import java.util.Arrays;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * Events: recorded in stream order, observed from the host, waited for by another stream, and
 * timed.
 */
class CudaEventTests {

  private CudaPlatform platform;
  private Stream stream;

  @BeforeEach
  void openPlatform() {
    // Every queued operation lags 20 ms, so timings and waits are visible.
    platform = SimulatorPlatforms.delayed(Duration.ofMillis(20));
    stream = platform.defaultDevice().newStream();
  }

  @AfterEach
  void closePlatform() {
    stream.close();
    platform.close();
  }

  @Test
  void anEventIsDoneOnlyOnceTheWorkBeforeItsRecordCompleted() {
    try (CudaEvent event = platform.defaultDevice().newEvent();
        DeviceBuffer<Integer> buffer = DeviceBuffer.zeros(ElementType.I32, 4).syncOn(stream)) {
      assertTrue(event.isDone(), "never recorded");

      CountDownLatch gate = new CountDownLatch(1);
      CompletableFuture<Void> future =
          KernelFixtures.hold(gate).andThen(buffer.fill(1)).andThen(event.record()).asyncOn(stream);
      assertFalse(event.isDone());
      gate.countDown();

      event.synchronize();
      assertTrue(event.isDone());
      assertArrayEquals(new int[] {1, 1, 1, 1}, buffer.toIntArray().syncOn(stream));
      future.join();
    }
  }

  @Test
  void anotherStreamWaitingForAnEventSeesTheWorkBeforeIt() {
    try (Stream other = platform.defaultDevice().newStream();
        CudaEvent written = platform.defaultDevice().newEvent();
        DeviceBuffer<Integer> buffer = DeviceBuffer.zeros(ElementType.I32, 8).syncOn(stream)) {
      // Four slow fills on one stream, never waited for on the host ...
      CompletableFuture<Void> writes =
          buffer
              .fill(1)
              .andThen(buffer.fill(2))
              .andThen(buffer.fill(3))
              .andThen(buffer.fill(4))
              .andThen(written.record())
              .asyncOn(stream);
      // ... and a read on another stream that waits for the event: it sees the last fill.
      int[] read = written.waitFor().andThen(buffer.toIntArray()).syncOn(other);

      int[] fours = new int[8];
      Arrays.fill(fours, 4);
      assertArrayEquals(fours, read);
      writes.join();
    }
  }

  @Test
  void elapsedTimeMeasuresTheGpuTimeBetweenTwoRecords() {
    try (CudaEvent start = platform.defaultDevice().newEvent();
        CudaEvent end = platform.defaultDevice().newEvent();
        DeviceBuffer<Integer> buffer = DeviceBuffer.zeros(ElementType.I32, 4).syncOn(stream)) {
      start
          .record()
          .andThen(buffer.fill(1))
          .andThen(buffer.fill(2))
          .andThen(end.record())
          .syncOn(stream);

      float millis = end.elapsedMillisSince(start);

      // Three operations of 20 ms each ran after the start was recorded.
      assertTrue(millis >= 50f && millis < 10_000f, "elapsed " + millis + " ms");
      assertTrue(start.elapsedMillisSince(end) < 0, "reversed, the time is negative");
    }
  }

  @Test
  void elapsedTimeOfWorkStillQueuedIsNotReady() {
    try (CudaEvent start = platform.defaultDevice().newEvent();
        CudaEvent end = platform.defaultDevice().newEvent()) {
      CountDownLatch gate = new CountDownLatch(1);
      CompletableFuture<Void> future =
          start.record().andThen(KernelFixtures.hold(gate)).andThen(end.record()).asyncOn(stream);

      CudaDriverError e = assertThrows(CudaDriverError.class, () -> end.elapsedMillisSince(start));
      assertEquals(CuResult.NOT_READY, e.code());
      gate.countDown();
      future.join();
      assertTrue(end.elapsedMillisSince(start) >= 0);
    }
  }

  @Test
  void aClosedEventRefusesUseAndItsOps() {
    CudaEvent event = platform.defaultDevice().newEvent();
    assertEquals(platform.defaultDevice(), event.device());
    event.close();
    event.close(); // idempotent

    assertThrows(IllegalStateException.class, event::isDone);
    assertThrows(IllegalStateException.class, event::synchronize);
    assertThrows(IllegalStateException.class, () -> event.record().syncOn(stream));
    assertThrows(IllegalStateException.class, () -> event.waitFor().syncOn(stream));
  }
}
