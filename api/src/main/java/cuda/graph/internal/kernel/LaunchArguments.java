// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 the cuda-graph authors
package cuda.graph.internal.kernel;

import cuda.graph.DeviceBuffer;
import cuda.graph.GraphCondition;
import cuda.graph.internal.runtime.Execution;
import cuda.graph.spi.KernelArguments;

/**
 * Writes a launch's arguments into the kernel's argument block, leasing each buffer for the
 * execution: one conversion shared by launches and by kernel-node replacements.
 */
public final class LaunchArguments {

  private LaunchArguments() {}

  /** Fills {@code block} with {@code launch}'s arguments as {@code ex} sees them. */
  public static void bind(KernelLaunchOp launch, Execution ex, KernelArguments block) {
    KernelImpl kernel = KernelImpl.of(launch.kernel);
    Object[] args = launch.arguments;
    for (int i = 0; i < args.length; i++) {
      switch (args[i]) {
        case DeviceBuffer<?> b -> block.setI64(i, ex.use(b));
        case Integer v -> block.setI32(i, v);
        case Float v -> block.setF32(i, v);
        case Long v -> block.setI64(i, v);
        case Double v -> block.setF64(i, v);
        case Short v -> block.setI16(i, v);
        case Byte v -> block.setI8(i, v);
        case GraphCondition c -> block.setI64(i, condition(c, i, kernel, ex));
        default ->
            throw new IllegalArgumentException(
                "argument "
                    + i
                    + " of "
                    + kernel
                    + " cannot be passed as "
                    + kernel.parameters().get(i));
      }
    }
  }

  private static long condition(GraphCondition c, int index, KernelImpl kernel, Execution ex) {
    ConditionImpl condition = ConditionImpl.of(c);
    if (!condition.belongsTo(ex)) {
      String what = "argument " + index + " of " + kernel + " is " + condition;
      if (!ex.isCapturing() && ex.conditionsOf != null) {
        throw new IllegalArgumentException(
            what
                + ", made by another capture than the one that recorded the node it replaces (an"
                + " earlier capture of the graph, or another graph's): a replacement may set only"
                + " conditions of the capture that recorded the node, whose graph the exec runs;"
                + " pass a condition that capture's scope made, or recapture the graph");
      }
      throw new IllegalArgumentException(
          what
              + ", made by another capture"
              + (ex.isCapturing() ? "" : " (this launch is not captured)")
              + ": a condition is valid only in kernels recorded in the capture whose scope made"
              + " it; record the launch in that capture");
    }
    return condition.handle.value();
  }
}
