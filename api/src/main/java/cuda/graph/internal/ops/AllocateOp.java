package cuda.graph.internal.ops;

import cuda.graph.DeviceBuffer;
import cuda.graph.DeviceOp;
import cuda.graph.ElementType;
import java.lang.foreign.MemorySegment;
import java.util.Objects;
import org.jspecify.annotations.Nullable;

/**
 * Allocates a buffer in stream order, then initializes it (nothing, a fill, host data, or a device
 * copy).
 */
public final class AllocateOp<T> extends OnceGuard implements DeviceOp<DeviceBuffer<T>> {

  public enum Init {
    NONE,
    FILL,
    COPY_HOST,
    COPY_DEVICE
  }

  public final ElementType<T> type;
  public final long length;
  public final Init init;
  public final long fillBits;
  public final @Nullable MemorySegment hostData;
  public final @Nullable DeviceBuffer<T> deviceData;

  public AllocateOp(
      ElementType<T> type,
      long length,
      Init init,
      long fillBits,
      @Nullable MemorySegment hostData,
      @Nullable DeviceBuffer<T> deviceData) {
    this.type = Objects.requireNonNull(type, "type");
    if (length <= 0) {
      throw new IllegalArgumentException(
          "a buffer holds at least one element, got length " + length);
    }
    Math.multiplyExact(length, type.byteSize());
    this.length = length;
    this.init = init;
    this.fillBits = fillBits;
    this.hostData = hostData;
    this.deviceData = deviceData;
  }

  @Override
  public String toString() {
    return "allocate " + type + "[" + length + "] (" + init + ")";
  }
}
