// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 the cuda-graph authors
package cuda.graph.simulator.internal;

import cuda.graph.spi.CuGraphNode;
import java.util.List;

/** A node of a simulated graph: an op and the nodes it depends on, in creation order. */
final class Node implements HandleTable.Handled {

  CuGraphNode handle;
  final SimGraph graph;
  final int index;
  final Op op;
  final List<Node> dependencies;

  Node(SimGraph graph, int index, Op op, List<Node> dependencies) {
    this.handle = new CuGraphNode(0);
    this.graph = graph;
    this.index = index;
    this.op = op;
    this.dependencies = List.copyOf(dependencies);
  }

  @Override
  public CuGraphNode handle() {
    return handle;
  }
}
