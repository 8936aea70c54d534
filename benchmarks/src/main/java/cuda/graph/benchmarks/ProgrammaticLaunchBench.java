// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 the cuda-graph authors
package cuda.graph.benchmarks;

import cuda.graph.CudaGraph;
import cuda.graph.CudaPlatform;
import cuda.graph.Device;
import cuda.graph.DeviceBuffer;
import cuda.graph.ElementType;
import cuda.graph.GraphNode;
import cuda.graph.Kernel;
import cuda.graph.LaunchConfig;
import cuda.graph.Stream;
import cuda.graph.conformance.kernels.ProgrammaticKernels;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import org.jspecify.annotations.Nullable;

/**
 * The Java side of {@code anchors/pdl}: a chain of n dependent one-thread kernels on one counter,
 * captured and replayed with a synchronize per replay, as plain launches and as programmatic
 * dependent launches (the kernel waiting then triggering, and triggering then waiting). Prints
 * microseconds per kernel as min, median and max over rounds, and checks the counter.
 */
public final class ProgrammaticLaunchBench {

  private ProgrammaticLaunchBench() {}

  public static void main(String[] args) {
    int rounds = args.length > 0 ? Integer.parseInt(args[0]) : 5;
    CudaPlatform platform = CudaPlatform.system();
    Device device = platform.defaultDevice();
    System.out.println("# cuda-graph " + platform.providerId() + " on " + device.name());
    SimulatorTimes.note(platform);
    System.out.println("impl,n,us_min,us_median,us_max");
    try (Stream stream = device.newStream();
        DeviceBuffer<Integer> counter = DeviceBuffer.zeros(ElementType.I32, 1).syncOn(stream)) {
      ProgrammaticKernels.load(device);
      long expected = 0;
      for (int n : new int[] {100, 1000}) {
        expected +=
            run(
                "java-plain",
                ProgrammaticKernels.INC_AFTER_WAIT,
                false,
                n,
                rounds,
                counter,
                stream);
        expected +=
            run(
                "java-pdl_wait_then_trigger",
                ProgrammaticKernels.INC_AFTER_WAIT,
                true,
                n,
                rounds,
                counter,
                stream);
        expected +=
            run(
                "java-pdl_trigger_then_wait",
                ProgrammaticKernels.INC_TRIGGER_FIRST,
                true,
                n,
                rounds,
                counter,
                stream);
      }
      int got = counter.toIntArray().syncOn(stream)[0];
      System.out.println(
          "counter "
              + got
              + " expected "
              + expected
              + (got == (int) expected ? " OK" : " MISMATCH"));
    }
  }

  /** {@return the increments it made}, after printing one row */
  private static long run(
      String name,
      Kernel kernel,
      boolean programmatic,
      int n,
      int rounds,
      DeviceBuffer<Integer> counter,
      Stream stream) {
    List<GraphNode<?>> chain = new ArrayList<>(n);
    for (int i = 0; i < n; i++) {
      LaunchConfig one = LaunchConfig.of(1, 1);
      chain.add(
          kernel.launch(
              programmatic && i > 0 ? one.withProgrammaticDependentLaunch() : one, counter));
    }
    int reps = n >= 1000 ? 50 : 500;
    double[] perKernel = new double[rounds];
    long increments = 0;
    try (CudaGraph<@Nullable Void> graph = CudaGraph.capture(stream, GraphNode.sequence(chain))) {
      for (int w = 0; w < 3; w++) {
        graph.launch().syncOn(stream);
      }
      increments += 3L * n;
      for (int r = 0; r < rounds; r++) {
        long t0 = System.nanoTime();
        for (int rep = 0; rep < reps; rep++) {
          graph.launch().syncOn(stream);
        }
        perKernel[r] = (System.nanoTime() - t0) / 1e3 / reps / n;
        increments += (long) reps * n;
      }
    }
    Arrays.sort(perKernel);
    System.out.printf(
        Locale.ROOT,
        "%s,%d,%.3f,%.3f,%.3f%n",
        name,
        n,
        perKernel[0],
        perKernel[rounds / 2],
        perKernel[rounds - 1]);
    return increments;
  }
}
