// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 the cuda-graph authors
package cuda.graph.simulator.internal;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.UnaryOperator;

/**
 * An exec's ops: an immutable tree, a list of ops per graph level in which each conditional node
 * holds the lists of its bodies. A node is found by its path: its index in the top level, then for
 * each conditional node on the way a body index and an index in that body. Changes copy the path
 * from the root, so a launch keeps the tree it was given.
 */
final class ExecTree {

  private ExecTree() {}

  /** {@return the ops of {@code graph} as an exec runs them}, recording each node's path. */
  static List<Op> snapshot(SimGraph graph, Map<Node, int[]> paths) {
    return snapshot(graph, new int[0], paths);
  }

  private static List<Op> snapshot(SimGraph graph, int[] prefix, Map<Node, int[]> paths) {
    List<Op> ops = new ArrayList<>();
    for (Node node : graph.nodes) {
      int[] path = extend(prefix, node.index);
      paths.put(node, path);
      ops.add(node.op instanceof Op.Conditional c ? snapshot(c, path, paths) : node.op);
    }
    return List.copyOf(ops);
  }

  private static Op.ConditionalRun snapshot(
      Op.Conditional conditional, int[] path, Map<Node, int[]> paths) {
    List<List<Op>> bodies = new ArrayList<>();
    for (int b = 0; b < conditional.bodies().size(); b++) {
      bodies.add(snapshot(conditional.bodies().get(b), extend(path, b), paths));
    }
    SimCondition condition = conditional.condition();
    // The value starts at the default at instantiation, with or without ASSIGN_DEFAULT.
    return new Op.ConditionalRun(
        condition.value,
        condition.defaultValue,
        condition.assignDefault,
        conditional.kind(),
        List.copyOf(bodies),
        new AtomicInteger(condition.defaultValue));
  }

  private static int[] extend(int[] path, int index) {
    int[] longer = new int[path.length + 1];
    System.arraycopy(path, 0, longer, 0, path.length);
    longer[path.length] = index;
    return longer;
  }

  /** {@return the op at {@code path}} */
  static Op at(List<Op> ops, int[] path) {
    Op op = ops.get(path[0]);
    for (int k = 1; k < path.length; k += 2) {
      op = ((Op.ConditionalRun) op).bodies().get(path[k]).get(path[k + 1]);
    }
    return op;
  }

  /** {@return a copy of {@code ops} in which the op at {@code path} is changed} */
  static List<Op> replace(List<Op> ops, int[] path, UnaryOperator<Op> change) {
    return replace(ops, path, 0, change);
  }

  private static List<Op> replace(List<Op> ops, int[] path, int from, UnaryOperator<Op> change) {
    List<Op> copy = new ArrayList<>(ops);
    int index = path[from];
    if (from == path.length - 1) {
      copy.set(index, change.apply(ops.get(index)));
    } else {
      Op.ConditionalRun run = (Op.ConditionalRun) ops.get(index);
      List<List<Op>> bodies = new ArrayList<>(run.bodies());
      int body = path[from + 1];
      bodies.set(body, replace(bodies.get(body), path, from + 2, change));
      copy.set(index, withBodies(run, List.copyOf(bodies)));
    }
    return List.copyOf(copy);
  }

  static Op.ConditionalRun withBodies(Op.ConditionalRun run, List<List<Op>> bodies) {
    return new Op.ConditionalRun(
        run.handle(), run.defaultValue(), run.assignDefault(), run.kind(), bodies, run.value());
  }

  /**
   * {@return the ops of one level and, in place of each child-graph node, the ops of its child, at
   * any depth}: what a launch runs at that level, where event nodes may lie (a conditional body
   * holds none)
   */
  static List<Op> withChildren(List<Op> ops) {
    List<Op> all = new ArrayList<>(ops.size());
    addWithChildren(ops, all);
    return all;
  }

  private static void addWithChildren(List<Op> ops, List<Op> all) {
    for (Op op : ops) {
      if (op instanceof Op.ChildGraph child) {
        addWithChildren(child.ops(), all);
      } else {
        all.add(op);
      }
    }
  }

  /** {@return the conditional nodes of a tree, at any depth} */
  static List<Op.ConditionalRun> conditionals(List<Op> ops) {
    List<Op.ConditionalRun> found = new ArrayList<>();
    collect(ops, found);
    return found;
  }

  private static void collect(List<Op> ops, List<Op.ConditionalRun> found) {
    for (Op op : ops) {
      if (op instanceof Op.ConditionalRun run) {
        found.add(run);
        for (List<Op> body : run.bodies()) {
          collect(body, found);
        }
      }
    }
  }
}
