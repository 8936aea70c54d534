// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 the cuda-graph authors
package cuda.graph.internal.ops;

import cuda.graph.GraphNode;
import org.jspecify.annotations.Nullable;

/** A value known on the host: no GPU work. */
public final class ValueOp<T extends @Nullable Object> extends OnceGuard implements GraphNode<T> {

  public final T value;

  public ValueOp(T value) {
    this.value = value;
  }

  @Override
  public String toString() {
    return "value(" + value + ")";
  }
}
