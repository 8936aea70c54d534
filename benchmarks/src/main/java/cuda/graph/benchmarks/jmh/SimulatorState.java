// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 the cuda-graph authors
package cuda.graph.benchmarks.jmh;

import cuda.graph.CudaPlatform;
import cuda.graph.DeviceBuffer;
import cuda.graph.ElementType;
import cuda.graph.Stream;
import cuda.graph.benchmarks.IncKernel;
import cuda.graph.simulator.Simulator;
import org.openjdk.jmh.annotations.Level;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.TearDown;

/** A simulator platform, one stream and a one-int counter, shared by a benchmark's iterations. */
@State(Scope.Thread)
public class SimulatorState {

  CudaPlatform platform;
  Stream stream;
  DeviceBuffer<Integer> counter;

  @Setup(Level.Trial)
  public void open() {
    platform = CudaPlatform.forDriver(Simulator.create(), "simulator");
    stream = platform.defaultDevice().newStream();
    counter = DeviceBuffer.zeros(ElementType.I32, 1).syncOn(stream);
    IncKernel.INC.load(platform.defaultDevice());
  }

  @TearDown(Level.Trial)
  public void close() {
    counter.close();
    stream.close();
    platform.close();
  }
}
