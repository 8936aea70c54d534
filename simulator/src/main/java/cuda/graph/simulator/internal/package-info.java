// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 the cuda-graph authors
/**
 * The simulator's implementation; not exported. May depend on {@code cuda.graph.spi} and {@code
 * cuda.graph.simulator} (the public types it implements).
 */
@NullMarked
package cuda.graph.simulator.internal;

import org.jspecify.annotations.NullMarked;
