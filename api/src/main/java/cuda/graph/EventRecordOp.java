package cuda.graph;

import org.jspecify.annotations.Nullable;

/** Records an event on the executing stream. */
final class EventRecordOp extends OnceGuard implements DeviceOp<@Nullable Void> {

  final CudaEvent event;

  EventRecordOp(CudaEvent event) {
    this.event = event;
  }

  @Override
  public String toString() {
    return "record " + event;
  }
}
