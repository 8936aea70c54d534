// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 the cuda-graph authors
package cuda.graph.embeddings;

import static org.apiguardian.api.API.Status.EXPERIMENTAL;

import org.apiguardian.api.API;

/**
 * Where an {@link Embedder} computes its embeddings.
 *
 * @since 0.2.0
 */
@API(status = EXPERIMENTAL, since = "0.2.0")
public enum Backend {
  /** CUDA graphs on a GPU, through the {@code cuda} provider. */
  GPU,
  /** LangChain4j's own model on the CPU ({@link WhenNoGpu#FALL_BACK_TO_CPU}). */
  CPU_FALLBACK,
  /** The same graphs on the simulator provider ({@link WhenNoGpu#USE_SIMULATOR}): for tests. */
  SIMULATOR
}
