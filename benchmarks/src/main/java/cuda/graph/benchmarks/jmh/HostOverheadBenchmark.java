// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 the cuda-graph authors
package cuda.graph.benchmarks.jmh;

import cuda.graph.CudaGraph;
import cuda.graph.CudaPlatform;
import cuda.graph.DeviceBuffer;
import cuda.graph.ElementType;
import cuda.graph.LaunchConfig;
import cuda.graph.Stream;
import cuda.graph.benchmarks.IncKernel;
import cuda.graph.simulator.Simulator;
import java.util.concurrent.TimeUnit;
import org.jspecify.annotations.Nullable;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Measurement;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.TearDown;
import org.openjdk.jmh.annotations.Warmup;

/**
 * The library's own host time on the launch paths the H200 tables compare with C++, over a driver
 * whose launch, synchronize and event calls cost nothing ({@link ZeroCostDriver}): an eager launch
 * with {@code syncOn}, a graph replay with {@code syncOn}, and an awaited future. Run with {@code
 * -prof gc} to see what each allocates.
 */
@State(Scope.Thread)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.NANOSECONDS)
@Warmup(iterations = 3, time = 1)
@Measurement(iterations = 5, time = 1)
@Fork(1)
public class HostOverheadBenchmark {

  private static final LaunchConfig ONE = LaunchConfig.of(1, 1);
  private CudaPlatform platform;
  private Stream stream;
  private DeviceBuffer<Integer> counter;
  private CudaGraph<@Nullable Void> graph;

  @Setup
  public void open() {
    platform = CudaPlatform.forDriver(new ZeroCostDriver(Simulator.create()), "zero-cost");
    stream = platform.defaultDevice().newStream();
    counter = DeviceBuffer.zeros(ElementType.I32, 1).syncOn(stream);
    IncKernel.INC.load(platform.defaultDevice());
    graph = CudaGraph.capture(stream, IncKernel.INC.launch(ONE, counter));
  }

  @TearDown
  public void close() {
    graph.close();
    counter.close();
    stream.close();
    platform.close();
  }

  /** One kernel launch executed with syncOn: everything but the driver's own time. */
  @Benchmark
  public @Nullable Void eagerLaunchSyncOn() {
    return IncKernel.INC.launch(ONE, counter).syncOn(stream);
  }

  /** One graph replay executed with syncOn. */
  @Benchmark
  public @Nullable Void graphLaunchSyncOn() {
    return graph.launch().syncOn(stream);
  }

  /** Capture, instantiate and upload of a one-kernel graph, then its destruction. */
  @Benchmark
  public int captureOneKernel() {
    try (CudaGraph<@Nullable Void> g =
        CudaGraph.capture(stream, IncKernel.INC.launch(ONE, counter))) {
      return g.hashCode();
    }
  }

  /** One kernel launch as a future, awaited: submission, completion and the hand-over. */
  @Benchmark
  public @Nullable Void eagerLaunchAwaited() {
    return IncKernel.INC.launch(ONE, counter).asyncOn(stream).join();
  }
}
