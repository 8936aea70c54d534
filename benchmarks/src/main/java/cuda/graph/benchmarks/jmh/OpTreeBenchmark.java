// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 the cuda-graph authors
package cuda.graph.benchmarks.jmh;

import cuda.graph.DeviceOp;
import cuda.graph.GraphNode;
import java.util.concurrent.TimeUnit;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Measurement;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.Warmup;

/**
 * Building and executing op trees of host values: the library's own cost per op, without GPU work.
 */
@State(Scope.Thread)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.NANOSECONDS)
@Warmup(iterations = 3, time = 1)
@Measurement(iterations = 5, time = 1)
@Fork(1)
public class OpTreeBenchmark {

  @Param({"1", "16", "256"})
  int size;

  /** Builds a chain of {@code size} maps over a value, without executing it. */
  @Benchmark
  public DeviceOp<Integer> buildMapChain() {
    DeviceOp<Integer> op = DeviceOp.value(0);
    for (int i = 0; i < size; i++) {
      op = op.map(x -> x + 1);
    }
    return op;
  }

  /**
   * Builds and executes a chain of {@code size} maps, including the stream synchronize of syncOn.
   */
  @Benchmark
  public Integer executeMapChain(SimulatorState sim) {
    GraphNode<Integer> op = DeviceOp.value(0);
    for (int i = 0; i < size; i++) {
      op = op.map(x -> x + 1);
    }
    return op.syncOn(sim.stream);
  }

  /** Builds and executes a balanced zip tree with {@code size} leaves. */
  @Benchmark
  public Integer executeZipTree(SimulatorState sim) {
    return zipTree(0, size).syncOn(sim.stream);
  }

  private static DeviceOp<Integer> zipTree(int from, int to) {
    if (to - from <= 1) {
      return DeviceOp.value(from);
    }
    int mid = (from + to) >>> 1;
    return DeviceOp.zip(zipTree(from, mid), zipTree(mid, to), Integer::sum);
  }
}
