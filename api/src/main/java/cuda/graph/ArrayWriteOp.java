package cuda.graph;

import java.lang.foreign.MemorySegment;
import org.jspecify.annotations.Nullable;

/** Copies host data (a snapshot taken when the op was built) into a buffer, staged through pinned memory. */
final class ArrayWriteOp extends OnceGuard implements DeviceOp<@Nullable Void> {

  final DeviceBuffer<?> target;
  final MemorySegment data;

  ArrayWriteOp(DeviceBuffer<?> target, MemorySegment data) {
    this.target = target;
    this.data = data;
  }

  @Override
  public String toString() {
    return "write " + data.byteSize() + " bytes into " + target;
  }
}
