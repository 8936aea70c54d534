// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 the cuda-graph authors
package cuda.graph;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import cuda.graph.internal.bootstrap.ProviderSelector.Opened;
import cuda.graph.internal.runtime.CudaPlatformImpl;
import cuda.graph.simulator.Simulator;
import cuda.graph.spi.DriverCall;
import cuda.graph.spi.HandleKind;
import cuda.graph.testkit.InstrumentedDriver;
import java.lang.ref.Reference;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import org.jspecify.annotations.Nullable;
import org.junit.jupiter.api.Test;

/**
 * What a user can rely on when a platform closes, or the process exits: every future completes
 * (normally, or failed with a message saying the platform closed), nothing the platform made is
 * left allocated, and nothing is released under work that is still running.
 */
class PlatformCloseTests {

  private static final Duration PATIENCE = Duration.ofSeconds(10);

  private static void assertCompletedOrFailedBecauseClosed(CompletableFuture<?> future) {
    try {
      future.join();
    } catch (CompletionException e) {
      Throwable cause = e.getCause();
      assertInstanceOf(IllegalStateException.class, cause, "failed for another reason: " + cause);
      String message = cause.getMessage().toLowerCase(java.util.Locale.ROOT);
      assertTrue(message.contains("platform") && message.contains("closed"), cause.getMessage());
    }
  }

  @Test
  void everyFutureSubmittedWhileThePlatformClosesCompletesAndNothingLeaks() throws Exception {
    InstrumentedDriver simulator = SimulatorPlatforms.instrumented(Simulator.create());
    CudaPlatform platform = SimulatorPlatforms.over(simulator);
    List<CompletableFuture<?>> futures = java.util.Collections.synchronizedList(new ArrayList<>());
    AtomicBoolean stop = new AtomicBoolean();
    CountDownLatch submitting = new CountDownLatch(4);
    List<Thread> submitters = new ArrayList<>();
    for (int t = 0; t < 4; t++) {
      submitters.add(
          Thread.ofPlatform()
              .start(
                  () ->
                      platform.runAsCurrent(
                          () -> {
                            submitting.countDown();
                            for (int i = 0; i < 300 && !stop.get(); i++) {
                              try {
                                futures.add(
                                    DeviceBuffer.fromArray(new int[] {1, 2, 3})
                                        .then(DeviceBuffer::free)
                                        .async());
                                futures.add(DeviceOp.value(1).async());
                              } catch (IllegalStateException e) {
                                // async() picks no stream of a closed platform
                                futures.add(CompletableFuture.failedFuture(e));
                              }
                              try {
                                Thread.sleep(1); // keep submitting until the close is over
                              } catch (InterruptedException e) {
                                return;
                              }
                            }
                          })));
    }
    assertTrue(submitting.await(10, TimeUnit.SECONDS));
    KernelFixtures.awaitTrue(() -> futures.size() > 100, PATIENCE, "work is being submitted");
    // Work that is still running when the close begins, and goes on for a while after.
    CountDownLatch gate = new CountDownLatch(1);
    Stream held = platform.defaultDevice().newStream();
    futures.add(KernelFixtures.hold(gate).asyncOn(held));
    Thread.ofVirtual()
        .start(
            () -> {
              KernelFixtures.awaitTrue(
                  CudaPlatformImpl.of(platform)::isClosed, PATIENCE, "the platform is closing");
              try {
                Thread.sleep(100);
              } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
              }
              gate.countDown();
            });
    held.close();

    platform.close();
    Thread.sleep(20); // submissions go on for a while after the close
    stop.set(true);
    for (Thread t : submitters) {
      t.join();
    }

