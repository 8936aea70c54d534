// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 the cuda-graph authors
/**
 * Matrix products as graph nodes: the public API of module {@code cuda.graph.blas}.
 *
 * <p>Every type here is either a sealed interface implemented in a non-exported package, a record,
 * an enum or an exception.
 */
@NullMarked
package cuda.graph.blas;

import org.jspecify.annotations.NullMarked;
