// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 the cuda-graph authors
package cuda.graph;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.time.Duration;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicReference;
import org.jspecify.annotations.Nullable;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * Dependent stages that are not {@code *Async} never run on the thread that observes completions:
 * one stage that blocks (on a latch, or on another future of the same platform) stalls only itself,
 * never the other futures of the platform.
 */
class DependentStageTests {

  private CudaPlatform platform;
  private Stream first;
  private Stream second;

  @BeforeEach
  void openPlatform() {
    platform = SimulatorPlatforms.delayed(Duration.ofMillis(1));
    first = platform.defaultDevice().newStream();
    second = platform.defaultDevice().newStream();
  }

  @AfterEach
  void closePlatform() {
    first.close();
    second.close();
    platform.close();
  }

  @Test
  void aStageThatBlocksDoesNotStallTheOtherFuturesOfThePlatform() throws Exception {
    CountDownLatch start = new CountDownLatch(1);
    CountDownLatch release = new CountDownLatch(1);
    CountDownLatch stageRunning = new CountDownLatch(1);
    CompletableFuture<@Nullable Void> blocked =
        KernelFixtures.hold(start)
            .asyncOn(first)
            .thenRun(
                () -> {
                  stageRunning.countDown();
                  try {
                    release.await(20, TimeUnit.SECONDS);
                  } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                  }
                });
    start.countDown();
    try {
      assertTrue(stageRunning.await(10, TimeUnit.SECONDS), "the blocking stage runs");

      assertEquals(2, DeviceOp.value(2).asyncOn(second).get(5, TimeUnit.SECONDS));
    } finally {
      release.countDown();
    }
    blocked.get(10, TimeUnit.SECONDS);
  }

  @Test
  void aStageThatJoinsAnotherFutureOfThePlatformDoesNotDeadlockIt() throws Exception {
    CountDownLatch start = new CountDownLatch(1);
    CountDownLatch later = new CountDownLatch(1);
    CompletableFuture<Integer> other =
        KernelFixtures.hold(later).andThen(DeviceOp.value(40)).asyncOn(second);
    CompletableFuture<Integer> sum =
        KernelFixtures.hold(start)
            .andThen(DeviceOp.value(2))
            .asyncOn(first)
            .thenApply(two -> two + other.join());
    start.countDown();
    Thread.sleep(20); // the stage is blocked in join() by now
    later.countDown();

    assertEquals(42, sum.get(5, TimeUnit.SECONDS));
  }

  @Test
  void aStageRegisteredBeforeCompletionRunsElsewhereThanTheCompletionThread() throws Exception {
    CountDownLatch start = new CountDownLatch(1);
    AtomicReference<String> where = new AtomicReference<>();
    CompletableFuture<@Nullable Void> stage =
        KernelFixtures.hold(start)
            .asyncOn(first)
            .thenRun(() -> where.set(Thread.currentThread().getName()));
    start.countDown();

    stage.get(10, TimeUnit.SECONDS);

    assertNotEquals("cuda-graph-completion", where.get());
  }
}
