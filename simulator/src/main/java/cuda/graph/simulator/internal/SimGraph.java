// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 the cuda-graph authors
package cuda.graph.simulator.internal;

import cuda.graph.spi.CuGraph;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import org.jspecify.annotations.Nullable;

/**
 * A graph: nodes in creation order (which is a topological order). A body graph of a conditional
 * node is owned by that node ({@link #owner}) and goes with the graph holding the node.
 */
final class SimGraph implements HandleTable.Handled {

  CuGraph handle = new CuGraph(0);
  final SimContext context;
  final List<Node> nodes = new ArrayList<>();

  /** Graph allocations freed by a free node of this graph. */
  final Set<Allocation> freedInGraph = new HashSet<>();

  /** The capture building this graph, while it is being captured. */
  @Nullable CaptureSequence capturing;

  int liveExecs;

  /** The conditional node whose body this graph is; null for a graph the caller owns. */
  @Nullable Node owner;

  /** The conditional handles created for this graph, which live as long as it does. */
  final List<SimCondition> conditions = new ArrayList<>();

  SimGraph(SimContext context) {
    this.context = context;
  }

  Node add(Op op, List<Node> dependencies) {
    Node node = new Node(this, nodes.size(), op, dependencies);
    nodes.add(node);
    return node;
  }

  boolean hasMemoryNodes() {
    for (Node n : nodes) {
      if (n.op instanceof Op.MemAlloc || n.op instanceof Op.MemFree) {
        return true;
      }
    }
    return false;
  }

  @Override
  public CuGraph handle() {
    return handle;
  }
}
