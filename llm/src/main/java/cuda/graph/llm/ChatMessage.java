// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 the cuda-graph authors
package cuda.graph.llm;

import static org.apiguardian.api.API.Status.EXPERIMENTAL;

import java.util.Objects;
import org.apiguardian.api.API;

/**
 * One message of a chat, as the model's chat template reads it.
 *
 * @param role who speaks: {@code system}, {@code user} or {@code assistant} for most templates
 * @param content what was said
 * @since 0.2.0
 */
@API(status = EXPERIMENTAL, since = "0.2.0")
public record ChatMessage(String role, String content) {
  /** Checks that both parts are there. */
  public ChatMessage {
    Objects.requireNonNull(role, "ChatMessage: the role is null");
    Objects.requireNonNull(content, "ChatMessage: the content is null");
  }
}
