package cuda.graph;

import java.util.function.Function;
import org.jspecify.annotations.Nullable;

/** {@link MapOp} over a graph node, which stays a graph node. */
final class NodeMapOp<T extends @Nullable Object, R extends @Nullable Object> extends OnceGuard implements GraphNode<R> {

  final GraphNode<T> source;
  final Function<? super T, ? extends R> function;

  NodeMapOp(GraphNode<T> source, Function<? super T, ? extends R> function) {
    this.source = source;
    this.function = function;
  }

  @Override
  public String toString() {
    return source + ".map(...)";
  }
}
