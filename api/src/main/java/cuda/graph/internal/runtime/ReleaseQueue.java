// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 the cuda-graph authors
package cuda.graph.internal.runtime;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.atomic.AtomicLong;

/**
 * Where the library sends the destruction of native objects (freeing memory, destroying execs,
 * graphs, events, streams). While any graph capture of the platform is in progress, destruction is
 * deferred until the last capture ends, so that a free from another thread or from a cleaner can
 * never invalidate a capture; otherwise it runs at once on the calling thread. A release that fails
 * is logged and counted ({@link #failures()}), never retried: the object is given up either way,
 * and the driver may have handed its handle or address out again. Thread-safe.
 */
public final class ReleaseQueue {

  private static final System.Logger LOG = System.getLogger("cuda.graph");

  private final List<Runnable> deferred = new ArrayList<>();
  private final AtomicLong failures = new AtomicLong();
  private int capturesInProgress;
  private boolean closed;

  /**
   * Runs {@code action} now, or after the captures in progress have ended; drops it once the queue
   * is closed (the platform's close released everything with the contexts).
   */
  public void release(Runnable action) {
    synchronized (this) {
      if (closed) {
        return;
      }
      if (capturesInProgress > 0) {
        deferred.add(action);
        return;
      }
    }
    run(action);
  }

  /** Notes that a capture began: releases are deferred until it ends. */
  public synchronized void captureStarted() {
    capturesInProgress++;
  }

  /** Notes that a capture ended; runs the deferred releases when it was the last. */
  public void captureEnded() {
    List<Runnable> due;
    synchronized (this) {
      if (capturesInProgress <= 0) {
        throw new IllegalStateException("captureEnded() without captureStarted()");
      }
      capturesInProgress--;
      if (capturesInProgress > 0 || deferred.isEmpty()) {
        return;
      }
      due = new ArrayList<>(deferred);
      deferred.clear();
    }
    due.forEach(this::run);
  }

  /**
   * Drops every later release, and the deferred ones: the platform is closing, and releasing its
   * contexts destroys what they would destroy. Running them would need the context again.
   */
  public synchronized void close() {
    closed = true;
    deferred.clear();
  }

  /** {@return how many releases wait for captures to end} */
  public synchronized int deferredCount() {
    return deferred.size();
  }

  /** {@return how many releases failed (each was logged, none retried)} */
  public long failures() {
    return failures.get();
  }

  private void run(Runnable action) {
    try {
      action.run();
    } catch (RuntimeException e) {
      failures.incrementAndGet();
      // A release has no caller to report to: the object is gone either way, so log and go on.
      LOG.log(
          System.Logger.Level.WARNING,
          "cuda.graph: releasing a native object failed: " + e.getMessage(),
          e);
    }
  }
}
