// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 the cuda-graph authors
package cuda.graph;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import cuda.graph.simulator.Simulator;
import cuda.graph.testkit.InstrumentedDriver;
import org.junit.jupiter.api.Test;

class GraphSmokeTests {

  @Test
  void aCapturedSaxpyReplaysThreeTimesAndLeaksNothing() {
    InstrumentedDriver sim = SimulatorPlatforms.instrumented(Simulator.create());
    try (CudaPlatform platform = SimulatorPlatforms.over(sim)) {
      Stream stream = platform.defaultDevice().newStream();
      int n = 64;
      float[] xs = new float[n];
      for (int i = 0; i < n; i++) {
        xs[i] = i;
      }
      DeviceBuffer<Float> x = DeviceBuffer.fromArray(xs).syncOn(stream);
      DeviceBuffer<Float> y = DeviceBuffer.filled(ElementType.F32, n, 1f).syncOn(stream);
      SaxpyExampleTests.SAXPY.load(platform.defaultDevice());
      try (CudaGraph<Void> graph =
          CudaGraph.capture(
              stream, SaxpyExampleTests.SAXPY.launch(LaunchConfig.covering(n, 32), n, 2f, x, y))) {
        assertEquals(1, graph.nodeCount());
        for (int r = 0; r < 3; r++) {
          graph.launch().syncOn(stream);
        }
      }
      float[] expected = new float[n];
      for (int i = 0; i < n; i++) {
        expected[i] = 1 + 3 * 2f * i;
      }
      assertArrayEquals(expected, y.toFloatArray().syncOn(stream));
      assertThrows(
          GraphCaptureException.class,
          () -> CudaGraph.capture(stream, DeviceBuffer.zeros(ElementType.F32, 4)));
      x.close();
      y.close();
      stream.close();
    }
    assertEquals(
        java.util.Map.of(), sim.ledger().liveCounts(), "live handles after closing the platform");
  }

  @Test
  void aModuleForwardEqualsEagerExecution() {
    try (CudaPlatform platform = SimulatorPlatforms.simulator();
        Stream stream = platform.defaultDevice().newStream()) {
      int n = 16;
      Device device = platform.defaultDevice();
      DeviceBuffer<Float> in = DeviceBuffer.zeros(ElementType.F32, n).syncOn(stream);
      DeviceBuffer<Float> acc = DeviceBuffer.zeros(ElementType.F32, n).syncOn(stream);
      HostBuffer<Float> staging = device.allocateHost(ElementType.F32, n);
      HostBuffer<Float> out = device.allocateHost(ElementType.F32, n);
      SaxpyExampleTests.SAXPY.load(device);
      DeviceOp<HostBuffer<Float>> forward =
          acc.fill(0f)
              .andThen(SaxpyExampleTests.SAXPY.launch(LaunchConfig.covering(n, 32), n, 3f, in, acc))
              .andThen(acc.copyTo(out))
              .map(ignored -> out);
      try (Module<float[], float[]> module =
          Module.capture(
              stream, InputBinding.floats(staging, in), forward, HostBuffer::toFloatArray)) {
        for (int step = 0; step < 3; step++) {
          float[] input = new float[n];
          for (int i = 0; i < n; i++) {
            input[i] = step * 10 + i;
          }
          float[] result = module.forward(input);
          for (int i = 0; i < n; i++) {
            assertEquals(3 * input[i], result[i], 0f);
          }
        }
      }
    }
  }
}
