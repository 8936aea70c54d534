// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 the cuda-graph authors
package cuda.graph.simulator.internal;

import java.util.List;

/** An op queued on a stream, with the completions it must wait for besides stream order. */
final class Command {

  final SimStream stream;
  final Op op;
  final List<Completion> prerequisites;
  final Completion done = new Completion();

  Command(SimStream stream, Op op, List<Completion> prerequisites) {
    this.stream = stream;
    this.op = op;
    this.prerequisites = prerequisites;
  }

  boolean ready() {
    for (Completion c : prerequisites) {
      if (!c.isDone()) {
        return false;
      }
    }
    return true;
  }

  @Override
  public String toString() {
    return op.describe() + " on " + stream;
  }
}
