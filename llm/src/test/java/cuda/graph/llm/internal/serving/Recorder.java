// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 the cuda-graph authors
package cuda.graph.llm.internal.serving;

import cuda.graph.llm.internal.server.TokenSink;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.jspecify.annotations.Nullable;

/** A sink that records a generation's pieces and its end. */
final class Recorder implements TokenSink {

  /** How a generation ended. */
  record Ended(@Nullable FinishReason reason, @Nullable Usage usage, @Nullable Throwable failure) {}

  final List<String> pieces = new ArrayList<>();
  final CompletableFuture<Ended> ended = new CompletableFuture<>();
  private final @Nullable List<String> events;
  private final String name;

  Recorder() {
    this("", null);
  }

  /** A recorder that also adds "name text" and "name end" to a shared list of events. */
  Recorder(String name, @Nullable List<String> events) {
    this.name = name;
    this.events = events;
  }

  @Override
  public synchronized void text(String piece) {
    if (ended.isDone()) {
      throw new AssertionError("text after the end: " + piece);
    }
    pieces.add(piece);
    if (events != null) {
      synchronized (events) {
        events.add(name + " text");
      }
    }
  }

  @Override
  public synchronized void finish(FinishReason reason, Usage usage) {
    if (!ended.complete(new Ended(reason, usage, null))) {
      throw new AssertionError("a second end");
    }
    if (events != null) {
      synchronized (events) {
        events.add(name + " end");
      }
    }
  }

  @Override
  public synchronized void fail(Throwable cause) {
    if (!ended.complete(new Ended(null, null, cause))) {
      throw new AssertionError("a second end");
    }
  }

  synchronized String text() {
    return String.join("", pieces);
  }

  synchronized int pieceCount() {
    return pieces.size();
  }

  /** Waits for the end (a minute at most: the simulator is slow, not stuck). */
  Ended await() {
    try {
      return ended.get(2, TimeUnit.MINUTES);
    } catch (Exception e) {
      throw new AssertionError("the generation did not end: " + e, e);
    }
  }
}
