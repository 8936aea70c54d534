// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 the cuda-graph authors
package cuda.graph.internal.ops;

import cuda.graph.DeviceBuffer;
import cuda.graph.GraphNode;
import cuda.graph.HostBuffer;
import org.jspecify.annotations.Nullable;

/**
 * An asynchronous copy between existing device buffers and pinned host buffers; a graph memcpy
 * node.
 */
public final class CopyOp extends OnceGuard implements GraphNode<@Nullable Void> {

  public enum Kind {
    HOST_TO_DEVICE,
    DEVICE_TO_HOST,
    DEVICE_TO_DEVICE
  }

  public final Kind kind;
  public final @Nullable DeviceBuffer<?> deviceSource;
  public final @Nullable DeviceBuffer<?> deviceTarget;
  public final @Nullable HostBuffer<?> hostSource;
  public final @Nullable HostBuffer<?> hostTarget;
  public final long bytes;

  public CopyOp(
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
