package cuda.graph;

import java.util.List;
import org.jspecify.annotations.Nullable;

/** Graph nodes run in order, results dropped: a flat sequence, however long, without nesting. */
final class NodeSequenceOp extends OnceGuard implements GraphNode<@Nullable Void> {

  final List<GraphNode<?>> nodes;

  NodeSequenceOp(List<GraphNode<?>> nodes) {
    this.nodes = nodes;
  }

  @Override
  public String toString() {
    return "sequence(" + nodes.size() + " nodes)";
  }
}
