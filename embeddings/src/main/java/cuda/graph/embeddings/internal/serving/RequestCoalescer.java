// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 the cuda-graph authors
package cuda.graph.embeddings.internal.serving;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.ReentrantLock;
import java.util.function.Function;
import java.util.function.Supplier;

/**
 * Turns single requests from many threads into batches, as a server does, when they overlap: a
 * {@link #call} that finds nothing queued or running runs alone on its caller's thread at once; one
 * that finds a batch running (or requests waiting) queues, and one dispatcher thread runs the
 * queued requests in batches of at most {@code maxBatch}, the first request of a batch waiting at
 * most {@code window} for others to join it, and the requests that queued while it waited for the
 * running batch joining it too. A batch's failure fails each of its requests; other batches go on.
 *
 * <p>Exclusive: a batch, a lone call and an {@link #exclusive} section never run at once (the
 * encoder behind them is not thread-safe). The lock is fair, so that a queued batch runs between
 * two sections of a long {@link #exclusive} caller rather than after all of them.
 *
 * <p>Thread-safe. {@link #close()} runs the requests already queued, waits for a lone call or
 * section already running, then stops; a request made after it fails with {@link
 * IllegalStateException}.
 *
 * @param <I> what a request asks
 * @param <O> what it gets
 */
final class RequestCoalescer<I, O> implements AutoCloseable {

  private record Request<I, O>(I input, CompletableFuture<O> result) {}

  private final Function<List<I>, List<O>> batch;
  private final long windowNanos;
  private final int maxBatch;
  private final LinkedBlockingQueue<Request<I, O>> queue = new LinkedBlockingQueue<>();
  private final Thread dispatcher;
  private final Object submitLock = new Object();

  /** Held by whatever runs the batch function or an {@link #exclusive} section. */
  private final ReentrantLock running = new ReentrantLock(true);

  private volatile boolean closed; // written under submitLock

  /** Requests queued and not yet answered: a call runs alone only when there are none. */
  private int queued; // guarded by submitLock

  /** A request that tells the dispatcher to stop once everything before it has run. */
  private final Request<I, O> stop = new Request<>(null, new CompletableFuture<>());

  /**
   * @param name the dispatcher thread's name
   * @param window how long the first request of a batch waits for others
   * @param maxBatch the most requests of one batch, at least 1
   * @param batch computes a batch: one output per input, in order
   */
  RequestCoalescer(String name, Duration window, int maxBatch, Function<List<I>, List<O>> batch) {
    if (maxBatch < 1) {
      throw new IllegalArgumentException("a batch holds at least 1 request, got " + maxBatch);
    }
    if (window.isNegative()) {
      throw new IllegalArgumentException("the window is not negative, got " + window);
    }
    this.batch = Objects.requireNonNull(batch, "batch");
    this.windowNanos = window.toNanos();
    this.maxBatch = maxBatch;
    this.dispatcher = Thread.ofPlatform().name(name).daemon().start(this::dispatch);
  }

  private static IllegalStateException closedError() {
    return new IllegalStateException("the coalescer is closed; submit before closing it");
  }

  /**
   * {@return the output for {@code input}}: computed at once on this thread, as a batch of one,
   * when no request is queued and nothing runs (no thread hand-off, no window); otherwise queued
   * for the dispatcher's next batch and waited for. A failure is thrown as the batch threw it.
   */
  O call(I input) {
    Objects.requireNonNull(input, "input");
    Request<I, O> request;
    synchronized (submitLock) {
      if (closed) {
        throw closedError();
      }
      // tryLock barges even a fair lock: taken only when no one waits for it (queued == 0 and no
      // section waits: hasQueuedThreads), so that a lone call overtakes nothing.
      if (queued == 0 && !running.hasQueuedThreads() && running.tryLock()) {
        request = null;
      } else {
        request = enqueue(input);
      }
    }
    if (request == null) {
      try {
        return outputs(List.of(input)).getFirst();
      } finally {
        running.unlock();
      }
    }
    try {
      return request.result().join();
    } catch (CompletionException e) {
      if (e.getCause() instanceof RuntimeException r) {
        throw r;
      }
      if (e.getCause() instanceof Error r) {
        throw r;
      }
      throw e;
    }
  }

