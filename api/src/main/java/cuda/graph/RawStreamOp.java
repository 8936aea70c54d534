package cuda.graph;

import org.jspecify.annotations.Nullable;

/** The escape hatch: foreign code enqueues on the raw stream. */
final class RawStreamOp<T extends @Nullable Object> extends OnceGuard implements DeviceOp<T> {

  final RawStreamFunction<T> function;

  RawStreamOp(RawStreamFunction<T> function) {
    this.function = function;
  }

  @Override
  public String toString() {
    return "withRawStream(...)";
  }
}
