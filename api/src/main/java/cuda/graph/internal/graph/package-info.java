// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 the cuda-graph authors
/**
 * CUDA graphs: the capture protocol, captured graphs, scopes and modules. May depend on {@code
 * cuda.graph}, {@code cuda.graph.spi}, {@code .ops}, {@code .runtime}, {@code .kernel}, {@code
 * .exec} and {@code .events}: every internal package but the bootstrap, and the cache built on
 * graphs.
 */
@NullMarked
package cuda.graph.internal.graph;

import org.jspecify.annotations.NullMarked;
