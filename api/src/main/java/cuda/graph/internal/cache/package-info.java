// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 the cuda-graph authors
/**
 * The shape-keyed graph cache: a graph per key, captured on a miss, replayed on a hit without a
 * lock, released least recently used first to stay within a budget of graph memory. May depend on
 * {@code cuda.graph}, {@code .graph} and {@code .events}.
 */
@NullMarked
package cuda.graph.internal.cache;

import org.jspecify.annotations.NullMarked;
