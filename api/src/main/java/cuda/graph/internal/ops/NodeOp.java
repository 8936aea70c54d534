// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 the cuda-graph authors
package cuda.graph.internal.ops;

import cuda.graph.DeviceOp;
import cuda.graph.GraphNode;
import org.jspecify.annotations.Nullable;

/**
 * A composition ({@code map}, {@code thenNode}, {@code zip}, {@code sequence}) whose parts are all
 * graph nodes, which makes it a graph node itself. The combinators exist once, as {@link
 * DeviceOp}s; this wrapper carries the {@link GraphNode} property, so no combinator needs a second
 * class.
 */
public final class NodeOp<T extends @Nullable Object> implements GraphNode<T> {

  public final DeviceOp<T> composition;
  final @Nullable String name;

  /** Marks {@code composition}, built only from graph nodes, as a graph node. */
  public NodeOp(DeviceOp<T> composition) {
    this(composition, null);
  }

  /** The same, shown as {@code name} rather than as the composition. */
  public NodeOp(DeviceOp<T> composition, @Nullable String name) {
    this.composition = composition;
    this.name = name;
  }

  @Override
  public String toString() {
    return name != null ? name : Descriptions.of(composition);
  }
}
