// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 the cuda-graph authors
/**
 * The embedder users hold: the choice of backend (the GPU, the simulator when asked for, or
 * LangChain4j's model on the CPU), texts checked and tokenized (a query on the caller's thread,
 * ingestion on a pool overlapped with the GPU), batches sorted by length, single requests run on
 * their caller's thread or coalesced when they overlap, and the embedder's lifetime. May
 * depend on {@code cuda.graph}, {@code cuda.graph.embeddings}, {@code .model}, {@code .gpu} and
 * {@code jdk.jfr}.
 */
@NullMarked
package cuda.graph.embeddings.internal.serving;

import org.jspecify.annotations.NullMarked;
