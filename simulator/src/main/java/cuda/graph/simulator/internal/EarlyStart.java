// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 the cuda-graph authors
package cuda.graph.simulator.internal;

import java.util.concurrent.CountDownLatch;

/**
 * Programmatic dependent launch between two kernels of a graph launch, modelled in its most
 * adversarial legal order: the dependent kernel starts as soon as the primary triggers ({@code
 * cudaTriggerProgrammaticLaunchCompletion}), runs up to its {@code cudaGridDependencySynchronize}
 * while the primary is held at its trigger, and resumes once the primary has finished. So a
 * dependent that reads the primary's results before synchronizing reads what was there before, as
 * it may on a GPU, instead of passing by luck. A primary that never triggers lets the dependent
 * start only after it finished, which is ordinary stream order.
 *
 * <p>The two kernels run on two threads but never at the same time (each waits on a latch while the
 * other runs), so the executor's state needs no more synchronization than the latches give.
 */
final class EarlyStart {

  /** Threads that run dependents started early, reused across launches. */
  private static final java.util.concurrent.ExecutorService EARLY =
      java.util.concurrent.Executors.newCachedThreadPool(
          Thread.ofPlatform().daemon().name("cuda-simulator-early-start-", 0).factory());

  private final Runnable dependent;
  private final CountDownLatch dependentPaused = new CountDownLatch(1);
  private final CountDownLatch primaryDone = new CountDownLatch(1);
  private final CountDownLatch dependentDone = new CountDownLatch(1);
  private boolean started;

  /**
   * @param dependent runs the dependent kernel, with this as its {@link #synchronize}
   */
  EarlyStart(Runnable dependent) {
    this.dependent = dependent;
  }

  /** The primary's trigger: starts the dependent and holds the primary until it pauses. */
  void trigger() {
    if (started) {
      return;
    }
    started = true;
    EARLY.execute(
        () -> {
          try {
            dependent.run();
          } finally {
            dependentPaused.countDown(); // finished without synchronizing
            dependentDone.countDown();
          }
        });
    awaitQuietly(dependentPaused);
  }

  /** The dependent's {@code cudaGridDependencySynchronize}: waits for the primary to finish. */
  void synchronize() {
    dependentPaused.countDown();
    awaitQuietly(primaryDone);
  }

  /** The primary finished: the dependent goes on, or starts now if the primary never triggered. */
  void primaryFinished() {
    primaryDone.countDown();
    if (!started) {
      started = true;
      dependent.run();
      return;
    }
    awaitQuietly(dependentDone);
  }

  private static void awaitQuietly(CountDownLatch latch) {
    boolean interrupted = false;
    while (true) {
      try {
        latch.await();
        break;
      } catch (InterruptedException e) {
        interrupted = true;
      }
    }
    if (interrupted) {
      Thread.currentThread().interrupt();
    }
  }
}
