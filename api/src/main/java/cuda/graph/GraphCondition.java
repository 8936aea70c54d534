// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 the cuda-graph authors
package cuda.graph;

import static org.apiguardian.api.API.Status.MAINTAINED;

import cuda.graph.internal.kernel.ConditionImpl;
import org.apiguardian.api.API;

/**
 * The condition of a conditional node ({@code cudaGraphConditionalHandle}), made by {@link
 * Scope#condition} for the graph that scope records. Kernels of the graph receive it as a {@link
 * KernelParam#CONDITION} argument and set it on the device ({@code cudaGraphSetConditional}, or
 * {@link KernelCall#setCondition} in a Java kernel); {@link Scope#ifThen}, {@link Scope#whileLoop}
 * and {@link Scope#switchOf} test it.
 *
 * <p>Every launch of the graph starts with the condition at {@link #defaultValue()}. A condition is
 * valid only inside the capture that made it (and in replacements of the nodes that capture
 * recorded, {@link CudaGraph#replaceNode}): passing it to a kernel executed outside that graph, or
 * testing it in another scope's conditional node, fails before any driver call. A recapture makes
 * new conditions; those of the capture before no longer apply. Immutable and thread-safe.
 *
 * @since 0.1.0
 */
@API(status = MAINTAINED, since = "0.1.0")
public sealed interface GraphCondition permits ConditionImpl {

  /** {@return the value the condition has at the start of every launch of its graph} */
  int defaultValue();
}
