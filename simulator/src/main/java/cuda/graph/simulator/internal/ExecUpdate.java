// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 the cuda-graph authors
package cuda.graph.simulator.internal;

import cuda.graph.spi.GraphExecUpdateException;
import cuda.graph.spi.GraphNodeType;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import org.jspecify.annotations.Nullable;

/**
 * {@code cuGraphExecUpdate_v2}: pairs the update graph's nodes with the exec's by position, level
 * by level (conditional bodies included), and computes the exec's new ops without changing
 * anything, so that a failed update leaves the exec as it was.
 */
final class ExecUpdate {

  private ExecUpdate() {}

  /**
   * {@return the exec's ops with the update graph's parameters}
   *
   * @param shape the exec's shape at instantiation
   * @param current the exec's ops now
   * @param graph the update graph, or one of its bodies
   * @param conditional the update graph's conditional node whose body {@code graph} is, or null at
   *     the top level
   * @throws GraphExecUpdateException if the update graph does not fit the exec
   */
  static List<Op> apply(
      List<NodeShape> shape, List<Op> current, SimGraph graph, @Nullable Node conditional) {
    if (graph.nodes.size() != shape.size()) {
      // At the top level the driver names no node; in a body, the conditional node is named.
      throw failure(GraphExecUpdateException.TOPOLOGY_CHANGED, conditional);
    }
    List<Op> updated = new ArrayList<>(current);
    for (Node node : graph.nodes) {
      int i = node.index;
      NodeShape expected = shape.get(i);
      GraphNodeType type = node.op.type();
      if (type != expected.type()) {
        throw failure(GraphExecUpdateException.NODE_TYPE_CHANGED, node);
      }
      if (!Arrays.equals(NodeShape.dependencyIndices(node), expected.dependencies())) {
        throw failure(GraphExecUpdateException.TOPOLOGY_CHANGED, node);
      }
      Op now = current.get(i);
      // Enable state is unaffected by a whole-graph update (CUDA Programming Guide, "Individual
      // node enable"): a disabled node takes the new parameters and stays disabled.
      boolean disabled = now instanceof Op.Disabled;
      Op instantiated = now instanceof Op.Disabled d ? d.op() : now;
      Op replacement = replacement(expected, instantiated, node);
      updated.set(i, disabled ? new Op.Disabled(replacement) : replacement);
    }
    return List.copyOf(updated);
  }

  private static Op replacement(NodeShape expected, Op instantiated, Node node) {
    return switch (node.op) {
      case Op.Kernel k -> {
        if (((Op.Kernel) instantiated).function().module.context != k.function().module.context) {
          throw failure(GraphExecUpdateException.PARAMETERS_CHANGED, node);
        }
        yield k;
      }
      case Op.HostToDevice c -> sameCopyKind(instantiated, c, node);
      case Op.DeviceToHost c -> sameCopyKind(instantiated, c, node);
      case Op.DeviceToDevice c -> sameCopyKind(instantiated, c, node);
      // Memory nodes keep the exec's own allocations: their addresses are fixed at instantiation.
      case Op.MemAlloc a -> instantiated;
      case Op.MemFree f -> instantiated;
      case Op.Conditional c -> conditional(expected, (Op.ConditionalRun) instantiated, c, node);
      case Op.ChildGraph c ->
          child(expected.bodies().getFirst(), (Op.ChildGraph) instantiated, c, node);
      default -> node.op;
    };
  }

  private static Op sameCopyKind(Op instantiated, Op copy, Node node) {
    if (instantiated.getClass() != copy.getClass()) {
      throw failure(GraphExecUpdateException.PARAMETERS_CHANGED, node);
    }
    return copy;
  }

  /**
   * A conditional node keeps its kind and its number of bodies; the bodies are updated recursively.
   * The handle's default value and flags come from the update graph ("Conditional handle flags and
   * default values are updated as part of the graph update"); the exec's current condition value
   * stays with the node.
   */
  private static Op conditional(
      NodeShape expected, Op.ConditionalRun run, Op.Conditional update, Node node) {
    if (update.bodies().size() != expected.bodies().size()) {
      throw failure(GraphExecUpdateException.TOPOLOGY_CHANGED, node);
    }
    if (update.kind() != run.kind()) {
      // The conditional type is a parameter of a node whose type (CONDITIONAL) is unchanged, and
      // CUDA does not allow changing a conditional node's parameters.
      throw failure(GraphExecUpdateException.PARAMETERS_CHANGED, node);
    }
    List<List<Op>> bodies = new ArrayList<>();
    for (int b = 0; b < update.bodies().size(); b++) {
      bodies.add(
          apply(expected.bodies().get(b), run.bodies().get(b), update.bodies().get(b), node));
    }
    SimCondition condition = update.condition();
    return new Op.ConditionalRun(
        condition.value,
        condition.defaultValue,
        condition.assignDefault,
        run.kind(),
        List.copyOf(bodies),
        run.value());
  }

  /**
   * A child-graph node takes the update's child when it has the instantiated child's topology and
   * each of its nodes could replace the one it pairs with ("The update is recursive"); the update's
   * child is a clone nothing changes, so the exec shares it.
   */
  static Op.ChildGraph child(
      List<NodeShape> expected, Op.ChildGraph instantiated, Op.ChildGraph update, Node node) {
    try {
      apply(expected, instantiated.ops(), update.graph(), node);
    } catch (GraphExecUpdateException e) {
      // The clone's nodes have no handles: the child-graph node is the one to name.
      throw failure(e.updateResult(), node);
    }
    return update;
  }

  private static GraphExecUpdateException failure(int result, @Nullable Node node) {
    return new GraphExecUpdateException(result, node == null ? null : node.handle);
  }
}
