// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 the cuda-graph authors
package cuda.graph.embeddings.internal.serving;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;
import java.util.function.Function;

/**
 * Turns single requests from many threads into batches, as a server does: the first request of a
 * batch waits at most {@code window} for others to join it, a batch holds at most {@code maxBatch}
 * requests, and one thread runs the batches one after another. A batch's failure completes each of
 * its requests exceptionally; other batches go on.
 *
 * <p>Thread-safe. {@link #close()} runs the requests already submitted, then stops; a request
 * submitted after it fails with {@link IllegalStateException}.
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
  private boolean closed; // guarded by submitLock

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

  /** {@return the output for {@code input}, once the batch it joined has run} */
  CompletableFuture<O> submit(I input) {
    Objects.requireNonNull(input, "input");
    Request<I, O> request = new Request<>(input, new CompletableFuture<>());
    synchronized (submitLock) {
      if (closed) {
        throw new IllegalStateException("the coalescer is closed; submit before closing it");
      }
      queue.add(request);
    }
    return request.result();
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
      run(pending);
    }
  }

  private void run(List<Request<I, O>> requests) {
    List<I> inputs = new ArrayList<>(requests.size());
    for (Request<I, O> r : requests) {
      inputs.add(r.input());
    }
    try {
      List<O> outputs = batch.apply(inputs);
      if (outputs.size() != inputs.size()) {
        throw new IllegalStateException(
            "a batch of " + inputs.size() + " requests gave " + outputs.size() + " outputs");
      }
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

  /** Runs what was submitted, then stops the dispatcher and waits for it. Idempotent. */
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
    if (interrupted) {
      Thread.currentThread().interrupt();
    }
  }
}
