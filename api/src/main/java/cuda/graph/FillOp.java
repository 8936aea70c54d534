package cuda.graph;

import java.util.Objects;
import org.jspecify.annotations.Nullable;

/** Sets every element of a buffer to one value; a graph memset node. */
final class FillOp extends OnceGuard implements GraphNode<@Nullable Void> {

  final DeviceBuffer<?> buffer;
  final long bits;

  FillOp(DeviceBuffer<?> buffer, long bits) {
    this.buffer = buffer;
    this.bits = bits;
  }

  /** {@return the bit pattern of one element holding {@code value}} */
  static <T> long bits(ElementType<T> type, T value) {
    Objects.requireNonNull(value, "value");
    Object v = value;
    return switch (v) {
      case Float f -> Float.floatToRawIntBits(f) & 0xffff_ffffL;
      case Double d -> Double.doubleToRawLongBits(d);
      case Integer i -> i & 0xffff_ffffL;
      case Long l -> l;
      case Short s -> s & 0xffffL;
      case Byte b -> b & 0xffL;
      default -> throw new IllegalArgumentException("cannot fill a " + type + " buffer with " + value);
    };
  }

  @Override
  public String toString() {
    return "fill " + buffer;
  }
}
