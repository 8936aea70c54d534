// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 the cuda-graph authors
package cuda.graph.simulator.internal;

import static cuda.graph.simulator.internal.SimState.invalid;

import cuda.graph.spi.CuGraph;
import cuda.graph.spi.CuGraphNode;
import cuda.graph.spi.DriverCall;
import cuda.graph.spi.GraphNodeType;
import java.util.ArrayList;
import java.util.EnumSet;
import java.util.List;
import java.util.Set;

/**
 * Child-graph nodes ({@code cuGraphAddChildGraphNode}): the node runs a clone of the graph it was
 * given, made during the call, so the caller keeps (and destroys) its graph and later changes to it
 * do not reach the node.
 */
final class ChildGraphCalls {

  /**
   * The node types a child graph may not hold: "If childGraph contains allocation nodes, free
   * nodes, or conditional nodes, this call will return an error" ({@code
   * cuGraphAddChildGraphNode}).
   */
  static final Set<GraphNodeType> REFUSED =
      EnumSet.of(GraphNodeType.MEM_ALLOC, GraphNodeType.MEM_FREE, GraphNodeType.CONDITIONAL);

  private final SimState state;

  ChildGraphCalls(SimState state) {
    this.state = state;
  }

  CuGraphNode add(CuGraph graphHandle, List<CuGraphNode> dependencies, CuGraph childHandle) {
    DriverCall call = DriverCall.GRAPH_ADD_CHILD_GRAPH_NODE;
    SimGraph graph = state.resolve(graphHandle, SimGraph.class, call);
    SimGraph child = state.resolve(childHandle, SimGraph.class, call);
    if (child == graph) {
      throw invalid(call, graphHandle + " cannot be a child graph of itself");
    }
    if (child.context != graph.context) {
      throw invalid(
          call, "child graph " + childHandle + " belongs to another context than " + graphHandle);
    }
    List<Node> roots = new ArrayList<>();
    for (CuGraphNode h : dependencies) {
      Node dependency = state.resolve(h, Node.class, call);
      if (dependency.graph != graph) {
        throw invalid(call, "dependency " + h + " is not a node of " + graphHandle);
      }
      roots.add(dependency);
    }
    Node node = graph.add(new Op.ChildGraph(cloneOf(child, call)), roots);
    node.handle = new CuGraphNode(state.handles.register(node));
    return node.handle;
  }

  /**
   * {@return a clone of {@code child}, as a child-graph node holds it}: its nodes and edges, with
   * ops that nothing changes afterwards; never registered, so it has no handle
   *
   * @throws cuda.graph.spi.CudaDriverException with {@code CUDA_ERROR_INVALID_VALUE} when the child
   *     holds a node a child graph may not hold ({@link #REFUSED})
   */
  static SimGraph cloneOf(SimGraph child, DriverCall call) {
    SimGraph clone = new SimGraph(child.context);
    for (Node node : child.nodes) {
      GraphNodeType type = node.op.type();
      if (REFUSED.contains(type)) {
        throw invalid(
            call,
            "child graph "
                + child.handle
                + " holds a "
                + type
                + " node ("
                + node.op.describe()
                + "); a child graph may hold no allocation, free or conditional node");
      }
      List<Node> dependencies = new ArrayList<>();
      for (Node d : node.dependencies) {
        dependencies.add(clone.nodes.get(d.index));
      }
      // Every op of a child is immutable (a nested child graph is itself a clone), so it is shared.
      clone.add(node.op, dependencies);
    }
    return clone;
  }
}
