// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 the cuda-graph authors
package cuda.graph.llm.internal.server;

import java.util.Arrays;
import java.util.List;
import org.jspecify.annotations.Nullable;

/**
 * One checked generation: the endpoint has already checked every value against the request's rules
 * and the {@link Generator}'s context, so {@code promptTokens.length + maxTokens <=
 * contextLength()}.
 *
 * @param promptTokens the prompt's token ids, at least one
 * @param maxTokens the most tokens to generate, at least one
 * @param temperature 0 for greedy decoding, else the sampling temperature, at most 2
 * @param topP the nucleus of sampling, in (0, 1]
 * @param seed the seed of sampling, or null for one the engine chooses
 * @param stop the stop sequences (at most 4, none empty); the text ends before the first one made
 */
public record GenerationRequest(
    int[] promptTokens,
    int maxTokens,
    double temperature,
    double topP,
    @Nullable Long seed,
    List<String> stop) {

  /** Copies the prompt and the stop sequences and checks the ranges. */
  public GenerationRequest {
    promptTokens = promptTokens.clone();
    stop = List.copyOf(stop);
    if (promptTokens.length == 0 || maxTokens < 1) {
      throw new IllegalArgumentException(
          "GenerationRequest: needs a prompt of at least one token and maxTokens >= 1, got "
              + promptTokens.length
              + " tokens and maxTokens "
              + maxTokens);
    }
    if (!(temperature >= 0 && temperature <= 2) || !(topP > 0 && topP <= 1)) {
      throw new IllegalArgumentException(
          "GenerationRequest: temperature must be in [0, 2] and topP in (0, 1], got "
              + temperature
              + " and "
              + topP);
    }
  }

  /** The prompt's token ids (a copy). */
  @Override
  public int[] promptTokens() {
    return promptTokens.clone();
  }

  @Override
  public boolean equals(Object o) {
    return o instanceof GenerationRequest r
        && Arrays.equals(promptTokens, r.promptTokens)
        && maxTokens == r.maxTokens
        && Double.compare(temperature, r.temperature) == 0
        && Double.compare(topP, r.topP) == 0
        && java.util.Objects.equals(seed, r.seed)
        && stop.equals(r.stop);
  }

  @Override
  public int hashCode() {
    return java.util.Objects.hash(
        Arrays.hashCode(promptTokens), maxTokens, temperature, topP, seed, stop);
  }

  @Override
  public String toString() {
    return "GenerationRequest[promptTokens="
        + promptTokens.length
        + " tokens, maxTokens="
        + maxTokens
        + ", temperature="
        + temperature
        + ", topP="
        + topP
        + ", seed="
        + seed
        + ", stop="
        + stop
        + "]";
  }
}
