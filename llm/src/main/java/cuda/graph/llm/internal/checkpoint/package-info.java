// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 the cuda-graph authors
/**
 * A Hugging Face model directory as read from disk: config.json as a checked {@code ModelConfig},
 * the safetensors weights (one file or shards named by their index) memory-mapped read-only, their
 * dtypes (BF16, F16, F32) and the Llama tensor names and shapes checked against the config. May
 * depend on nothing of the project.
 */
@NullMarked
package cuda.graph.llm.internal.checkpoint;

import org.jspecify.annotations.NullMarked;
