// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 the cuda-graph authors
package cuda.graph.simulator.internal;

import java.time.Duration;
import java.util.concurrent.locks.ReentrantLock;

/**
 * One virtual thread per busy stream drains that stream's queue, so streams run concurrently with
 * each other and with the caller, each in order. A stream's worker exits when its queue is empty
 * and is restarted by the next enqueue.
 */
final class AsyncEngine implements Engine {

  private final ReentrantLock lock;
  private final OpExecutor executor;
  private final long delayNanos;

  AsyncEngine(ReentrantLock lock, OpExecutor executor, Duration delay) {
    this.lock = lock;
    this.executor = executor;
    this.delayNanos = delay.toNanos();
  }

  @Override
  public void enqueue(Command command) {
    SimStream stream = command.stream;
    stream.queue.addLast(command);
    if (!stream.workerActive) {
      stream.workerActive = true;
      Thread.ofVirtual().name("cuda-simulator " + stream).start(() -> drain(stream));
    }
  }

  private void drain(SimStream stream) {
    while (true) {
      Command command;
      lock.lock();
      try {
        command = stream.queue.pollFirst();
        if (command == null) {
          stream.workerActive = false;
          return;
        }
      } finally {
        lock.unlock();
      }
      for (Completion prerequisite : command.prerequisites) {
        prerequisite.awaitUninterruptibly();
      }
      if (delayNanos > 0) {
        sleep(delayNanos);
      }
      executor.run(command);
    }
  }

  private static void sleep(long nanos) {
    long end = System.nanoTime() + nanos;
    long left;
    while ((left = end - System.nanoTime()) > 0) {
      try {
        Thread.sleep(Duration.ofNanos(left));
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
        return;
      }
    }
  }

  @Override
  public void afterCall(boolean query) {
    // Streams progress on their own.
  }

  @Override
  public void await(Completion completion) {
    completion.awaitUninterruptibly();
  }

  @Override
  public void shutdown() {
    // Workers finish their queues and exit; they hold nothing else.
  }
}
