package cuda.graph;

import org.jspecify.annotations.Nullable;

/** Closes a buffer in stream order: its memory is released after the work queued before it. */
final class FreeOp extends OnceGuard implements DeviceOp<@Nullable Void> {

  final DeviceBuffer<?> buffer;

  FreeOp(DeviceBuffer<?> buffer) {
    this.buffer = buffer;
  }

  @Override
  public String toString() {
    return "free " + buffer;
  }
}
