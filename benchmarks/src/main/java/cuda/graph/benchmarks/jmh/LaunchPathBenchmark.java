// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 the cuda-graph authors
package cuda.graph.benchmarks.jmh;

import cuda.graph.GraphNode;
import cuda.graph.LaunchConfig;
import cuda.graph.benchmarks.IncKernel;
import cuda.graph.spi.KernelArguments;
import java.lang.foreign.Arena;
import java.util.concurrent.TimeUnit;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Measurement;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.Warmup;

/**
 * The host-side cost of a kernel launch before the driver call: building the checked launch op, and
 * packing arguments into the prepared native block.
 */
@State(Scope.Thread)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.NANOSECONDS)
@Warmup(iterations = 3, time = 1)
@Measurement(iterations = 5, time = 1)
@Fork(1)
public class LaunchPathBenchmark {

  private static final LaunchConfig ONE = LaunchConfig.of(1, 1);
  private KernelArguments block;

  @Setup
  public void prepare() {
    block = KernelArguments.allocate(Arena.ofAuto(), 4, 4, 8, 8);
  }

  /** Builds a type-checked launch op with one pointer argument. */
  @Benchmark
  public GraphNode<Void> buildLaunch(SimulatorState sim) {
    return IncKernel.INC.launch(ONE, sim.counter);
  }

  /** Packs four arguments (i32, f32, two pointers) into a reused native argument block. */
  @Benchmark
  public KernelArguments packArguments() {
    block.setI32(0, 1000);
    block.setF32(1, 2.0f);
    block.setI64(2, 0x7f00_0000_0000L);
    block.setI64(3, 0x7f00_0001_0000L);
    return block;
  }

  /**
   * A launch executed with syncOn on the simulator: lock, binding, leases, driver call,
   * synchronize.
   */
  @Benchmark
  public Void launchAndSync(SimulatorState sim) {
    return IncKernel.INC.launch(ONE, sim.counter).syncOn(sim.stream);
  }
}
