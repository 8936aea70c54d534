// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 the cuda-graph authors
package cuda.graph.blas.internal.plan;

import cuda.graph.DeviceBuffer;
import org.jspecify.annotations.Nullable;

/**
 * The buffers one matmul node runs over, checked by the public API against its {@link
 * CheckedMatmul} (types, devices, lengths, no output overlapping an input): the backend may use
 * them as they are.
 *
 * @param a A
 * @param b B
 * @param c C, or null when the product has none ({@code beta == 0})
 * @param d D, written
 * @param bias the bias vector, or null when the epilogue takes none
 * @param workspace the workspace the plan asked for, or null when it asked for none; leased with
 *     the other buffers, so it lives as long as any graph that captured the node
 */
public record MatmulOperands(
    DeviceBuffer<?> a,
    DeviceBuffer<?> b,
    @Nullable DeviceBuffer<?> c,
    DeviceBuffer<?> d,
    @Nullable DeviceBuffer<?> bias,
    @Nullable DeviceBuffer<?> workspace) {}
