// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 the cuda-graph authors
package cuda.graph.simulator.internal;

import org.jspecify.annotations.Nullable;

/**
 * A conditional handle ({@code cuGraphConditionalHandleCreate}): created for one graph, used by at
 * most one conditional node of that graph, and gone with the graph. It holds only what the handle
 * was created with; the value a launch tests lives in the exec ({@link Op.ConditionalRun#value}).
 */
final class SimCondition {

  /** The opaque value handed to the caller and passed to kernels. */
  final long value;

  final SimGraph graph;
  final SimContext context;
  final int defaultValue;

  /** {@code CU_GRAPH_COND_ASSIGN_DEFAULT}: every launch starts at {@link #defaultValue}. */
  final boolean assignDefault;

  /** The conditional node using the handle, once one was added. */
  @Nullable Node node;

  /** The graph was destroyed: the handle is dangling. */
  boolean destroyed;

  SimCondition(
      long value, SimGraph graph, SimContext context, int defaultValue, boolean assignDefault) {
    this.value = value;
    this.graph = graph;
    this.context = context;
    this.defaultValue = defaultValue;
    this.assignDefault = assignDefault;
  }

  @Override
  public String toString() {
    return "CUgraphConditionalHandle(0x" + Long.toHexString(value) + ")";
  }
}
