// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 the cuda-graph authors
package cuda.graph.internal.ops;

import cuda.graph.CudaEvent;
import cuda.graph.DeviceOp;
import org.jspecify.annotations.Nullable;

/** Records an event on the executing stream. */
public final class EventRecordOp extends OnceGuard implements DeviceOp<@Nullable Void> {

  public final CudaEvent event;

  public EventRecordOp(CudaEvent event) {
    this.event = event;
  }

  @Override
  public String toString() {
    return "record " + event;
  }
}
