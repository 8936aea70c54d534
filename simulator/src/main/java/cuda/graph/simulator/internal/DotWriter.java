// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 the cuda-graph authors
package cuda.graph.simulator.internal;

import java.util.IdentityHashMap;
import java.util.List;
import java.util.Map;

/**
 * Renders a graph as Graphviz DOT, in the shape of the driver's {@code cuGraphDebugDotPrint}. The
 * bodies of a conditional node are nested clusters labelled with the node's kind, the body's index
 * and the handle, and reached from the node by dashed edges; the child graph of a child-graph node
 * is a nested cluster too, named after the node (the clone has no handle of its own).
 */
final class DotWriter {

  /** The id of each graph drawn that has no handle of its own: a child-graph node's clone. */
  private final Map<SimGraph, String> childIds = new IdentityHashMap<>();

  private DotWriter() {}

  static String render(SimGraph graph) {
    StringBuilder dot = new StringBuilder();
    dot.append("digraph dot {\n");
    DotWriter writer = new DotWriter();
    writer.cluster(dot, graph, writer.id(graph), "dashed");
    dot.append("}\n");
    return dot.toString();
  }

  private void cluster(StringBuilder dot, SimGraph graph, String label, String style) {
    String id = id(graph);
    dot.append("subgraph cluster_").append(id).append(" {\n");
    dot.append("label=\"")
        .append(escape(label))
        .append("\" graph[style=\"")
        .append(style)
        .append("\"];\n");
    if (graph.nodes.isEmpty() && (graph.owner != null || childIds.containsKey(graph))) {
      // Graphviz does not draw an empty cluster; an empty body or child is still worth seeing.
      dot.append('"')
          .append(id)
          .append("_empty\"[shape=\"plaintext\" label=\"")
          .append(graph.owner != null ? "empty body" : "empty graph")
          .append("\"];\n");
    }
    for (Node node : graph.nodes) {
      dot.append('"')
          .append(nodeId(node))
          .append("\"[style=\"solid\" shape=\"rectangle\" label=\"")
          .append(node.op.type())
          .append("\\n")
          .append(escape(node.op.describe()))
          .append("\"];\n");
      if (node.op instanceof Op.Conditional conditional) {
        bodies(dot, node, conditional);
      } else if (node.op instanceof Op.ChildGraph child) {
        child(dot, node, child);
      }
    }
    for (Node node : graph.nodes) {
      for (Node dependency : node.dependencies) {
        edge(dot, nodeId(dependency), nodeId(node), "");
      }
    }
    dot.append("}\n");
  }

  private void child(StringBuilder dot, Node node, Op.ChildGraph child) {
    SimGraph clone = child.graph();
    childIds.put(clone, nodeId(node) + "_child");
    cluster(dot, clone, "child graph of " + node.handle, "dotted");
    if (clone.nodes.isEmpty()) {
      edge(dot, nodeId(node), id(clone) + "_empty", "[style=\"dashed\"]");
    }
    for (Node first : clone.nodes) {
      if (first.dependencies.isEmpty()) {
        edge(dot, nodeId(node), nodeId(first), "[style=\"dashed\"]");
      }
    }
  }

  private void bodies(StringBuilder dot, Node node, Op.Conditional conditional) {
    List<SimGraph> bodies = conditional.bodies();
    for (int b = 0; b < bodies.size(); b++) {
      SimGraph body = bodies.get(b);
      cluster(
          dot,
          body,
          conditional.kind() + " body " + b + " of " + conditional.condition(),
          "dotted");
      if (body.nodes.isEmpty()) {
        edge(dot, nodeId(node), id(body) + "_empty", "[style=\"dashed\"]");
      }
      for (Node first : body.nodes) {
        if (first.dependencies.isEmpty()) {
          edge(dot, nodeId(node), nodeId(first), "[style=\"dashed\"]");
        }
      }
    }
  }

  private static void edge(StringBuilder dot, String from, String to, String attributes) {
    dot.append('"').append(from).append("\" -> \"").append(to).append('"');
    dot.append(attributes).append(";\n");
  }

  private String id(SimGraph graph) {
    String child = childIds.get(graph);
    return child != null ? child : "graph_" + Long.toHexString(graph.handle.address());
  }

  private String nodeId(Node node) {
    return id(node.graph) + "_node_" + node.index;
  }

  private static String escape(String text) {
    return text.replace("\\", "\\\\").replace("\"", "\\\"");
  }
}
