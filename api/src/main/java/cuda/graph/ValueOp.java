package cuda.graph;

import org.jspecify.annotations.Nullable;

/** A value known on the host: no GPU work. */
final class ValueOp<T extends @Nullable Object> extends OnceGuard implements GraphNode<T> {

  final T value;

  ValueOp(T value) {
    this.value = value;
  }

  @Override
  public String toString() {
    return "value(" + value + ")";
  }
}
