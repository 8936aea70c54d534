// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 the cuda-graph authors
package cuda.graph.simulator.internal;

import java.util.ArrayList;
import java.util.List;

/**
 * The driver's rule for a memset node switched off in an exec ({@code cuGraphNodeSetEnabled}),
 * measured on an H100 with driver 580 (issue 36): switched off, a memset node stops ordering the
 * nodes around it, where a switched-off kernel or copy node still orders its dependents. With a
 * copy or memset node before it and a kernel or copy node after it, the node after ran before the
 * node before it had finished in 10 to 19 of 20 launches (benchmarks/probes/node_changes.c); a
 * kernel before it or a memset after it stayed ordered there, and a fuzz of 10,000 random changes
 * found 21 wrong replays, each with a memset switched off, none with only kernels or copies off.
 * The model is stricter than what was measured: every edge through such a node is lost, and a
 * launch runs its top-level ops in an adversarial order the lost edges allow (of the nodes ready at
 * each step, the one created last first), so work that relies on the order across it comes out
 * wrong here whenever it might on a GPU.
 */
final class DisabledMemsets {

  private DisabledMemsets() {}

  /** {@return {@code ops}, or, when a memset of them is switched off, the order a launch runs} */
  static List<Op> runOrder(SimGraph source, List<Op> ops) {
    boolean any = false;
    for (Op op : ops) {
      if (isOffMemset(op)) {
        any = true;
        break;
      }
    }
    if (!any || source.nodes.size() != ops.size()) {
      return ops;
    }
    int n = ops.size();
    int[] waiting = new int[n];
    List<List<Integer>> dependents = new ArrayList<>(n);
    for (int i = 0; i < n; i++) {
      dependents.add(new ArrayList<>());
    }
    for (int i = 0; i < n; i++) {
      if (isOffMemset(ops.get(i))) {
        continue; // its edges are lost, in and out
      }
      for (Node d : source.nodes.get(i).dependencies) {
        if (!isOffMemset(ops.get(d.index))) {
          waiting[i]++;
          dependents.get(d.index).add(i);
        }
      }
    }
    List<Op> order = new ArrayList<>(n);
    boolean[] done = new boolean[n];
    for (int step = 0; step < n; step++) {
      int next = pick(ops, done, waiting);
      done[next] = true;
      order.add(ops.get(next));
      for (int d : dependents.get(next)) {
        waiting[d]--;
      }
    }
    return List.copyOf(order);
  }

  /**
   * {@return the next op to run of those ready}: an allocation first and a free last, as their
   * memory outlives the reordering (only the nodes' work races, not the graph's memory), else the
   * one created last
   */
  private static int pick(List<Op> ops, boolean[] done, int[] waiting) {
    int free = -1;
    int last = -1;
    for (int i = 0; i < ops.size(); i++) {
      if (done[i] || waiting[i] != 0) {
        continue;
      }
      Op op = ops.get(i);
      if (op instanceof Op.MemAlloc) {
        return i;
      }
      if (op instanceof Op.MemFree) {
        free = free < 0 ? i : free;
      } else {
        last = i;
      }
    }
    return last >= 0 ? last : free;
  }

  private static boolean isOffMemset(Op op) {
    return op instanceof Op.Disabled d && d.op() instanceof Op.Memset;
  }
}
