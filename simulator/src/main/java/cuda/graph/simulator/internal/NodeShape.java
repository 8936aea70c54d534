// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 the cuda-graph authors
package cuda.graph.simulator.internal;

import cuda.graph.spi.GraphNodeType;
import java.util.ArrayList;
import java.util.List;

/**
 * One node of an instantiated graph as {@code cuGraphExecUpdate} compares it: its type, the indices
 * of the nodes it depends on and, for a conditional node, the shapes of its bodies (for a
 * child-graph node, the one shape of its child graph).
 */
record NodeShape(GraphNodeType type, int[] dependencies, List<List<NodeShape>> bodies) {

  /** {@return the shape of every node of {@code graph}, bodies included, as it is now} */
  static List<NodeShape> of(SimGraph graph) {
    List<NodeShape> shape = new ArrayList<>();
    for (Node node : graph.nodes) {
      List<List<NodeShape>> bodies = new ArrayList<>();
      if (node.op instanceof Op.Conditional conditional) {
        for (SimGraph body : conditional.bodies()) {
          bodies.add(of(body));
        }
      } else if (node.op instanceof Op.ChildGraph child) {
        bodies.add(of(child.graph()));
      }
      shape.add(new NodeShape(node.op.type(), dependencyIndices(node), List.copyOf(bodies)));
    }
    return List.copyOf(shape);
  }

  static int[] dependencyIndices(Node node) {
    return node.dependencies.stream().mapToInt(d -> d.index).toArray();
  }
}
