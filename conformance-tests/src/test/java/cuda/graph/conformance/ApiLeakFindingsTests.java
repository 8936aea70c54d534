// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 the cuda-graph authors
package cuda.graph.conformance;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import cuda.graph.DeviceOp;
import cuda.graph.simulator.Simulator;
import cuda.graph.spi.HandleKind;
import java.time.Duration;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

/** What the kit's strict ledger found in the API, one regression test per finding (all fixed). */
class ApiLeakFindingsTests {

  /** Fixed: the completion service pooled events for async work and never destroyed them. */
  @Test
  void asyncWorkLeavesNoCompletionEventBehindOnceThePlatformCloses() {
    ConformanceSession session = ConformanceSession.open(Simulator.create(), "simulator");
    CompletableFuture<Integer> future = DeviceOp.value(1).asyncOn(session.stream());
    assertEquals(1, future.join());
    assertEquals(
        1, session.driver().ledger().live(HandleKind.EVENT), "one pooled completion event");

    session.close(); // throws ConformanceViolation if the event outlives the platform
  }

  /**
   * Fixed: {@code sync()} with the default round-robin policy creates streams "kept for the life of
   * the platform", which {@code CudaPlatform.close()} did not destroy.
   */
  @Test
  void syncWithTheDefaultPolicyLeavesNoStreamBehindOnceThePlatformCloses() {
    ConformanceSession session = ConformanceSession.open(Simulator.create(), "simulator");
    assertEquals(1, session.platform().callAsCurrent(() -> DeviceOp.value(1).sync()));

    session.close(); // throws ConformanceViolation: live handles {STREAM=4}
  }

  /**
   * Fixed: futures whose work is still running when the platform closes were completed only if the
   * completion thread had not picked them up yet. Now every one fails once its work has stopped,
   * and releases what it held.
   */
  @Test
  void everyPendingFutureCompletesWhenThePlatformCloses() throws Exception {
    ConformanceSession session =
        ConformanceSession.open(
            Simulator.builder().executionDelay(Duration.ofMillis(50)).build(), "simulator");
    CompletableFuture<Integer> future = DeviceOp.value(1).asyncOn(session.stream());
    Thread.sleep(10); // let the completion thread take the future into its own list
    session.close(); // throws ConformanceViolation if the pending work leaked anything
    assertTrue(
        future.isDone() || awaitDone(future),
        "the future must complete, normally or exceptionally");
  }

  private static boolean awaitDone(CompletableFuture<?> future) {
    try {
      future.get(1, TimeUnit.SECONDS);
    } catch (Exception e) {
      return future.isDone();
    }
    return true;
  }
}
