// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 the cuda-graph authors
package cuda.graph.simulator.internal;

import cuda.graph.spi.CaptureMode;
import cuda.graph.spi.CaptureStatus;
import java.util.LinkedHashSet;
import java.util.Set;

/**
 * One stream capture: begun on its origin stream by one thread in one mode, joined by the streams
 * that waited on its events, building one graph (a new one, or one that existed before).
 */
final class CaptureSequence {

  final long id;
  final SimStream origin;
  final CaptureMode mode;
  final Thread thread;
  final SimGraph graph;

  /**
   * The capture fills a graph that existed before ({@code cuStreamBeginCaptureToGraph}): ending it
   * hands out no new graph, and failing it removes only the nodes from {@link #firstNode} on.
   */
  final boolean intoExistingGraph;

  /** The index of the first node this capture added to {@link #graph}. */
  final int firstNode;

  final Set<SimStream> members = new LinkedHashSet<>();
  CaptureStatus status = CaptureStatus.ACTIVE;
  boolean ended;

  CaptureSequence(
      long id,
      SimStream origin,
      CaptureMode mode,
      Thread thread,
      SimGraph graph,
      boolean intoExistingGraph) {
    this.id = id;
    this.origin = origin;
    this.mode = mode;
    this.thread = thread;
    this.graph = graph;
    this.intoExistingGraph = intoExistingGraph;
    this.firstNode = graph.nodes.size();
    members.add(origin);
  }

  void invalidate() {
    if (!ended) {
      status = CaptureStatus.INVALIDATED;
    }
  }

  @Override
  public String toString() {
    return "capture " + id + " (" + mode + ") on " + origin;
  }
}
