package cuda.graph.internal.ops;

import cuda.graph.DeviceBuffer;
import cuda.graph.ElementType;
import cuda.graph.GraphNode;
import java.util.Objects;
import org.jspecify.annotations.Nullable;

/** Sets every element of a buffer to one value; a graph memset node. */
public final class FillOp extends OnceGuard implements GraphNode<@Nullable Void> {

  public final DeviceBuffer<?> buffer;
  public final long bits;

  public FillOp(DeviceBuffer<?> buffer, long bits) {
    this.buffer = buffer;
    this.bits = bits;
  }

  /** {@return the bit pattern of one element holding {@code value}} */
  public static <T> long bits(ElementType<T> type, T value) {
    Objects.requireNonNull(value, "value");
    Object v = value;
    return switch (v) {
      case Float f -> Float.floatToRawIntBits(f) & 0xffff_ffffL;
      case Double d -> Double.doubleToRawLongBits(d);
      case Integer i -> i & 0xffff_ffffL;
      case Long l -> l;
      case Short s -> s & 0xffffL;
      case Byte b -> b & 0xffL;
      default ->
          throw new IllegalArgumentException("cannot fill a " + type + " buffer with " + value);
    };
  }

  @Override
  public String toString() {
    return "fill " + buffer;
  }
}
