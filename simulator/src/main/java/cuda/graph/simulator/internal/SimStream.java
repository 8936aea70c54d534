// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 the cuda-graph authors
package cuda.graph.simulator.internal;

import cuda.graph.spi.CuStream;
import java.util.ArrayDeque;
import java.util.LinkedHashSet;
import java.util.Set;
import org.jspecify.annotations.Nullable;

/**
 * A stream: a FIFO of commands executed in order, and, while capturing, the capture it belongs to
 * and the nodes its next captured operation will depend on.
 */
final class SimStream implements HandleTable.Handled {

  enum Kind {
    USER,
    LEGACY,
    PER_THREAD
  }

  final CuStream handle;
  final SimContext context;
  final Kind kind;

  /** Blocking streams synchronize implicitly with the legacy stream. */
  final boolean blocking;

  final ArrayDeque<Command> queue = new ArrayDeque<>();

  /** Completion of the last command enqueued: what synchronize and query wait for. */
  Completion tail = Completion.DONE;

  boolean workerActive;
  boolean destroyed;

  @Nullable CaptureSequence capture;
  final Set<Node> captureDependencies = new LinkedHashSet<>();

  SimStream(CuStream handle, SimContext context, Kind kind, boolean blocking) {
    this.handle = handle;
    this.context = context;
    this.kind = kind;
    this.blocking = blocking;
  }

  @Override
  public CuStream handle() {
    return handle;
  }

  @Override
  public String toString() {
    return handle.toString();
  }
}
