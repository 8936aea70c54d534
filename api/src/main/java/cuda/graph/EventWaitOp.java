package cuda.graph;

import org.jspecify.annotations.Nullable;

/** Makes the executing stream wait for an event. */
final class EventWaitOp extends OnceGuard implements DeviceOp<@Nullable Void> {

  final CudaEvent event;

  EventWaitOp(CudaEvent event) {
    this.event = event;
  }

  @Override
  public String toString() {
    return "wait for " + event;
  }
}
