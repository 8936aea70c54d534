package cuda.graph;

import org.jspecify.annotations.Nullable;

/** An asynchronous copy between existing device buffers and pinned host buffers; a graph memcpy node. */
final class CopyOp extends OnceGuard implements GraphNode<@Nullable Void> {

  enum Kind { HOST_TO_DEVICE, DEVICE_TO_HOST, DEVICE_TO_DEVICE }

  final Kind kind;
  final @Nullable DeviceBuffer<?> deviceSource;
  final @Nullable DeviceBuffer<?> deviceTarget;
  final @Nullable HostBuffer<?> hostSource;
  final @Nullable HostBuffer<?> hostTarget;
  final long bytes;

  CopyOp(
      Kind kind,
      @Nullable DeviceBuffer<?> deviceSource,
      @Nullable DeviceBuffer<?> deviceTarget,
      @Nullable HostBuffer<?> hostSource,
      @Nullable HostBuffer<?> hostTarget,
      long bytes) {
    this.kind = kind;
    this.deviceSource = deviceSource;
    this.deviceTarget = deviceTarget;
    this.hostSource = hostSource;
    this.hostTarget = hostTarget;
    this.bytes = bytes;
  }

  @Override
  public String toString() {
    return "copy " + kind + " " + bytes + " bytes";
  }
}
