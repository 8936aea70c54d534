// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 the cuda-graph authors
package cuda.graph.llm.internal.server;

import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import org.jspecify.annotations.Nullable;

/**
 * The sink of one generation and the queue between the engine's threads and the request's thread.
 * The engine never waits: pieces beyond the buffer end the generation as too slow a client, and
 * after the end (finished, failed, aborted or cancelled) whatever the engine sends is dropped.
 */
final class PendingGeneration implements TokenSink {

  sealed interface Event permits Piece, Finished, Failed, Aborted {}

  record Piece(String text) implements Event {}

  record Finished(FinishReason reason, Usage usage) implements Event {}

  record Failed(Throwable cause) implements Event {}

  /** Ended by the endpoint: shutting down, or a client too slow for the buffer. */
  record Aborted(ApiError reason) implements Event {}

  private final LinkedBlockingQueue<Event> events = new LinkedBlockingQueue<>();
  private final AtomicInteger buffered = new AtomicInteger();
  private final AtomicBoolean ended = new AtomicBoolean();
  private final int capacity;
  private Generator.@Nullable Handle handle;
  private boolean cancelled;

  PendingGeneration(int capacity) {
    this.capacity = capacity;
  }

  @Override
  public void text(String piece) {
    if (ended.get()) {
      return;
    }
    if (buffered.incrementAndGet() > capacity) {
      abort(
          ApiError.invalid(
              null,
              "stream_buffer_full",
              "the client read the stream too slowly: "
                  + capacity
                  + " pieces were waiting for it; the generation was cancelled"));
      return;
    }
    events.add(new Piece(piece));
  }

  @Override
  public void finish(FinishReason reason, Usage usage) {
    if (ended.compareAndSet(false, true)) {
      events.add(new Finished(reason, usage));
    }
  }

  @Override
  public void fail(Throwable cause) {
    if (ended.compareAndSet(false, true)) {
      events.add(new Failed(cause));
    }
  }

  /** Ends the generation from the endpoint's side: the reason is the request's last event. */
  void abort(ApiError reason) {
    if (ended.compareAndSet(false, true)) {
      events.add(new Aborted(reason));
    }
    cancel();
  }

  /** Attaches the engine's handle; cancels it at once if the request was cancelled before. */
  void attach(Generator.Handle h) {
    boolean cancelNow;
    synchronized (this) {
      handle = h;
      cancelNow = cancelled;
    }
    if (cancelNow) {
      h.cancel();
    }
  }

  /** Cancels the generation (the client is gone); idempotent. */
  void cancel() {
    ended.set(true);
    Generator.Handle h;
    synchronized (this) {
      if (cancelled) {
        return;
      }
      cancelled = true;
      h = handle;
    }
    if (h != null) {
      h.cancel();
    }
  }

  /** The next event, waiting for it. */
  Event take() throws InterruptedException {
    Event e = events.take();
    if (e instanceof Piece) {
      buffered.decrementAndGet();
    }
    return e;
  }

  /** Whether another event is queued, so that a write can wait for it before flushing. */
  boolean hasQueued() {
    return !events.isEmpty();
  }
}
