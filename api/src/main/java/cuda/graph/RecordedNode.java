// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 the cuda-graph authors
package cuda.graph;

import static org.apiguardian.api.API.Status.MAINTAINED;

import cuda.graph.internal.graph.RecordedNodeImpl;
import org.apiguardian.api.API;

/**
 * A node recorded with {@link Scope#recordNode}: one kernel launch, copy or fill of a graph, which
 * {@link CudaGraph#replaceNode} can give new parameters and {@link CudaGraph#setEnabled} can switch
 * off and on, or one foreign node, recorded as one child-graph node, which {@link
 * CudaGraph#replaceNode} can give the work of a foreign node of the same shape, without capturing
 * again.
 *
 * <p>It belongs to the graph and the capture that recorded it: once {@link CudaGraph#recapture} has
 * replaced that capture, it is stale and using it fails. Immutable and thread-safe.
 *
 * @since 0.1.0
 */
@API(status = MAINTAINED, since = "0.1.0")
public sealed interface RecordedNode permits RecordedNodeImpl {

  /**
   * {@return what the node does: {@link NodeKind#KERNEL}, {@link NodeKind#COPY}, {@link
   * NodeKind#FILL}, or {@link NodeKind#CHILD_GRAPH} for a foreign node}
   */
  NodeKind kind();
}
