// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 the cuda-graph authors
package cuda.graph.llm.internal.server;

import java.util.List;
import java.util.function.Function;

/**
 * One message of a chat request, its content as text (text parts of an array joined).
 *
 * @param role {@code system}, {@code user} or {@code assistant}
 * @param content the text
 */
public record ChatMessage(String role, String content) {

  /**
   * Renders a conversation into the prompt text the model reads (the chat template of the model's
   * tokenizer_config.json, with the generation prompt for the assistant's turn appended). It may
   * throw {@link IllegalArgumentException} for a conversation the template refuses (answered with
   * 400, its message given to the client).
   */
  @FunctionalInterface
  public interface Template extends Function<List<ChatMessage>, String> {}
}
