// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 the cuda-graph authors
package cuda.graph.llm;

import static org.apiguardian.api.API.Status.EXPERIMENTAL;

import java.util.Objects;
import org.apiguardian.api.API;

/**
 * The result of a generation.
 *
 * @param text the text generated: every piece given to the generation's text consumer, joined
 * @param promptTokens the tokens of the prompt (of the rendered chat template for a chat)
 * @param completionTokens the tokens generated, an end-of-sequence token included
 * @param finishReason why it ended
 * @since 0.2.0
 */
@API(status = EXPERIMENTAL, since = "0.2.0")
public record Completion(
    String text, int promptTokens, int completionTokens, FinishReason finishReason) {
  /** Checks the parts. */
  public Completion {
    Objects.requireNonNull(text, "Completion: the text is null");
    Objects.requireNonNull(finishReason, "Completion: the finish reason is null");
    if (promptTokens < 0 || completionTokens < 0) {
      throw new IllegalArgumentException(
          "Completion: token counts must not be negative, got "
              + promptTokens
              + " and "
              + completionTokens);
    }
  }
}
