// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 the cuda-graph authors
package cuda.graph.internal.ops;

import cuda.graph.GraphNode;
import org.jspecify.annotations.Nullable;

/**
 * A host function run in stream order ({@code cuLaunchHostFunc}); a graph host node when captured.
 */
public final class HostCallbackOp extends OnceGuard implements GraphNode<@Nullable Void> {

  public final Runnable callback;

  public HostCallbackOp(Runnable callback) {
    this.callback = callback;
  }

  @Override
  public String toString() {
    return "hostCallback";
  }
}
