// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 the cuda-graph authors
package cuda.graph.internal.ops;

import cuda.graph.DeviceBuffer;
import cuda.graph.DeviceOp;
import org.jspecify.annotations.Nullable;

/** Closes a buffer in stream order: its memory is released after the work queued before it. */
public final class FreeOp extends OnceGuard implements DeviceOp<@Nullable Void> {

  public final DeviceBuffer<?> buffer;

  public FreeOp(DeviceBuffer<?> buffer) {
    this.buffer = buffer;
  }

  @Override
  public String toString() {
    return "free " + buffer;
  }
}
