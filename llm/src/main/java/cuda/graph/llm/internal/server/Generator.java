// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 the cuda-graph authors
package cuda.graph.llm.internal.server;

/**
 * What the HTTP endpoint needs of the engine: the model's name and context, its tokenizer, and
 * generations that stream their text into a {@link TokenSink}.
 *
 * <p>Threads: every method may be called from many request threads at once. {@link #submit} returns
 * at once (the generation runs on the engine's threads); the sink's methods are called one at a
 * time for a generation, and must not block the engine: the endpoint's sink only queues.
 */
public interface Generator {

  /** The name {@code /v1/models} lists and responses carry. */
  String modelName();

  /** The most tokens a sequence may hold, prompt and generated tokens together. */
  int contextLength();

  /** The number of token ids; a prompt given as ids must be in {@code [0, vocabularySize)}. */
  int vocabularySize();

  /**
   * The token ids of a text.
   *
   * @param addSpecialTokens whether the tokenizer adds its special tokens (BOS): true for a
   *     completion's prompt, false for a rendered chat template, which writes them itself
   */
  int[] tokenize(String text, boolean addSpecialTokens);

  /**
   * Starts a generation. The sink then receives text pieces in order and exactly one of {@link
   * TokenSink#finish} or {@link TokenSink#fail}, unless the generation is cancelled first.
   *
   * @throws IllegalArgumentException when the engine refuses the request (answered with 400)
   * @throws IllegalStateException when the engine cannot take it now (answered with 503)
   */
  Handle submit(GenerationRequest request, TokenSink sink);

  /** A generation in progress. */
  interface Handle {
    /**
     * Stops the generation and frees what it holds at once; idempotent, and harmless after it has
     * finished. The sink may receive nothing more after it returns.
     */
    void cancel();
  }
}
