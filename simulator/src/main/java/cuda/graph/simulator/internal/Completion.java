// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 the cuda-graph authors
package cuda.graph.simulator.internal;

import java.util.concurrent.CountDownLatch;

/**
 * The end of one queued operation: completes once, with the sticky status that stopped it (0 when
 * it ran normally) and the time it finished (for event timing).
 */
final class Completion {

  /** A completion that is already done: the state of a stream or event with no pending work. */
  static final Completion DONE = doneNow();

  private final CountDownLatch latch = new CountDownLatch(1);
  private volatile boolean done;
  private volatile long finishedNanos;

  private static Completion doneNow() {
    Completion c = new Completion();
    c.complete();
    return c;
  }

  void complete() {
    finishedNanos = System.nanoTime();
    done = true;
    latch.countDown();
  }

  boolean isDone() {
    return done;
  }

  long finishedNanos() {
    return finishedNanos;
  }

  /** Blocks until done (asynchronous engine only). */
  void awaitUninterruptibly() {
    boolean interrupted = false;
    while (!done) {
      try {
        latch.await();
      } catch (InterruptedException e) {
        interrupted = true;
      }
    }
    if (interrupted) {
      Thread.currentThread().interrupt();
    }
  }
}
