// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 the cuda-graph authors
package cuda.graph;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import cuda.graph.spi.CuResult;
import cuda.graph.spi.DriverCall;
import java.time.Duration;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicReference;
import org.jspecify.annotations.Nullable;
import org.junit.jupiter.api.Test;

/**
 * Failures the driver reports after the work was enqueued: a failed completion query, a failed
 * synchronize, an update whose work fails. Each error reaches someone (the future, the caller, the
 * graph's next use), the event is not lost, and what the work leased stays leased until the work is
 * known to be done.
 */
class CompletionFailureTests extends InstrumentedPlatformFixture {

  private static final int N = 64;
  private static final Duration PATIENCE = Duration.ofSeconds(10);

  @Test
  void aFailedEventQueryFailsTheFutureWithTheDriversErrorAndLosesNoEvent() throws Exception {
    simulator.faults().failNth(DriverCall.EVENT_QUERY, 1, CuResult.INVALID_VALUE);

    CompletableFuture<Integer> future = DeviceOp.value(7).asyncOn(stream);

    ExecutionException e =
        assertThrows(ExecutionException.class, () -> future.get(10, TimeUnit.SECONDS));
    CudaDriverError cause = assertInstanceOf(CudaDriverError.class, e.getCause());
    assertEquals(CuResult.INVALID_VALUE, cause.code());
    assertEquals("cuEventQuery", cause.call());
    // closePlatform() checks that the event was destroyed, not dropped.
  }

  /**
   * The waiting thread queries the event too (to complete without a hand-over), so the failing
   * query may be its own or the polling thread's: either way the future fails with it. The gate
   * keeps the work running while the waiter spins, and the failing query is the first, second or
   * third of the submission, so both threads meet it over the repetitions.
   */
  @org.junit.jupiter.api.RepeatedTest(30)
  void aFailedQueryFailsTheFutureWhicheverThreadMadeIt(
      org.junit.jupiter.api.RepetitionInfo repetition) throws Exception {
    CountDownLatch gate = new CountDownLatch(1);
    simulator
        .faults()
        .failNth(
            DriverCall.EVENT_QUERY,
            1 + repetition.getCurrentRepetition() % 3,
            CuResult.INVALID_VALUE);
    CompletableFuture<@Nullable Void> future = KernelFixtures.hold(gate).asyncOn(stream);
    long queriesBefore = simulator.calls().count(DriverCall.EVENT_QUERY);
    Thread opener =
        Thread.ofPlatform()
            .start(
                () -> {
                  // The work stays unfinished until the failing query has been made.
                  while (simulator.calls().count(DriverCall.EVENT_QUERY) < queriesBefore + 3) {
                    java.util.concurrent.locks.LockSupport.parkNanos(20_000);
                  }
                  gate.countDown();
                });
    ExecutionException e =
        assertThrows(ExecutionException.class, () -> future.get(10, TimeUnit.SECONDS));
    opener.join();
    assertEquals(
        CuResult.INVALID_VALUE, assertInstanceOf(CudaDriverError.class, e.getCause()).code());
  }

  @Test
  void aFailedEventQueryKeepsTheBuffersLeasedUntilTheWorkIsKnownDone() throws Exception {
    DeviceBuffer<Integer> buffer = DeviceBuffer.zeros(ElementType.I32, N).syncOn(stream);
    CountDownLatch gate = new CountDownLatch(1);
    simulator.faults().failNth(DriverCall.EVENT_QUERY, 1, CuResult.INVALID_VALUE);

    CompletableFuture<@Nullable Void> future =
        KernelFixtures.hold(gate).andThen(buffer.fill(2)).asyncOn(stream);
    KernelFixtures.awaitTrue(future::isDone, PATIENCE, "the failed query fails the future");
    buffer.close();

    assertEquals(
        1,
        liveDeviceMemory(),
        "the query failed, so nobody knows the fill ran (it did not: it waits for the gate)");
    gate.countDown();
    KernelFixtures.awaitTrue(
        () -> liveDeviceMemory() == 0, PATIENCE, "freed once a later query says the work is done");
  }

