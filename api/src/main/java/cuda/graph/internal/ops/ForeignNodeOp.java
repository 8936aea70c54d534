// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 the cuda-graph authors
package cuda.graph.internal.ops;

import cuda.graph.DeviceBuffer;
import cuda.graph.ForeignWork;
import cuda.graph.GraphNode;
import java.util.List;
import org.jspecify.annotations.Nullable;

/** Work another CUDA library enqueues on the raw stream, on buffers the node declares. */
public final class ForeignNodeOp extends OnceGuard implements GraphNode<@Nullable Void> {

  public final String name;
  public final List<DeviceBuffer<?>> buffers;
  public final ForeignWork work;

  public ForeignNodeOp(String name, List<DeviceBuffer<?>> buffers, ForeignWork work) {
    this.name = name;
    this.buffers = buffers;
    this.work = work;
  }

  @Override
  public String toString() {
    return name;
  }
}