    List<CompletableFuture<?>> all;
    synchronized (futures) {
      all = List.copyOf(futures);
    }
    KernelFixtures.awaitTrue(
        () -> all.stream().allMatch(CompletableFuture::isDone), PATIENCE, "every future is done");
    all.forEach(PlatformCloseTests::assertCompletedOrFailedBecauseClosed);
    assertEquals(List.of(), simulator.violations(), "no call used a destroyed handle");
    assertEquals(
        Map.of(),
        simulator.ledger().liveCounts(),
        () -> String.join("\n", simulator.ledger().describeLive()));
  }

  @Test
  void aFuturePendingAtCloseCompletesEvenWhileADependentStageRunsForSeconds() throws Exception {
    CudaPlatform platform = SimulatorPlatforms.delayed(Duration.ofMillis(1));
    Stream held = platform.defaultDevice().newStream();
    Stream other = platform.defaultDevice().newStream();
    CountDownLatch closing = new CountDownLatch(1);
    CompletableFuture<@Nullable Void> pending = KernelFixtures.hold(closing).asyncOn(held);
    Thread.sleep(20); // the completion thread takes it up

    CountDownLatch start = new CountDownLatch(1);
    CountDownLatch stageRunning = new CountDownLatch(1);
    CompletableFuture<@Nullable Void> slow =
        KernelFixtures.hold(start)
            .asyncOn(other)
            .thenRun(
                () -> {
                  stageRunning.countDown();
                  try {
                    Thread.sleep(1500);
                  } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                  }
                });
    start.countDown();
    assertTrue(stageRunning.await(10, TimeUnit.SECONDS), "the slow stage runs");
    Thread.ofVirtual()
        .start(
            () -> {
              KernelFixtures.awaitTrue(
                  CudaPlatformImpl.of(platform)::isClosed, PATIENCE, "the platform is closing");
              closing.countDown();
            });

    platform.close();

    KernelFixtures.awaitTrue(pending::isDone, Duration.ofSeconds(5), "the pending future is done");
    assertCompletedOrFailedBecauseClosed(pending);
    slow.get(10, TimeUnit.SECONDS);
    held.close();
    other.close();
  }

  @Test
  void aBufferStillOpenWhenItsPlatformClosesIsFreedAndItsLaterUseSaysThePlatformIsClosed() {
    InstrumentedDriver simulator = SimulatorPlatforms.instrumented(Simulator.create());
    CudaPlatform platform = SimulatorPlatforms.over(simulator);
    Stream stream = platform.defaultDevice().newStream();
    DeviceBuffer<Integer> open = DeviceBuffer.zeros(ElementType.I32, 8).syncOn(stream);

    platform.close();

    assertEquals(0, simulator.ledger().live(HandleKind.DEVICE_MEMORY), "freed by the close");
    assertFalse(open.isClosed(), "the object is as its owner left it");
    IllegalStateException e =
        assertThrows(IllegalStateException.class, () -> open.fill(1).syncOn(stream));
    String message = e.getMessage().toLowerCase(java.util.Locale.ROOT);
    assertTrue(message.contains("platform") && message.contains("closed"), e.getMessage());
    open.close(); // no driver call, no second free
    assertEquals(List.of(), simulator.violations());
  }

  @Test
  void closingAPlatformFromInsideAnOpIsRefusedRatherThanWaitingForItself() throws Exception {
    CudaPlatform platform = SimulatorPlatforms.simulator();
    Stream stream = platform.defaultDevice().newStream();
    CompletableFuture<Integer> inside =
        CompletableFuture.supplyAsync(
            () ->
                DeviceOp.value(1)
                    .map(
                        x -> {
                          platform.close(); // would wait for this very execution
                          return x;
                        })
                    .syncOn(stream));

    java.util.concurrent.ExecutionException e =
        assertThrows(
            java.util.concurrent.ExecutionException.class, () -> inside.get(5, TimeUnit.SECONDS));
    IllegalStateException refused = assertInstanceOf(IllegalStateException.class, e.getCause());
    assertTrue(refused.getMessage().contains("inside"), refused.getMessage());
    assertFalse(CudaPlatformImpl.of(platform).isClosed(), "the platform is still open");
    assertEquals(1, DeviceOp.value(1).syncOn(stream), "and works");
    stream.close();
    platform.close();
  }

  /** What {@link #leaveThingsBehind} left: the work still running, and what the test holds. */
  private record Leftovers(CompletableFuture<@Nullable Void> pending, List<Object> held) {}

  /**
   * Uses the platform as an application would, leaving some of it to the process's end: buffers
   * still open, staging memory in the pool, a graph left open and a launch outstanding of a closed
   * one, the default policy's streams, work still running (until {@code gate} opens) and, if {@code
   * dropOne}, a buffer dropped without {@code close()} (which the cleaner may free at any time).
   */
  private static Leftovers leaveThingsBehind(
      CudaPlatform platform, Stream stream, CountDownLatch gate, boolean dropOne) {
    Device device = platform.defaultDevice();
    List<Object> held = new ArrayList<>();
    DeviceBuffer<Float> kept = DeviceBuffer.fromArray(new float[4096]).syncOn(stream);
    held.add(kept);
    kept.toFloatArray().syncOn(stream); // staging memory, pooled
    DeviceBuffer<Integer> dropped = DeviceBuffer.zeros(ElementType.I32, 32).syncOn(stream);
    if (!dropOne) {
      held.add(dropped);
    }
    DeviceBuffer<Integer> counter = DeviceBuffer.zeros(ElementType.I32, 8).syncOn(stream);
    held.add(counter);
    KernelFixtures.ADD_ONE.load(device);
    held.add(
        CudaGraph.capture(
            stream, KernelFixtures.ADD_ONE.launch(LaunchConfig.of(1, 8), 8, counter)));
    CudaGraph<@Nullable Void> closed =
        CudaGraph.capture(stream, KernelFixtures.ADD_ONE.launch(LaunchConfig.of(1, 8), 8, counter));
    held.add(closed.launch());
    closed.close();
    platform.runAsCurrent(() -> DeviceOp.value(1).sync()); // the default policy's streams
    CompletableFuture<@Nullable Void> pending =
        KernelFixtures.hold(gate).andThen(kept.fill(1f)).asyncOn(stream); // still running
    return new Leftovers(pending, held);
  }

  private static CudaPlatformImpl processWidePlatform(InstrumentedDriver simulator) {
    simulator.init(0);
    return CudaPlatformImpl.bootstrap(
            () -> new Opened(simulator, "simulator", List.of("cuda.graph: a test's own")))
        .get();
  }

  @Test
  void atExitTheProcessWidePlatformReleasesEverythingItOwnsOnceItsWorkIsDone() {
    InstrumentedDriver simulator = SimulatorPlatforms.instrumented(Simulator.create());
    CudaPlatformImpl platform = processWidePlatform(simulator);
    Stream stream = platform.defaultDevice().newStream();
    CountDownLatch gate = new CountDownLatch(1);
    Leftovers leftovers = leaveThingsBehind(platform, stream, gate, true);
    CompletableFuture<@Nullable Void> pending = leftovers.pending();
    stream.close();
    platform.close();
    assertFalse(platform.isClosed(), "close() leaves the process-wide platform alone");
    Thread.ofVirtual()
        .start(
            () -> {
              KernelFixtures.awaitTrue(platform::isClosed, PATIENCE, "the exit hook runs");
              gate.countDown();
            });

    platform.closeAtExit(); // what the shutdown hook runs
    platform.closeAtExit(); // and once only

    assertTrue(pending.isDone(), "the work still running was waited for");
    assertCompletedOrFailedBecauseClosed(pending);
    assertEquals(
        Map.of(),
        simulator.ledger().liveCounts(),
        "nothing outlives the process-wide platform: " + simulator.ledger().describeLive());
    assertEquals(List.of(), simulator.violations());
    assertThrows(
        RuntimeException.class,
        () -> DeviceOp.value(1).syncOn(platform.defaultDevice().newStream()),
        "nothing runs after the exit hook");
    Reference.reachabilityFence(leftovers);
  }

  @Test
  void atExitWorkThatIsStillRunningPastTheDeadlineKeepsItsMemory() {
    InstrumentedDriver simulator = SimulatorPlatforms.instrumented(Simulator.create());
    CudaPlatformImpl platform = processWidePlatform(simulator);
    Stream stream = platform.defaultDevice().newStream();
    CountDownLatch gate = new CountDownLatch(1);
    Leftovers leftovers = leaveThingsBehind(platform, stream, gate, false);
    CompletableFuture<@Nullable Void> pending = leftovers.pending();
    long freesBefore = simulator.calls().count(DriverCall.MEM_FREE_ASYNC);
    try {
      platform.closeAtExit(Duration.ofMillis(200));

      assertEquals(
          freesBefore,
          simulator.calls().count(DriverCall.MEM_FREE_ASYNC),
          "the work still runs: nothing is freed under it, the process's end reclaims it");
      assertTrue(platform.isClosed(), "and no new work is accepted");
    } finally {
      gate.countDown();
    }
    KernelFixtures.awaitTrue(pending::isDone, PATIENCE, "the pending future still completes");
    Reference.reachabilityFence(leftovers);
  }
}