  @Test
  void aSyncOnWhoseSynchronizeFailsKeepsItsBuffersUntilTheQueuedWorkRan() {
    DeviceBuffer<Integer> buffer = DeviceBuffer.zeros(ElementType.I32, N).syncOn(stream);
    CountDownLatch gate = new CountDownLatch(1);
    simulator.faults().failNth(DriverCall.STREAM_SYNCHRONIZE, 1, CuResult.INVALID_VALUE);

    CudaDriverError e =
        assertThrows(
            CudaDriverError.class,
            () -> KernelFixtures.hold(gate).andThen(buffer.fill(4)).syncOn(stream));
    assertEquals("cuStreamSynchronize", e.call());
    buffer.close();

    assertEquals(1, liveDeviceMemory(), "the fill is still queued: the memory must stay");
    gate.countDown();
    KernelFixtures.awaitTrue(
        () -> liveDeviceMemory() == 0, PATIENCE, "freed once the fill has run");
  }

  @Test
  void aSyncOnWhoseOpFailsAndWhoseSynchronizeFailsKeepsItsBuffersUntilTheQueuedWorkRan() {
    DeviceBuffer<Integer> buffer = DeviceBuffer.zeros(ElementType.I32, N).syncOn(stream);
    CountDownLatch gate = new CountDownLatch(1);
    simulator.faults().failNth(DriverCall.STREAM_SYNCHRONIZE, 1, CuResult.INVALID_VALUE);

    CudaDriverError e =
        assertThrows(
            CudaDriverError.class,
            () ->
                KernelFixtures.hold(gate)
                    .andThen(buffer.fill(4))
                    .map(
                        ignored -> {
                          throw new IllegalStateException("the op's own failure");
                        })
                    .syncOn(stream));
    assertEquals("cuStreamSynchronize", e.call());
    buffer.close();

    assertEquals(1, liveDeviceMemory(), "the fill is still queued: the memory must stay");
    gate.countDown();
    KernelFixtures.awaitTrue(
        () -> liveDeviceMemory() == 0, PATIENCE, "freed once the fill has run");
  }

  @Test
  void anUpdateWhoseWorkFailsAfterItWasEnqueuedIsReportedByTheGraphsNextUpdate() {
    DeviceBuffer<Integer> counter = DeviceBuffer.zeros(ElementType.I32, N).syncOn(stream);
    KernelFixtures.ADD_ONE.load(platform.defaultDevice());
    try (CudaGraph<@Nullable Void> graph =
        CudaGraph.capture(
            stream, KernelFixtures.ADD_ONE.launch(LaunchConfig.of(1, N), N, counter))) {
      simulator.faults().failNth(DriverCall.EVENT_QUERY, 1, CuResult.INVALID_VALUE);

      graph.update(counter.fill(10)); // accepted: the failure comes later, from the driver

      AtomicReference<IllegalStateException> reported = new AtomicReference<>();
      KernelFixtures.awaitTrue(
          () -> {
            try {
              graph.update(counter.fill(10));
              return false;
            } catch (IllegalStateException e) {
              reported.set(e);
              return true;
            }
          },
          PATIENCE,
          "a later update reports the failure");
      IllegalStateException e = reported.get();
      assertTrue(e.getMessage().contains("update"), e.getMessage());
      CudaDriverError cause = assertInstanceOf(CudaDriverError.class, e.getCause());
      assertEquals("cuEventQuery", cause.call());

      // Reported once: the graph goes on working.
      graph.update(counter.fill(20));
      graph.launch().syncOn(stream);
      int[] expected = new int[N];
      java.util.Arrays.fill(expected, 21);
      assertArrayEquals(expected, counter.toIntArray().syncOn(stream));
    } finally {
      counter.close();
    }
  }

  @Test
  void aFailedUpdateIsReportedByTheGraphsNextLaunchToo() {
    DeviceBuffer<Integer> counter = DeviceBuffer.zeros(ElementType.I32, N).syncOn(stream);
    KernelFixtures.ADD_ONE.load(platform.defaultDevice());
    try (CudaGraph<@Nullable Void> graph =
        CudaGraph.capture(
            stream, KernelFixtures.ADD_ONE.launch(LaunchConfig.of(1, N), N, counter))) {
      simulator.faults().failNth(DriverCall.EVENT_QUERY, 1, CuResult.INVALID_VALUE);
      graph.update(counter.fill(10));
      KernelFixtures.awaitTrue(
          () -> simulator.faults().fired() == 1, PATIENCE, "the update's query failed");

      AtomicReference<IllegalStateException> reported = new AtomicReference<>();
      KernelFixtures.awaitTrue(
          () -> {
            try {
              graph.launch().syncOn(stream);
              return false;
            } catch (IllegalStateException e) {
              reported.set(e);
              return true;
            }
          },
          PATIENCE,
          "a launch reports the failure");
      assertInstanceOf(CudaDriverError.class, reported.get().getCause());
    } finally {
      counter.close();
    }
  }
}
