// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 the cuda-graph authors
package cuda.graph.blas.internal.matmul;

import cuda.graph.Device;
import cuda.graph.DeviceBuffer;
import cuda.graph.DeviceOp;
import cuda.graph.ElementType;
import cuda.graph.blas.Workspace;
import java.util.Objects;

/**
 * A workspace: a device buffer of bytes that matmul nodes declare, so the library's leases keep it
 * alive for every graph that captured one of them.
 */
public final class WorkspaceImpl implements Workspace {

  private final DeviceBuffer<Byte> buffer;

  private WorkspaceImpl(DeviceBuffer<Byte> buffer) {
    this.buffer = buffer;
  }

  /** {@return an op that allocates {@code bytes} bytes of workspace} */
  public static DeviceOp<Workspace> allocate(long bytes) {
    if (bytes < 1) {
      throw new IllegalArgumentException(
          "Workspace.allocate: "
              + bytes
              + " bytes; a workspace holds at least 1 byte (Blas.plan reports what a matmul"
              + " needs)");
    }
    // Exclusive: every run of an algorithm overwrites it, so the library orders its users.
    return DeviceBuffer.allocateExclusive(ElementType.I8, bytes).map(WorkspaceImpl::new);
  }

  /** {@return the implementation of {@code workspace}} */
  static WorkspaceImpl of(Workspace workspace) {
    return (WorkspaceImpl) Objects.requireNonNull(workspace, "workspace");
  }

  /** {@return the memory, which a node declares to lease it} */
  DeviceBuffer<Byte> buffer() {
    return buffer;
  }

  @Override
  public long byteSize() {
    return buffer.byteSize();
  }

  @Override
  public Device device() {
    return buffer.device();
  }

  @Override
  public boolean isClosed() {
    return buffer.isClosed();
  }

  @Override
  public void close() {
    buffer.close();
  }

  @Override
  public String toString() {
    return "Workspace[" + buffer.byteSize() + " bytes on device " + buffer.device().ordinal() + "]";
  }
}
