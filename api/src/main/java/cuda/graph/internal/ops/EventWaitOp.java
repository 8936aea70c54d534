// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 the cuda-graph authors
package cuda.graph.internal.ops;

import cuda.graph.CudaEvent;
import cuda.graph.DeviceOp;
import org.jspecify.annotations.Nullable;

/** Makes the executing stream wait for an event. */
public final class EventWaitOp extends OnceGuard implements DeviceOp<@Nullable Void> {

  public final CudaEvent event;

  public EventWaitOp(CudaEvent event) {
    this.event = event;
  }

  @Override
  public String toString() {
    return "wait for " + event;
  }
}
