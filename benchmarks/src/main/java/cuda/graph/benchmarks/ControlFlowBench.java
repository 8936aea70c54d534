// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 the cuda-graph authors
package cuda.graph.benchmarks;

import cuda.graph.CudaGraph;
import cuda.graph.CudaPlatform;
import cuda.graph.Device;
import cuda.graph.DeviceBuffer;
import cuda.graph.ElementType;
import cuda.graph.GraphCondition;
import cuda.graph.GraphNode;
import cuda.graph.GraphUpdate;
import cuda.graph.Stream;
import cuda.graph.conformance.kernels.ConditionalKernels;
import cuda.graph.conformance.kernels.ConformanceKernels;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import org.jspecify.annotations.Nullable;

/**
 * The Java side of the control-flow anchors ({@code anchors/update}, {@code anchors/while}), one
 * CSV: a recapture applied in place vs a new capture instantiated, for 10, 100 and 1000 kernel
 * nodes; and a device-side WHILE loop of n dependent steps vs host replays that read a flag each
 * step. Each figure is min, median and max over repetitions, in microseconds. Runs on whatever
 * provider {@code CudaPlatform.system()} picks (the simulator where there is no GPU).
 */
public final class ControlFlowBench {

  private ControlFlowBench() {}

  public static void main(String[] args) {
    int reps = args.length > 0 ? Integer.parseInt(args[0]) : 15;
    CudaPlatform platform = CudaPlatform.system();
    Device device = platform.defaultDevice();
    System.out.println("# cuda-graph " + platform.providerId() + " on " + device.name());
    SimulatorTimes.note(platform);
    try (Stream stream = device.newStream();
        DeviceBuffer<Integer> a = DeviceBuffer.zeros(ElementType.I32, 32).syncOn(stream);
        DeviceBuffer<Integer> b = DeviceBuffer.zeros(ElementType.I32, 32).syncOn(stream)) {
      ConformanceKernels.load(device);
      ConditionalKernels.COUNTDOWN.load(device);
      System.out.println("n,what,us_min,us_median,us_max");
      for (int n : new int[] {10, 100, 1000}) {
        updates(stream, a, b, n, reps);
      }
      for (int steps : new int[] {100, 1000}) {
        loops(stream, a, steps, reps);
      }
    }
  }

  private static GraphNode<@Nullable Void> chain(DeviceBuffer<Integer> buffer, int n) {
    List<GraphNode<@Nullable Void>> nodes = new ArrayList<>(n);
    for (int i = 0; i < n; i++) {
      nodes.add(ConformanceKernels.inc(buffer));
    }
    return GraphNode.sequence(nodes);
  }

  private static void updates(
      Stream stream, DeviceBuffer<Integer> a, DeviceBuffer<Integer> b, int n, int reps) {
    double[] inPlace = new double[reps];
    double[] fresh = new double[reps];
    try (CudaGraph<@Nullable Void> graph = CudaGraph.capture(stream, chain(a, n))) {
      for (int r = 0; r < reps + 2; r++) {
        long t0 = System.nanoTime();
        GraphUpdate u = graph.recapture(chain(r % 2 == 0 ? b : a, n));
        long t1 = System.nanoTime();
        if (!u.inPlace()) {
          throw new IllegalStateException("expected an in-place update, got " + u);
        }
        CudaGraph<@Nullable Void> other = CudaGraph.capture(stream, chain(a, n));
        long t2 = System.nanoTime();
        other.close();
        if (r >= 2) {
          inPlace[r - 2] = (t1 - t0) / 1e3;
          fresh[r - 2] = (t2 - t1) / 1e3;
        }
      }
      graph.launch().syncOn(stream);
    }
    row(n, "recapture+update", inPlace);
    row(n, "capture+instantiate", fresh);
    if (SimulatorTimes.meaningful(CudaPlatform.current())) {
      double[] ratio = new double[reps];
      for (int i = 0; i < reps; i++) {
        ratio[i] = fresh[i] / inPlace[i];
      }
      row(n, "ratio (capture+instantiate)/(recapture+update)", ratio);
    }
  }

  private static void loops(Stream stream, DeviceBuffer<Integer> work, int steps, int reps) {
    try (DeviceBuffer<Integer> left = DeviceBuffer.zeros(ElementType.I32, 1).syncOn(stream);
        CudaGraph<@Nullable Void> loop =
            CudaGraph.scope(
                stream,
                scope -> {
                  GraphCondition more = scope.condition(1);
                  scope.whileLoop(
                      more,
                      body -> {
                        body.record(ConformanceKernels.inc(work));
                        body.record(ConditionalKernels.countdown(left, more));
                      });
                });
        DeviceBuffer<Integer> flag = DeviceBuffer.zeros(ElementType.I32, 1).syncOn(stream);
        CudaGraph<@Nullable Void> step =
            CudaGraph.scope(
                stream,
                scope -> {
                  scope.record(ConformanceKernels.inc(work));
                  scope.record(ConformanceKernels.inc(flag)); // the step count the host reads
                })) {
      double[] device = new double[reps];
      double[] host = new double[reps];
      for (int r = 0; r < reps + 2; r++) {
        left.write(new int[] {steps}).syncOn(stream);
        long t0 = System.nanoTime();
        loop.launch().syncOn(stream);
        long t1 = System.nanoTime();
        flag.write(new int[] {0}).syncOn(stream);
        long t2 = System.nanoTime();
        int done;
        do {
          done = step.launch().then(ignored -> flag.toIntArray()).syncOn(stream)[0];
        } while (done < steps);
        long t3 = System.nanoTime();
        if (r >= 2) {
          device[r - 2] = (t1 - t0) / 1e3 / steps;
          host[r - 2] = (t3 - t2) / 1e3 / steps;
        }
      }
      row(steps, "device WHILE, per step", device);
      row(steps, "host replay + flag read, per step", host);
      if (SimulatorTimes.meaningful(CudaPlatform.current())) {
        double[] ratio = new double[reps];
        for (int i = 0; i < reps; i++) {
          ratio[i] = host[i] / device[i];
        }
        row(steps, "ratio host/device", ratio);
      }
    }
  }

  private static void row(int n, String what, double[] values) {
    double[] v = values.clone();
    Arrays.sort(v);
    System.out.printf("%d,%s,%.2f,%.2f,%.2f%n", n, what, v[0], v[v.length / 2], v[v.length - 1]);
  }
}
