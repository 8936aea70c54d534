// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 the cuda-graph authors
package cuda.graph.internal.ops;

import cuda.graph.DeviceOp;
import java.util.List;
import org.jspecify.annotations.Nullable;

/**
 * Ops run as concurrent branches: the first on the executing stream, the others on auxiliary
 * streams forked from it and joined back into it; their results listed in branch order.
 */
public final class ParallelOp<T extends @Nullable Object> extends OnceGuard
    implements DeviceOp<List<T>> {

  public final List<? extends DeviceOp<? extends T>> branches;

  private ParallelOp(List<? extends DeviceOp<? extends T>> branches) {
    this.branches = branches;
    adoptAll(branches);
  }

  /** {@return the op}, after copying {@code branches} and refusing an empty or null-holding list */
  public static <T extends @Nullable Object> ParallelOp<T> of(
      @Nullable List<? extends DeviceOp<? extends T>> branches) {
    List<? extends DeviceOp<? extends T>> copy = OpLists.copyWithoutNulls(branches, "branches");
    if (copy.isEmpty()) {
      throw new IllegalArgumentException("parallel needs at least one branch, got none");
    }
    return new ParallelOp<>(copy);
  }

  @Override
  public String toString() {
    return "parallel(" + branches.size() + " branches)";
  }
}
