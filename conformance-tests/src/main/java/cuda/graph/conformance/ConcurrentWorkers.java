// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 the cuda-graph authors
package cuda.graph.conformance;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.atomic.AtomicBoolean;

/**
 * The threads of one test: the first failure of any is rethrown by {@link #join}, with the others
 * suppressed. Threads started with a stop flag run until the bounded ones have finished.
 */
final class ConcurrentWorkers {
  private final List<Thread> bounded = new ArrayList<>();
  private final List<Thread> open = new ArrayList<>();
  private final List<AtomicBoolean> stops = new ArrayList<>();
  private final List<Throwable> failures = new ArrayList<>();

  void start(ThrowingRunnable work) {
    bounded.add(started(work));
  }

  void start(ThrowingRunnable work, AtomicBoolean stop) {
    open.add(started(work));
    stops.add(stop);
  }

  private Thread started(ThrowingRunnable work) {
    Thread t =
        new Thread(
            () -> {
              try {
                work.run();
              } catch (Throwable e) {
                synchronized (failures) {
                  failures.add(e);
                }
                stops.forEach(stop -> stop.set(true));
              }
            },
            "conformance-worker");
    t.start();
    return t;
  }

  /** Waits for the bounded threads, stops the open ones, and rethrows the first failure. */
  void join(int expectedBounded) {
    assertEquals(expectedBounded, bounded.size());
    try {
      for (Thread t : bounded) {
        t.join();
      }
      stops.forEach(stop -> stop.set(true));
      for (Thread t : open) {
        t.join();
      }
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new AssertionError(e);
    }
    synchronized (failures) {
      if (!failures.isEmpty()) {
        Throwable first = failures.getFirst();
        failures.stream().skip(1).forEach(first::addSuppressed);
        if (first instanceof RuntimeException e) {
          throw e;
        }
        if (first instanceof Error e) {
          throw e;
        }
        throw new AssertionError(first);
      }
    }
  }

  /** Work of a worker thread. */
  @FunctionalInterface
  interface ThrowingRunnable {
    void run() throws Exception;
  }
}
