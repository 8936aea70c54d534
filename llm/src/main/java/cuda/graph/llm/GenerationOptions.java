// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 the cuda-graph authors
package cuda.graph.llm;

import static org.apiguardian.api.API.Status.EXPERIMENTAL;

import java.util.List;
import java.util.Objects;
import org.apiguardian.api.API;

/**
 * What a generation may do: how many tokens, where to stop, how to choose each token.
 *
 * @param maxTokens the most tokens to generate, at least 1; the prompt and these must fit the
 *     engine's {@link LlmEngine#contextLength()}
 * @param stop texts that end the generation where they first appear (not included in its text); at
 *     most 4, none empty
 * @param sampling how each token is chosen
 * @since 0.2.0
 */
@API(status = EXPERIMENTAL, since = "0.2.0")
public record GenerationOptions(int maxTokens, List<String> stop, Sampling sampling) {

  /**
   * Checks the options and copies the stop list.
   *
   * @throws IllegalArgumentException for maxTokens below 1, more than 4 stop sequences or an empty
   *     one
   */
  public GenerationOptions {
    stop = List.copyOf(stop);
    Objects.requireNonNull(sampling, "GenerationOptions: the sampling is null");
    if (maxTokens < 1) {
      throw new IllegalArgumentException(
          "GenerationOptions: maxTokens " + maxTokens + " is below 1; ask for at least 1 token");
    }
    if (stop.size() > 4 || stop.stream().anyMatch(String::isEmpty)) {
      throw new IllegalArgumentException(
          "GenerationOptions: stop sequences " + stop + ": give at most 4, none of them empty");
    }
  }

  /**
   * {@return greedy decoding of up to {@code maxTokens} tokens, with no stop sequence}
   *
   * @param maxTokens the most tokens to generate, at least 1
   */
  public static GenerationOptions greedy(int maxTokens) {
    return new GenerationOptions(maxTokens, List.of(), new Sampling.Greedy());
  }

  /**
   * {@return these options with another {@code maxTokens}}
   *
   * @param maxTokens the most tokens to generate, at least 1
   */
  public GenerationOptions withMaxTokens(int maxTokens) {
    return new GenerationOptions(maxTokens, stop, sampling);
  }

  /**
   * {@return these options with other stop sequences}
   *
   * @param stop at most 4, none empty
   */
  public GenerationOptions withStop(List<String> stop) {
    return new GenerationOptions(maxTokens, stop, sampling);
  }

  /**
   * {@return these options with another sampling}
   *
   * @param sampling how each token is chosen
   */
  public GenerationOptions withSampling(Sampling sampling) {
    return new GenerationOptions(maxTokens, stop, sampling);
  }
}
