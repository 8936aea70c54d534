package cuda.graph.simulator.internal;

import cuda.graph.spi.CuGraphExec;
import cuda.graph.spi.GraphNodeType;
import java.util.ArrayList;
import java.util.List;

/**
 * An executable graph: a snapshot of its source graph's ops and shape, independent of the source
 * afterwards. Launches take the ops current at launch time, so an update affects later launches
 * only; each launch is ordered after the previous one.
 */
final class SimExec implements HandleTable.Handled {

  CuGraphExec handle = new CuGraphExec(0);
  final SimContext context;
  final SimGraph source;
  final long flags;
  volatile List<Op> ops;
  final GraphNodeType[] types;
  final int[][] dependencies;

  /** Graph allocations this exec allocates and does not free itself. */
  final List<Allocation> unfreedAllocations = new ArrayList<>();

  final boolean ownsMemoryNodes;
  Completion lastLaunch = Completion.DONE;
  boolean destroyed;

  SimExec(SimContext context, SimGraph source, long flags) {
    this.context = context;
    this.source = source;
    this.flags = flags;
    List<Op> snapshot = new ArrayList<>();
    types = new GraphNodeType[source.nodes.size()];
    dependencies = new int[source.nodes.size()][];
    for (Node n : source.nodes) {
      snapshot.add(n.op);
      types[n.index] = n.op.type();
      dependencies[n.index] = n.dependencies.stream().mapToInt(d -> d.index).toArray();
      if (n.op instanceof Op.MemAlloc alloc && !source.freedInGraph.contains(alloc.allocation())) {
        unfreedAllocations.add(alloc.allocation());
      }
    }
    this.ops = List.copyOf(snapshot);
    this.ownsMemoryNodes = source.hasMemoryNodes();
  }

  @Override
  public CuGraphExec handle() {
    return handle;
  }
}
