// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 the cuda-graph authors
package cuda.graph.internal.ops;

import cuda.graph.DeviceOp;
import java.util.List;
import org.jspecify.annotations.Nullable;

/** Any number of ops run in order on one stream, their results listed. */
public final class ZipAllOp<T extends @Nullable Object> extends OnceGuard
    implements DeviceOp<List<T>> {

  public final List<? extends DeviceOp<? extends T>> ops;

  public ZipAllOp(List<? extends DeviceOp<? extends T>> ops) {
    this.ops = ops;
    adoptAll(ops);
  }

  @Override
  public String toString() {
    return "zipAll(" + ops.size() + " ops)";
  }
}
