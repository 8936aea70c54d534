// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 the cuda-graph authors
package cuda.graph.llm.internal.serving;

import cuda.graph.llm.Completion;
import cuda.graph.llm.Generation;
import cuda.graph.llm.internal.server.TokenSink;
import java.util.concurrent.CompletableFuture;
import java.util.function.Consumer;
import org.jspecify.annotations.Nullable;

/**
 * A {@link Generation}: the sink the scheduler streams into, passing the text on to the caller's
 * consumer and completing the future at the end.
 */
public final class GenerationImpl implements Generation, TokenSink {

  private final int promptTokens;
  private final Consumer<String> onText;
  private final StringBuilder text = new StringBuilder();
  private final CompletableFuture<Completion> completion = new CompletableFuture<>();
  private Scheduler.@Nullable Ticket ticket;

  GenerationImpl(int promptTokens, Consumer<String> onText) {
    this.promptTokens = promptTokens;
    this.onText = onText;
  }

  synchronized void started(Scheduler.Ticket ticket) {
    this.ticket = ticket;
  }

  @Override
  public CompletableFuture<Completion> completion() {
    return completion;
  }

  @Override
  public void cancel() {
    Scheduler.Ticket t;
    synchronized (this) {
      t = ticket;
    }
    if (t == null || completion.isDone()) {
      return;
    }
    t.cancel(); // after it returns, the scheduler calls nothing here
    synchronized (this) {
      completion.complete(
          new Completion(
              text.toString(),
              promptTokens,
              t.generatedTokens(),
              cuda.graph.llm.FinishReason.CANCELLED));
    }
  }

  @Override
  public void text(String piece) {
    synchronized (this) {
      text.append(piece);
    }
    onText.accept(piece);
  }

  @Override
  public void finish(TokenSink.FinishReason reason, Usage usage) {
    cuda.graph.llm.FinishReason r =
        switch (reason) {
          case STOP -> cuda.graph.llm.FinishReason.STOP;
          case LENGTH -> cuda.graph.llm.FinishReason.LENGTH;
        };
    synchronized (this) {
      completion.complete(
          new Completion(text.toString(), usage.promptTokens(), usage.completionTokens(), r));
    }
  }

  @Override
  public void fail(Throwable cause) {
    completion.completeExceptionally(cause);
  }
}
