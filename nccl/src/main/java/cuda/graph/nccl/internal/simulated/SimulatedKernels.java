package cuda.graph.nccl.internal.simulated;

import cuda.graph.Kernel;
import cuda.graph.KernelImage;
import cuda.graph.KernelParam;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

/**
 * The kernels that stand for NCCL's on the simulator: one per group size, whose arguments are, for
 * each collective of the group, its send and receive buffers, NCCL's count, the packed kind, type
 * and op, and the root or peer, then the rank. The device code is empty (the simulator runs the
 * Java reference; the PTX only declares the parameters).
 */
final class SimulatedKernels {

  private static final int PER_COLLECTIVE = 5;

  private final SimulatedClique clique;
  private final Map<Integer, Kernel> bySize = new ConcurrentHashMap<>();

  SimulatedKernels(SimulatedClique clique) {
    this.clique = clique;
  }

  static int firstArgument(int collective) {
    return collective * PER_COLLECTIVE;
  }

  static int rankArgument(int groupSize) {
    return groupSize * PER_COLLECTIVE;
  }

  /** {@return the kernel for groups of {@code groupSize} collectives} */
  Kernel kernel(int groupSize) {
    return bySize.computeIfAbsent(groupSize, this::make);
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
    ptx.append("  .param .u32 rank\n)\n{\n  ret;\n}\n");
    params.add(KernelParam.I32);
    return KernelImage.ptx(ptx.toString())
        .withReference(name, call -> clique.execute(call, groupSize))
        .kernel(name, params.toArray(KernelParam[]::new));
  }
}
