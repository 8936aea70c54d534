// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 the cuda-graph authors
package cuda.graph.embeddings;

import static org.apiguardian.api.API.Status.EXPERIMENTAL;

import org.apiguardian.api.API;

/**
 * What {@link Embedder.Builder#open()} does when the system platform has no GPU to offer.
 *
 * <p>The simulator that lets tests run without a GPU embeds about four sentences a second: it is no
 * fallback for a service, so it is used only when asked for.
 *
 * @since 0.2.0
 */
@API(status = EXPERIMENTAL, since = "0.2.0")
public enum WhenNoGpu {
  /**
   * Opening fails at once with an {@link IllegalStateException} that names the provider the system
   * platform chose and how to get the GPU one. The default.
   */
  FAIL,
  /**
   * Embed on the CPU with LangChain4j's own model class from the model's jar (ONNX Runtime), and
   * log one WARNING line that says so. Only for {@link ModelSource#langChain4j} sources.
   */
  FALL_BACK_TO_CPU,
  /** Run on whatever provider the platform has, the simulator included: for tests. */
  USE_SIMULATOR
}