  /** {@return the output for {@code input}, once the dispatcher's batch it joined has run} */
  CompletableFuture<O> submit(I input) {
    Objects.requireNonNull(input, "input");
    synchronized (submitLock) {
      if (closed) {
        throw closedError();
      }
      return enqueue(input).result();
    }
  }

  private Request<I, O> enqueue(I input) {
    Request<I, O> request = new Request<>(input, new CompletableFuture<>());
    queued++;
    queue.add(request);
    return request;
  }

  /** {@return how many requests are queued and not yet answered} (for tests) */
  int queued() {
    synchronized (submitLock) {
      return queued;
    }
  }

  /**
   * {@return what {@code work} returns}, run on this thread while no batch or call runs, after the
   * batch that may be waiting for its turn
   *
   * @throws IllegalStateException if the coalescer is closed
   */
  <R> R exclusive(Supplier<R> work) {
    running.lock();
    try {
      if (closed) {
        throw closedError();
      }
      return work.get();
    } finally {
      running.unlock();
    }
  }

  /** {@return the batch's outputs}, one per input, or the failure of a batch that gave others */
  private List<O> outputs(List<I> inputs) {
    List<O> outputs = batch.apply(inputs);
    if (outputs.size() != inputs.size()) {
      throw new IllegalStateException(
          "a batch of " + inputs.size() + " requests gave " + outputs.size() + " outputs");
    }
    return outputs;
  }

  private void dispatch() {
    List<Request<I, O>> pending = new ArrayList<>(maxBatch);
    boolean stopping = false;
    while (!stopping) {
      pending.clear();
      Request<I, O> first = take();
      if (first == stop) {
        return;
      }
      pending.add(first);
      long deadline = System.nanoTime() + windowNanos;
      while (pending.size() < maxBatch) {
        Request<I, O> next = poll(deadline - System.nanoTime());
        if (next == null) {
          break;
        }
        if (next == stop) {
          stopping = true;
          break;
        }
        pending.add(next);
      }
      running.lock();
      try {
        // Those that queued while the batch waited for its turn join it.
        while (!stopping && pending.size() < maxBatch) {
          Request<I, O> next = queue.poll();
          if (next == null) {
            break;
          }
          if (next == stop) {
            stopping = true;
          } else {
            pending.add(next);
          }
        }
        run(pending);
      } finally {
        running.unlock();
      }
      synchronized (submitLock) {
        queued -= pending.size();
      }
    }
  }

  private void run(List<Request<I, O>> requests) {
    List<I> inputs = new ArrayList<>(requests.size());
    for (Request<I, O> r : requests) {
      inputs.add(r.input());
    }
    try {
      List<O> outputs = outputs(inputs);
      for (int i = 0; i < requests.size(); i++) {
        requests.get(i).result().complete(outputs.get(i));
      }
    } catch (RuntimeException | Error e) {
      for (Request<I, O> r : requests) {
        r.result().completeExceptionally(e);
      }
    }
  }

  private Request<I, O> take() {
    while (true) {
      try {
        return queue.take();
      } catch (InterruptedException e) {
        // The dispatcher stops only through close(), so that no submitted request is lost.
      }
    }
  }

  private Request<I, O> poll(long nanos) {
    if (nanos <= 0) {
      return queue.poll();
    }
    while (true) {
      try {
        return queue.poll(nanos, TimeUnit.NANOSECONDS);
      } catch (InterruptedException e) {
        // As in take().
      }
    }
  }

  /**
   * Runs what was queued, then stops the dispatcher and waits for it, and for a lone call or
   * section that began before the close. Idempotent.
   */
  @Override
  public void close() {
    synchronized (submitLock) {
      if (closed) {
        return;
      }
      closed = true;
      queue.add(stop);
    }
    boolean interrupted = false;
    while (dispatcher.isAlive()) {
      try {
        dispatcher.join();
      } catch (InterruptedException e) {
        interrupted = true;
      }
    }
    // A lone call holds the lock from before `closed` was set; a section that takes it after this
    // sees `closed` and runs nothing.
    running.lock();
    running.unlock();
    if (interrupted) {
      Thread.currentThread().interrupt();
    }
  }
}
