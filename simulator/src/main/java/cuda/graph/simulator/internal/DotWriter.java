package cuda.graph.simulator.internal;

/** Renders a graph as Graphviz DOT, in the shape of the driver's {@code cuGraphDebugDotPrint}. */
final class DotWriter {

  private DotWriter() {}

  static String render(SimGraph graph) {
    String id = "graph_" + Long.toHexString(graph.handle.address());
    StringBuilder dot = new StringBuilder();
    dot.append("digraph dot {\n");
    dot.append("subgraph cluster_").append(id).append(" {\n");
    dot.append("label=\"").append(id).append("\" graph[style=\"dashed\"];\n");
    for (Node node : graph.nodes) {
      dot.append('"')
          .append(id)
          .append("_node_")
          .append(node.index)
          .append("\"[style=\"solid\" shape=\"rectangle\" label=\"")
          .append(node.op.type())
          .append("\\n")
          .append(escape(node.op.describe()))
          .append("\"];\n");
    }
    for (Node node : graph.nodes) {
      for (Node dependency : node.dependencies) {
        dot.append('"')
            .append(id)
            .append("_node_")
            .append(dependency.index)
            .append("\" -> \"")
            .append(id)
            .append("_node_")
            .append(node.index)
            .append("\";\n");
      }
    }
    dot.append("}\n}\n");
    return dot.toString();
  }

  private static String escape(String text) {
    return text.replace("\\", "\\\\").replace("\"", "\\\"");
  }
}
