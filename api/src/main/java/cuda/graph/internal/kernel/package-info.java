// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 the cuda-graph authors
/**
 * Kernels and kernel images: loading per device, argument checking and packing, Java reference
 * kernels, and the kernel-launch op. May depend on {@code cuda.graph}, {@code cuda.graph.spi},
 * {@code .ops} and {@code .runtime}.
 */
@NullMarked
package cuda.graph.internal.kernel;

import org.jspecify.annotations.NullMarked;
