// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 the cuda-graph authors
package cuda.graph.llm.internal.server;

import dev.langchain4j.model.chat.response.ChatResponse;
import dev.langchain4j.model.chat.response.PartialResponse;
import dev.langchain4j.model.chat.response.PartialResponseContext;
import dev.langchain4j.model.chat.response.StreamingChatResponseHandler;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CopyOnWriteArrayList;

/**
 * What LangChain4j's streaming OpenAI client delivers to the tests (of the endpoint and of the
 * public server): the pieces in order and the response or error; cancels the stream through
 * LangChain4j's handle after {@code cancelAfter} pieces (-1: never).
 */
public final class StreamedChat implements StreamingChatResponseHandler {

  private final int cancelAfter;

  /** The partial responses' texts, in order. */
  public final List<String> pieces = new CopyOnWriteArrayList<>();

  /** The complete response, or the error. */
  public final CompletableFuture<ChatResponse> done = new CompletableFuture<>();

  /** Completed when the stream was cancelled, or exceptionally with the error. */
  public final CompletableFuture<Void> cancelled = new CompletableFuture<>();

  /** A handler that cancels after {@code cancelAfter} pieces, or never for -1. */
  public StreamedChat(int cancelAfter) {
    this.cancelAfter = cancelAfter;
  }

  @Override
  public void onPartialResponse(PartialResponse partial, PartialResponseContext context) {
    pieces.add(partial.text());
    if (pieces.size() == cancelAfter) {
      context.streamingHandle().cancel();
      cancelled.complete(null);
    }
  }

  @Override
  public void onCompleteResponse(ChatResponse response) {
    done.complete(response);
  }

  @Override
  public void onError(Throwable error) {
    done.completeExceptionally(error);
    cancelled.completeExceptionally(error);
  }
}
