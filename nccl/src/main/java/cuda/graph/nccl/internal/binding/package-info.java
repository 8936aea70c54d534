// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 the cuda-graph authors
/**
 * The FFM binding of NCCL ({@code libnccl.so.2}); not exported, used by {@code
 * cuda.graph.nccl.internal.comm}. {@link cuda.graph.nccl.internal.binding.NcclEntry} describes each
 * entry point bound (symbol and C signature); {@link cuda.graph.nccl.internal.binding.NcclLibrary}
 * loads the library once per process, checks its symbols and version, and offers one typed method
 * per entry point, taking handles, device pointers and counts as {@code long} so a collective costs
 * no allocation; {@link cuda.graph.nccl.internal.binding.NcclErrors} is the one place a failed call
 * becomes an {@link cuda.graph.nccl.NcclException}, in the words of {@link
 * cuda.graph.nccl.internal.binding.NcclResults}; {@link
 * cuda.graph.nccl.internal.binding.NcclDataTypes} maps element types to {@code ncclDataType_t}.
 * Only the package-private {@code Ffm} calls restricted FFM methods, and only after {@code
 * NativeAccess} has checked that this module may. May depend on {@code cuda.graph} and {@code
 * cuda.graph.nccl}.
 */
@NullMarked
package cuda.graph.nccl.internal.binding;

import org.jspecify.annotations.NullMarked;
