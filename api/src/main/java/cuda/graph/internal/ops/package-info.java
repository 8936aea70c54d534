// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 the cuda-graph authors
/**
 * The op kinds: immutable descriptions of work ({@code MapOp}, {@code CopyOp}, ...) that {@code
 * DeviceOp} and {@code GraphNode} permit; each executes at most once ({@code OnceGuard}). May
 * depend on {@code cuda.graph}.
 */
@NullMarked
package cuda.graph.internal.ops;

import org.jspecify.annotations.NullMarked;
