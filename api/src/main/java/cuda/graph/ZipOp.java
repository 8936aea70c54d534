package cuda.graph;

import java.util.function.BiFunction;
import org.jspecify.annotations.Nullable;

/** Two ops run in order on one stream, their results combined on the host. */
final class ZipOp<A extends @Nullable Object, B extends @Nullable Object, R extends @Nullable Object> extends OnceGuard
    implements DeviceOp<R> {

  final DeviceOp<A> first;
  final DeviceOp<B> second;
  final BiFunction<? super A, ? super B, ? extends R> combine;

  ZipOp(DeviceOp<A> first, DeviceOp<B> second, BiFunction<? super A, ? super B, ? extends R> combine) {
    this.first = first;
    this.second = second;
    this.combine = combine;
  }

  @Override
  public String toString() {
    return "zip(" + first + ", " + second + ")";
  }
}
