// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 the cuda-graph authors
package cuda.graph.llm;

import static org.apiguardian.api.API.Status.EXPERIMENTAL;

import cuda.graph.llm.internal.serving.GenerationImpl;
import java.util.concurrent.CompletableFuture;
import org.apiguardian.api.API;

/**
 * A generation in progress. Its text goes to the consumer given to {@link LlmEngine#generate} or
 * {@link LlmEngine#chat} piece by piece, in order, as tokens are made; then {@link #completion()}
 * completes, after the last piece.
 *
 * <p>Thread-safe: {@link #cancel()} may be called from any thread, the text consumer included.
 *
 * @since 0.2.0
 */
@API(status = EXPERIMENTAL, since = "0.2.0")
public sealed interface Generation permits GenerationImpl {

  /**
   * {@return the generation's result}: completed with a {@link Completion} when it ends (with
   * {@link FinishReason#CANCELLED} after {@link #cancel()}), or exceptionally with the cause when
   * the engine fails it (a failed step, the text consumer throwing, the engine closed)
   */
  CompletableFuture<Completion> completion();

  /**
   * Stops the generation: its KV cache blocks are freed before the engine's next step, the text
   * consumer receives nothing more once this returns, and {@link #completion()} completes with
   * {@link FinishReason#CANCELLED} and the text so far. Idempotent; does nothing once the
   * generation has ended.
   */
  void cancel();
}
