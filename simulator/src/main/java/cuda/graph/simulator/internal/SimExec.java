// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 the cuda-graph authors
package cuda.graph.simulator.internal;

import cuda.graph.spi.CuGraphExec;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * An executable graph: a snapshot of its source graph's ops and shape, conditional bodies included,
 * independent of the source afterwards. Launches take the ops current at launch time (an immutable
 * {@link ExecTree}), so an update, whole or per node, affects later launches only; each launch is
 * ordered after the previous one.
 */
final class SimExec implements HandleTable.Handled {

  CuGraphExec handle = new CuGraphExec(0);
  final SimContext context;
  final SimGraph source;
  final long flags;
  volatile List<Op> ops;

  /** The shape at instantiation, which an update graph must have. */
  final List<NodeShape> shape;

  /** Where each node of the source graph, and of its bodies, was at instantiation. */
  final Map<Node, int[]> paths = new HashMap<>();

  /** Graph allocations this exec allocates and does not free itself. */
  final List<Allocation> unfreedAllocations = new ArrayList<>();

  final boolean ownsMemoryNodes;

  /**
   * The graph memory a launch needs: its allocation nodes' sizes, each rounded up as the driver
   * accounts them ({@link GraphMemoryPool#footprint}); fixed at instantiation, as the nodes are.
   */
  final long graphMemoryFootprint;

  Completion lastLaunch = Completion.DONE;
  boolean destroyed;

  SimExec(SimContext context, SimGraph source, long flags) {
    this.context = context;
    this.source = source;
    this.flags = flags;
    this.ops = ExecTree.snapshot(source, paths);
    this.shape = NodeShape.of(source);
    long footprint = 0;
    for (Node n : source.nodes) {
      if (n.op instanceof Op.MemAlloc alloc) {
        footprint += GraphMemoryPool.footprint(alloc.allocation().size);
        if (!source.freedInGraph.contains(alloc.allocation())) {
          unfreedAllocations.add(alloc.allocation());
        }
      }
    }
    this.graphMemoryFootprint = footprint;
    this.ownsMemoryNodes = source.hasMemoryNodes();
  }

  @Override
  public CuGraphExec handle() {
    return handle;
  }
}
