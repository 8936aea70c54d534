// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 the cuda-graph authors
package cuda.graph.nccl.internal.simulated;

import cuda.graph.Kernel;
import cuda.graph.KernelImage;
import cuda.graph.KernelParam;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;

/**
 * The kernels that stand for NCCL's on the simulator: one per group size, whose arguments are, for
 * each collective of the group, its send and receive buffers, NCCL's count, the packed kind, type
 * and op, and the root or peer, then the rank and the id of the communicator's clique. The device
 * code is empty (the simulator runs the Java reference; the PTX only declares the parameters).
 *
 * <p>The kernels are shared by every communicator, and a launch finds its clique by the id it
 * passes: a kernel loads as a module on each device it runs on, which stays loaded until the
 * platform closes (the public API unloads no image earlier), so kernels made per communicator would
 * leave a module per device behind every {@code Nccl.open}.
 */
final class SimulatedKernels {

  private static final int PER_COLLECTIVE = 5;

  private final Map<Integer, Kernel> bySize = new ConcurrentHashMap<>();
  private final Map<Long, SimulatedClique> cliques = new ConcurrentHashMap<>();
  private final AtomicLong nextId = new AtomicLong();

  static int firstArgument(int collective) {
    return collective * PER_COLLECTIVE;
  }

  static int rankArgument(int groupSize) {
    return groupSize * PER_COLLECTIVE;
  }

  static int cliqueArgument(int groupSize) {
    return rankArgument(groupSize) + 1;
  }

  /** {@return the kernel for groups of {@code groupSize} collectives} */
  Kernel kernel(int groupSize) {
    return bySize.computeIfAbsent(groupSize, this::make);
  }

  /**
   * {@return {@code clique}'s registration, which its ranks' launches pass and which each rank
   * leaves once when its communicator is destroyed}
   */
  Membership register(SimulatedClique clique) {
    long id = nextId.incrementAndGet();
    cliques.put(id, clique);
    return new Membership(id, clique.size());
  }

  /** {@return how many cliques some rank has not left yet} */
  int liveCliques() {
    return cliques.size();
  }

  /** A clique's id and the ranks that have not left it: the last to leave drops it. */
  final class Membership {
    private final long id;
    private final AtomicInteger ranks;

    private Membership(long id, int ranks) {
      this.id = id;
      this.ranks = new AtomicInteger(ranks);
    }

    long id() {
      return id;
    }

    /** One rank's communicator was destroyed; called once per rank. */
    void leave() {
      if (ranks.decrementAndGet() == 0) {
        cliques.remove(id);
      }
    }
  }

  private SimulatedClique clique(long id) {
    SimulatedClique clique = cliques.get(id);
    if (clique == null) {
      // The communicator's uses keep it alive while any launch or graph of it exists.
      throw new IllegalStateException(
          "simulated NCCL: a collective ran for a communicator that was already destroyed");
    }
    return clique;
  }

  private Kernel make(int groupSize) {
    String name = "cuda_graph_simulated_nccl_group_" + groupSize;
    StringBuilder ptx =
        new StringBuilder(".version 8.0\n.target sm_90\n.address_size 64\n\n.visible .entry ")
            .append(name)
            .append("(\n");
    List<KernelParam> params = new ArrayList<>();
    for (int i = 0; i < groupSize; i++) {
      ptx.append("  .param .u64 send").append(i).append(",\n");
      ptx.append("  .param .u64 recv").append(i).append(",\n");
      ptx.append("  .param .u64 count").append(i).append(",\n");
      ptx.append("  .param .u32 packed").append(i).append(",\n");
      ptx.append("  .param .u32 peer").append(i).append(",\n");
      params.addAll(
          List.of(
              KernelParam.POINTER,
              KernelParam.POINTER,
              KernelParam.I64,
              KernelParam.I32,
              KernelParam.I32));
    }
    ptx.append("  .param .u32 rank,\n  .param .u64 clique\n)\n{\n  ret;\n}\n");
    params.add(KernelParam.I32);
    params.add(KernelParam.I64);
    return KernelImage.ptx(ptx.toString())
        .withReference(
            name, call -> clique(call.i64(cliqueArgument(groupSize))).execute(call, groupSize))
        .kernel(name, params.toArray(KernelParam[]::new));
  }
}
