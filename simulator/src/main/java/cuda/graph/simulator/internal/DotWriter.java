package cuda.graph.simulator.internal;

import java.util.List;

/**
 * Renders a graph as Graphviz DOT, in the shape of the driver's {@code cuGraphDebugDotPrint}. The
 * bodies of a conditional node are nested clusters labelled with the node's kind, the body's index
 * and the handle, and reached from the node by dashed edges.
 */
final class DotWriter {

  private DotWriter() {}

  static String render(SimGraph graph) {
    StringBuilder dot = new StringBuilder();
    dot.append("digraph dot {\n");
    cluster(dot, graph, id(graph), "dashed");
    dot.append("}\n");
    return dot.toString();
  }

  private static void cluster(StringBuilder dot, SimGraph graph, String label, String style) {
    String id = id(graph);
    dot.append("subgraph cluster_").append(id).append(" {\n");
    dot.append("label=\"")
        .append(escape(label))
        .append("\" graph[style=\"")
        .append(style)
        .append("\"];\n");
    if (graph.nodes.isEmpty() && graph.owner != null) {
      // Graphviz does not draw an empty cluster; an empty body is still worth seeing.
      dot.append('"').append(id).append("_empty\"[shape=\"plaintext\" label=\"empty body\"];\n");
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
      }
    }
    for (Node node : graph.nodes) {
      for (Node dependency : node.dependencies) {
        edge(dot, nodeId(dependency), nodeId(node), "");
      }
    }
    dot.append("}\n");
  }

  private static void bodies(StringBuilder dot, Node node, Op.Conditional conditional) {
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

  private static String id(SimGraph graph) {
    return "graph_" + Long.toHexString(graph.handle.address());
  }

  private static String nodeId(Node node) {
    return id(node.graph) + "_node_" + node.index;
  }

  private static String escape(String text) {
    return text.replace("\\", "\\\\").replace("\"", "\\\"");
  }
}
