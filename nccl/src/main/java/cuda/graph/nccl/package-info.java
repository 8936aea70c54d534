// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 the cuda-graph authors
/**
 * Communicators and collectives: the public API of module {@code cuda.graph.nccl}.
 *
 * <p>Every type here is either a sealed interface implemented in a non-exported package, a record,
 * an enum or an exception.
 */
@NullMarked
package cuda.graph.nccl;

import org.jspecify.annotations.NullMarked;
