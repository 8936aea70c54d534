// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 the cuda-graph authors
/**
 * Continuous batching: the {@link cuda.graph.llm.internal.serving.Scheduler}, one engine thread that
 * owns the batched step and the paged KV cache, admits requests in arrival order, runs decode
 * tokens and prefill chunks together and streams each request's text to its sink; it implements
 * the endpoint's Generator; and the implementations of the public API's engine, generation and
 * server. May depend on {@code cuda.graph}, {@code cuda.graph.llm}, {@code .engine}, {@code .text},
 * {@code .checkpoint} and {@code .server}.
 */
@NullMarked
package cuda.graph.llm.internal.serving;

import org.jspecify.annotations.NullMarked;
