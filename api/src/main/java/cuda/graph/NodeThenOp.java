package cuda.graph;

import java.util.function.Function;
import org.jspecify.annotations.Nullable;

/** {@link ThenOp} whose parts are graph nodes, which stays a graph node. */
final class NodeThenOp<T extends @Nullable Object, R extends @Nullable Object> extends OnceGuard implements GraphNode<R> {

  final GraphNode<T> source;
  final Function<? super T, ? extends GraphNode<R>> next;

  NodeThenOp(GraphNode<T> source, Function<? super T, ? extends GraphNode<R>> next) {
    this.source = source;
    this.next = next;
  }

  @Override
  public String toString() {
    return source + ".thenNode(...)";
  }
}
