package cuda.graph;

import java.util.function.Function;
import org.jspecify.annotations.Nullable;

/** A host-side transformation of another op's result. */
final class MapOp<T extends @Nullable Object, R extends @Nullable Object> extends OnceGuard implements DeviceOp<R> {

  final DeviceOp<T> source;
  final Function<? super T, ? extends R> function;

  MapOp(DeviceOp<T> source, Function<? super T, ? extends R> function) {
    this.source = source;
    this.function = function;
  }

  @Override
  public String toString() {
    return source + ".map(...)";
  }
}
