package cuda.graph;

import java.util.function.BiFunction;
import org.jspecify.annotations.Nullable;

/** {@link ZipOp} of two graph nodes, which stays a graph node. */
final class NodeZipOp<A extends @Nullable Object, B extends @Nullable Object, R extends @Nullable Object> extends OnceGuard
    implements GraphNode<R> {

  final GraphNode<A> first;
  final GraphNode<B> second;
  final BiFunction<? super A, ? super B, ? extends R> combine;

  NodeZipOp(GraphNode<A> first, GraphNode<B> second, BiFunction<? super A, ? super B, ? extends R> combine) {
    this.first = first;
    this.second = second;
    this.combine = combine;
  }

  @Override
  public String toString() {
    return "zip(" + first + ", " + second + ")";
  }
}
