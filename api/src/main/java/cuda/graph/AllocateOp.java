package cuda.graph;

import java.lang.foreign.MemorySegment;
import java.util.Objects;
import org.jspecify.annotations.Nullable;

/** Allocates a buffer in stream order, then initializes it (nothing, a fill, host data, or a device copy). */
final class AllocateOp<T> extends OnceGuard implements DeviceOp<DeviceBuffer<T>> {

  enum Init { NONE, FILL, COPY_HOST, COPY_DEVICE }

  final ElementType<T> type;
  final long length;
  final Init init;
  final long fillBits;
  final @Nullable MemorySegment hostData;
  final @Nullable DeviceBuffer<T> deviceData;

  AllocateOp(
      ElementType<T> type, long length, Init init, long fillBits, @Nullable MemorySegment hostData, @Nullable DeviceBuffer<T> deviceData) {
    this.type = Objects.requireNonNull(type, "type");
    if (length <= 0) {
      throw new IllegalArgumentException("a buffer holds at least one element, got length " + length);
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
