// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 the cuda-graph authors
package cuda.graph.simulator.internal;

import static cuda.graph.simulator.internal.SimState.invalid;

import cuda.graph.spi.ConditionalHandle;
import cuda.graph.spi.ConditionalNode;
import cuda.graph.spi.ConditionalType;
import cuda.graph.spi.CuGraph;
import cuda.graph.spi.CuGraphNode;
import cuda.graph.spi.DriverCall;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * Conditional handles and conditional nodes (CUDA 12.3; two-body IF and SWITCH since 12.8): a
 * handle belongs to the graph it was created for, a node owns its body graphs.
 */
final class ConditionalCalls {

  private final SimState state;

  /** Every handle this simulator created, by value; a destroyed graph's handles stay, marked. */
  private final Map<Long, SimCondition> conditions = new HashMap<>();

  ConditionalCalls(SimState state) {
    this.state = state;
  }

  ConditionalHandle createHandle(CuGraph graphHandle, int defaultLaunchValue, int flags) {
    DriverCall call = DriverCall.GRAPH_CONDITIONAL_HANDLE_CREATE;
    SimContext context = state.currentContext(call);
    SimGraph graph = state.resolve(graphHandle, SimGraph.class, call);
    if (flags != 0 && flags != ConditionalHandle.ASSIGN_DEFAULT) {
      throw invalid(call, "flags are 0 or CU_GRAPH_COND_ASSIGN_DEFAULT (1), got " + flags);
    }
    if (graph.context != context) {
      throw invalid(call, graphHandle + " belongs to another context than the current one");
    }
    SimCondition condition =
        new SimCondition(
            state.handles.newAddress(SimCondition.class),
            graph,
            context,
            defaultLaunchValue,
            flags == ConditionalHandle.ASSIGN_DEFAULT);
    conditions.put(condition.value, condition);
    graph.conditions.add(condition);
    return new ConditionalHandle(condition.value);
  }

  ConditionalNode addNode(
      CuGraph graphHandle,
      List<CuGraphNode> dependencies,
      ConditionalHandle handle,
      ConditionalType type,
      int size) {
    DriverCall call = DriverCall.GRAPH_ADD_NODE;
    SimContext context = state.currentContext(call);
    SimGraph graph = state.resolve(graphHandle, SimGraph.class, call);
    SimCondition condition = condition(handle, call);
    if (condition.graph != graph) {
      throw invalid(
          call,
          condition
              + " was created for "
              + condition.graph.handle
              + ", not for "
              + graphHandle
              + "; a handle can only be used in the graph it was created for");
    }
    if (condition.context != context) {
      throw invalid(call, condition + " was created in another context than the current one");
    }
    if (condition.node != null) {
      throw invalid(
          call,
          condition + " is already the condition of " + condition.node.handle + " (one node)");
    }
    checkSize(type, size, call);
    List<Node> roots = new ArrayList<>();
    for (CuGraphNode h : dependencies) {
      Node dependency = state.resolve(h, Node.class, call);
      if (dependency.graph != graph) {
        throw invalid(call, "dependency " + h + " is not a node of " + graphHandle);
      }
      roots.add(dependency);
    }
    List<SimGraph> bodies = new ArrayList<>();
    for (int i = 0; i < size; i++) {
      SimGraph body = new SimGraph(context);
      body.handle = new CuGraph(state.register(body, context));
      bodies.add(body);
    }
    Node node = graph.add(new Op.Conditional(condition, type, List.copyOf(bodies)), roots);
    node.handle = new CuGraphNode(state.handles.register(node));
    for (SimGraph body : bodies) {
      body.owner = node;
    }
    condition.node = node;
    return new ConditionalNode(node.handle, bodies.stream().map(b -> b.handle).toList());
  }

  private SimCondition condition(ConditionalHandle handle, DriverCall call) {
    SimCondition condition = conditions.get(handle.value());
    if (condition == null) {
      throw invalid(call, handle + " was not created by cuGraphConditionalHandleCreate");
    }
    if (condition.destroyed) {
      throw SimState.undefined(
          call.symbol()
              + " was passed "
              + handle
              + ", whose graph was destroyed; the handle lived only as long as its graph");
    }
    return condition;
  }

  private static void checkSize(ConditionalType type, int size, DriverCall call) {
    boolean valid =
        switch (type) {
          case WHILE -> size == 1;
          case IF -> size == 1 || size == 2;
          case SWITCH -> size >= 1;
        };
    if (!valid) {
      throw invalid(
          call,
          type
              + " conditional nodes have "
              + (type == ConditionalType.WHILE
                  ? "exactly 1 body"
                  : type == ConditionalType.IF ? "1 or 2 bodies" : "at least 1 body")
              + ", not "
              + size);
    }
  }
}
