package cuda.graph;

import java.util.function.Function;
import org.jspecify.annotations.Nullable;

/** Dependent work: runs an op built from another op's result, on the same stream. */
final class ThenOp<T extends @Nullable Object, R extends @Nullable Object> extends OnceGuard implements DeviceOp<R> {

  final DeviceOp<T> source;
  final Function<? super T, ? extends DeviceOp<R>> next;

  ThenOp(DeviceOp<T> source, Function<? super T, ? extends DeviceOp<R>> next) {
    this.source = source;
    this.next = next;
  }

  @Override
  public String toString() {
    return source + ".then(...)";
  }
}
