// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 the cuda-graph authors
package cuda.graph.llm.internal.server;

/**
 * Receives one generation's output, in order, from the engine's threads: text pieces as tokens are
 * made, then exactly one of {@link #finish} or {@link #fail}. Implementations never block.
 */
public interface TokenSink {

  /** The text of the tokens made since the last piece (may be empty while a character is split). */
  void text(String piece);

  /** The generation ended: at a stop sequence or end-of-sequence token, or at its length. */
  void finish(FinishReason reason, Usage usage);

  /** The generation failed; the cause says why. */
  void fail(Throwable cause);

  /** Why a generation ended, as OpenAI's {@code finish_reason} names it. */
  enum FinishReason {
    /** An end-of-sequence token or a stop sequence. */
    STOP("stop"),
    /** The request's {@code max_tokens}, or the context. */
    LENGTH("length");

    private final String openAiName;

    FinishReason(String openAiName) {
      this.openAiName = openAiName;
    }

    /** The name in OpenAI's responses. */
    public String openAiName() {
      return openAiName;
    }
  }

  /**
   * Tokens counted for a generation.
   *
   * @param promptTokens the prompt's tokens
   * @param completionTokens the tokens generated
   */
  record Usage(int promptTokens, int completionTokens) {
    /** Checks the counts are not negative. */
    public Usage {
      if (promptTokens < 0 || completionTokens < 0) {
        throw new IllegalArgumentException(
            "Usage: token counts must not be negative, got prompt "
                + promptTokens
                + " and completion "
                + completionTokens
                + "; count the tokens of the generation");
      }
    }

    /** Prompt and completion tokens together. */
    public int totalTokens() {
      return promptTokens + completionTokens;
    }
  }
}
