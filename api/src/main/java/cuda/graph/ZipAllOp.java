package cuda.graph;

import java.util.List;
import org.jspecify.annotations.Nullable;

/** Any number of ops run in order on one stream, their results listed. */
final class ZipAllOp<T extends @Nullable Object> extends OnceGuard implements DeviceOp<List<T>> {

  final List<? extends DeviceOp<? extends T>> ops;

  ZipAllOp(List<? extends DeviceOp<? extends T>> ops) {
    this.ops = ops;
  }

  @Override
  public String toString() {
    return "zipAll(" + ops.size() + " ops)";
  }
}
