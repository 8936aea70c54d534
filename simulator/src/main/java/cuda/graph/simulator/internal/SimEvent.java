// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 the cuda-graph authors
package cuda.graph.simulator.internal;

import cuda.graph.spi.CuEvent;
import java.util.Set;
import org.jspecify.annotations.Nullable;

/**
 * An event: the work it stands for since its last record ({@link #recorded}, null if never
 * recorded), or, if last recorded in a capture, that capture and the node set it captured.
 */
final class SimEvent implements HandleTable.Handled {

  final CuEvent handle;
  final SimContext context;
  final int flags;
  @Nullable Completion recorded;
  @Nullable CaptureSequence capture;
  Set<Node> capturedNodes = Set.of();

  SimEvent(CuEvent handle, SimContext context, int flags) {
    this.handle = handle;
    this.context = context;
    this.flags = flags;
  }

  boolean timingDisabled() {
    return (flags & cuda.graph.spi.EventFlags.DISABLE_TIMING) != 0;
  }

  @Override
  public CuEvent handle() {
    return handle;
  }
}
