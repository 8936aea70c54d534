// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 the cuda-graph authors
package cuda.graph.llm;

import static org.apiguardian.api.API.Status.EXPERIMENTAL;

import org.apiguardian.api.API;

/**
 * Why a generation ended.
 *
 * @since 0.2.0
 */
@API(status = EXPERIMENTAL, since = "0.2.0")
public enum FinishReason {
  /** One of the model's end-of-sequence tokens (not in the text), or a stop sequence (neither). */
  STOP,
  /**
   * The options' {@code maxTokens}, or the KV cache: a running generation that cannot get another
   * block ends here rather than waiting or being taken back.
   */
  LENGTH,
  /** {@link Generation#cancel()}. */
  CANCELLED
}
