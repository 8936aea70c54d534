// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 the cuda-graph authors
package cuda.graph.benchmarks;

import cuda.graph.CudaPlatform;
import cuda.graph.DeviceBuffer;
import cuda.graph.ElementType;
import cuda.graph.GraphNode;
import cuda.graph.nccl.CapturedStep;
import cuda.graph.nccl.Communicators;
import cuda.graph.nccl.Nccl;
import cuda.graph.nccl.ReduceOp;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import org.jspecify.annotations.Nullable;

/**
 * All-reduce over every GPU of the machine, eager and captured, beside {@code
 * anchors/nccl_torch.py} (PyTorch's NCCL, same sizes, same protocol): for each size, a sequence of
 * {@code k} in-place fp32 all-reduces per rank is run eagerly ({@code Communicators.run}) and as
 * one captured step per rank ({@code CapturedStep.replay}), several rounds each. Prints
 * microseconds per all-reduce (min, median, max over rounds), the algorithm bandwidth at the median
 * (bytes / time) and the bus bandwidth NCCL's tests report (algorithm bandwidth times 2 (n - 1) /
 * n, 0 for one rank).
 */
public final class NcclBench {

  /** 8 B (latency), 4 KiB, 64 KiB, then 1 MiB to 1 GiB by factors of 4. */
  private static final long[] SIZES = {
    8, 4 << 10, 64 << 10, 1 << 20, 4 << 20, 16 << 20, 64 << 20, 256 << 20, 1L << 30
  };

  private NcclBench() {}

  public static void main(String[] args) {
    int rounds = args.length > 0 ? Integer.parseInt(args[0]) : 5;
    CudaPlatform platform = CudaPlatform.system();
    try (Communicators world = Nccl.open(platform.devices())) {
      int n = world.size();
      System.out.println(
          "# cuda-graph NCCL "
              + Nccl.version(platform)
              + " over "
              + n
              + " x "
              + platform.defaultDevice().name());
      System.out.println("impl,mode,ranks,bytes,us_min,us_median,us_max,algbw_GBps,busbw_GBps");
      for (long bytes : SIZES) {
        long elements = bytes / 4;
        int k = bytes <= 1 << 20 ? 50 : bytes <= 1 << 26 ? 10 : 3;
        List<DeviceBuffer<Float>> buffers =
            world.run(c -> DeviceBuffer.filled(ElementType.F32, elements, 1f));
        // Warm-up: NCCL connects on first use, outside any capture.
        world.run(c -> sequence(c.rank(), buffers, k, world));
        double[] eager = new double[rounds];
        for (int r = 0; r < rounds; r++) {
          long t0 = System.nanoTime();
          world.run(c -> sequence(c.rank(), buffers, k, world));
          eager[r] = (System.nanoTime() - t0) / 1e3 / k;
        }
        double[] graph = new double[rounds];
        try (CapturedStep<@Nullable Void> step =
            world.capture(c -> sequence(c.rank(), buffers, k, world))) {
          step.replay();
          for (int r = 0; r < rounds; r++) {
            long t0 = System.nanoTime();
            step.replay();
            graph[r] = (System.nanoTime() - t0) / 1e3 / k;
          }
        }
        print("eager", n, bytes, eager);
        print("graph", n, bytes, graph);
        world.run(c -> buffers.get(c.rank()).free());
      }
    }
  }

  private static GraphNode<@Nullable Void> sequence(
      int rank, List<DeviceBuffer<Float>> buffers, int k, Communicators world) {
    List<GraphNode<?>> ops = new ArrayList<>(k);
    for (int i = 0; i < k; i++) {
      ops.add(world.rank(rank).allReduce(buffers.get(rank), ReduceOp.SUM));
    }
    return GraphNode.sequence(ops);
  }

  private static void print(String mode, int n, long bytes, double[] us) {
    double[] sorted = us.clone();
    Arrays.sort(sorted);
    double median = sorted[sorted.length / 2];
    double algbw = bytes / (median * 1e-6) / 1e9;
    double busbw = algbw * 2.0 * (n - 1) / n;
    System.out.println(
        String.format(
            Locale.ROOT,
            "cuda-graph,%s,%d,%d,%.2f,%.2f,%.2f,%.2f,%.2f",
            mode,
            n,
            bytes,
            sorted[0],
            median,
            sorted[sorted.length - 1],
            algbw,
            busbw));
  }
}
