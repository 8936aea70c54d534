package cuda.graph.internal.graph;

import cuda.graph.NodeKind;
import cuda.graph.RecordedNode;
import org.jspecify.annotations.Nullable;

/**
 * The implementation of {@link RecordedNode}: what kind of node it is and what a replacement must
 * match ({@code shape}: the kernel of a launch, the direction of a copy, the element size of a
 * fill), its position among the capture's nodes (which names the exec's node), and the range of the
 * capture's leases its buffers took. Bound to its graph and to the capture generation that made it
 * once the capture is applied; a later recapture makes it stale.
 */
public final class RecordedNodeImpl implements RecordedNode {

  private final NodeKind kind;
  final Object shape;
  final int index;
  final int leaseFrom;
  final int leaseTo;
  private volatile @Nullable CudaGraphImpl<?> graph;
  private volatile int generation;

  RecordedNodeImpl(NodeKind kind, Object shape, int index, int leaseFrom, int leaseTo) {
    this.kind = kind;
    this.shape = shape;
    this.index = index;
    this.leaseFrom = leaseFrom;
    this.leaseTo = leaseTo;
  }

  /** {@return the implementation behind a recorded node (the only one it permits)} */
  static RecordedNodeImpl of(RecordedNode node) {
    return (RecordedNodeImpl) node;
  }

  void bind(CudaGraphImpl<?> owner, int captureGeneration) {
    this.generation = captureGeneration;
    this.graph = owner;
  }

  /** {@return whether this node was recorded by {@code owner}'s capture of {@code generation}} */
  boolean isCurrentIn(CudaGraphImpl<?> owner, int currentGeneration) {
    return graph == owner && generation == currentGeneration;
  }

  boolean isOf(CudaGraphImpl<?> owner) {
    return graph == owner;
  }

  @Override
  public NodeKind kind() {
    return kind;
  }

  @Override
  public String toString() {
    return "RecordedNode[" + kind + " #" + index + "]";
  }
}
