// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 the cuda-graph authors
package cuda.graph.internal.ops;

import cuda.graph.DeviceBuffer;
import cuda.graph.DeviceOp;
import java.lang.foreign.MemorySegment;
import org.jspecify.annotations.Nullable;

/**
 * Copies host data (a snapshot taken when the op was built) into a buffer, staged through pinned
 * memory.
 */
public final class ArrayWriteOp extends OnceGuard implements DeviceOp<@Nullable Void> {

  public final DeviceBuffer<?> target;
  public final MemorySegment data;

  public ArrayWriteOp(DeviceBuffer<?> target, MemorySegment data) {
    this.target = target;
    this.data = data;
  }

  @Override
  public String toString() {
    return "write " + data.byteSize() + " bytes into " + target;
  }
}
