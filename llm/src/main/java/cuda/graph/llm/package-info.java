// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 the cuda-graph authors
/**
 * Experimental: generating text with a Llama-architecture model on the GPU, and serving it over an
 * OpenAI-compatible HTTP endpoint.
 *
 * <p>{@link cuda.graph.llm.LlmEngine} is the model, opened from a Hugging Face model directory; it
 * runs many generations at once with continuous batching. {@link cuda.graph.llm.LlmServer} serves
 * an engine on {@code /v1/completions} and {@code /v1/chat/completions}. Every other type here is a
 * record, an enum or a sealed interface that describes a request or its result.
 */
@NullMarked
package cuda.graph.llm;

import org.jspecify.annotations.NullMarked;
