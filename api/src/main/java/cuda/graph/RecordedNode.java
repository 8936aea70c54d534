package cuda.graph;

import cuda.graph.internal.graph.RecordedNodeImpl;

/**
 * A node recorded with {@link Scope#recordNode}: one kernel launch, copy or fill of a graph, which
 * {@link CudaGraph#replaceNode} can give new parameters and {@link CudaGraph#setEnabled} can switch
 * off and on, without capturing again.
 *
 * <p>It belongs to the graph and the capture that recorded it: once {@link CudaGraph#recapture} has
 * replaced that capture, it is stale and using it fails. Immutable and thread-safe.
 */
public sealed interface RecordedNode permits RecordedNodeImpl {

  /**
   * {@return what the node does: {@link NodeKind#KERNEL}, {@link NodeKind#COPY} or {@link
   * NodeKind#FILL}}
   */
  NodeKind kind();
}
