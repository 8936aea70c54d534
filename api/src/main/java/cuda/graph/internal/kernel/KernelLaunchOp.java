// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 the cuda-graph authors
package cuda.graph.internal.kernel;

import cuda.graph.GraphNode;
import cuda.graph.Kernel;
import cuda.graph.LaunchConfig;
import cuda.graph.internal.ops.OnceGuard;
import org.jspecify.annotations.Nullable;

/** A kernel launch with checked arguments; a graph kernel node. */
public final class KernelLaunchOp extends OnceGuard implements GraphNode<@Nullable Void> {

  public final Kernel kernel;
  public final LaunchConfig config;
  public final Object[] arguments;

  /**
   * Whether the launch shape was checked against its device's limits when the launch was built (it
   * has a buffer argument, so its device was known); if not, the executor checks it.
   */
  public final boolean shapeChecked;

  public KernelLaunchOp(
      Kernel kernel, LaunchConfig config, Object[] arguments, boolean shapeChecked) {
    this.kernel = kernel;
    this.config = config;
    this.arguments = arguments;
    this.shapeChecked = shapeChecked;
  }

  @Override
  public String toString() {
    return "launch "
        + KernelImpl.of(kernel).describe()
        + " "
        + config.grid()
        + "x"
        + config.block();
  }
}
