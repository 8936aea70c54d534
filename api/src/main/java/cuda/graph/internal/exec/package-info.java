// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 the cuda-graph authors
/**
 * Execution of op trees: the one execution skeleton and the exhaustive switch over the op kinds
 * ({@code Executor}), the per-thread execution lock, memory ops, shared ops and graph launches. May
 * depend on {@code cuda.graph}, {@code cuda.graph.spi} (kernel functions and arguments, events),
 * {@code .ops}, {@code .kernel}, {@code .runtime} and {@code .events} (a graph launch commits its
 * Flight Recorder event).
 */
@NullMarked
package cuda.graph.internal.exec;

import org.jspecify.annotations.NullMarked;
