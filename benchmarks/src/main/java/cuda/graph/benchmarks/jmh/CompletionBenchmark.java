// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 the cuda-graph authors
package cuda.graph.benchmarks.jmh;

import cuda.graph.DeviceOp;
import cuda.graph.benchmarks.IncKernel;
import java.util.concurrent.TimeUnit;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Measurement;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Warmup;

/**
 * The execution lock and the completion machinery: an empty op executed with syncOn (lock +
 * synchronize) versus submitted with asyncOn and awaited (event record + completion thread).
 */
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.NANOSECONDS)
@Warmup(iterations = 3, time = 1)
@Measurement(iterations = 5, time = 1)
@Fork(1)
public class CompletionBenchmark {

  /** The execution lock, binding and synchronize around an op with no GPU work. */
  @Benchmark
  public Integer syncOnValue(SimulatorState sim) {
    return DeviceOp.value(42).syncOn(sim.stream);
  }

  /** The same op through a future: event record, completion thread, future completion. */
  @Benchmark
  public Integer asyncOnValue(SimulatorState sim) {
    return DeviceOp.value(42).asyncOn(sim.stream).join();
  }

  /** A kernel launch awaited as a future. */
  @Benchmark
  public Void asyncLaunch(SimulatorState sim) {
    return IncKernel.INC
        .launch(cuda.graph.LaunchConfig.of(1, 1), sim.counter)
        .asyncOn(sim.stream)
        .join();
  }
}
