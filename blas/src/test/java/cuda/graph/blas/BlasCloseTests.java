// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 the cuda-graph authors
package cuda.graph.blas;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import cuda.graph.CudaGraph;
import cuda.graph.CudaPlatform;
import cuda.graph.DeviceBuffer;
import cuda.graph.ElementType;
import cuda.graph.Stream;
import cuda.graph.simulator.Simulator;
import cuda.graph.spi.HandleKind;
import cuda.graph.testkit.InstrumentedDriver;
import java.util.List;
import org.jspecify.annotations.Nullable;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * {@link Blas#close()} on the simulator unloads each plan's kernel module once no node of the plan
 * can run (issue 36, item 6): at once for products that ran eagerly, when the graph is closed for a
 * product a graph captured; before, every module stayed loaded until the platform closed.
 */
class BlasCloseTests {

  private InstrumentedDriver driver;
  private CudaPlatform platform;
  private Stream stream;

  @BeforeEach
  void open() {
    driver = new InstrumentedDriver(Simulator.builder().build());
    platform = CudaPlatform.forDriver(driver, "simulator");
    stream = platform.defaultDevice().newStream();
  }

  @AfterEach
  void close() {
    stream.close();
    platform.close();
    assertTrue(driver.violations().isEmpty(), () -> driver.violations().toString());
  }

  private long modules() {
    return driver.ledger().live(HandleKind.MODULE);
  }

  private DeviceBuffer<Float> ones(int length) {
    float[] v = new float[length];
    java.util.Arrays.fill(v, 1f);
    return DeviceBuffer.fromArray(v).syncOn(stream);
  }

  private static Matmul product(
      DeviceBuffer<Float> a, DeviceBuffer<Float> b, DeviceBuffer<Float> d, int m, int n, int k) {
    return Matmul.of(
        MatrixView.rowMajor(a, m, k), MatrixView.rowMajor(b, k, n), MatrixView.rowMajor(d, m, n));
  }

  @Test
  void closingUnloadsEachPlansModuleOnceNoNodeOfThePlanCanRun() {
    long before = modules();
    try (DeviceBuffer<Float> a = ones(8 * 8);
        DeviceBuffer<Float> b = ones(8 * 8);
        DeviceBuffer<Float> d1 = DeviceBuffer.zeros(ElementType.F32, 2 * 8).syncOn(stream);
        DeviceBuffer<Float> d2 = DeviceBuffer.zeros(ElementType.F32, 4 * 8).syncOn(stream);
        DeviceBuffer<Float> d3 = DeviceBuffer.zeros(ElementType.F32, 8 * 8).syncOn(stream)) {
      Blas blas = Blas.open(platform.defaultDevice());
      Matmul eager1 = product(a, b, d1, 2, 8, 8);
      Matmul eager2 = product(a, b, d2, 4, 8, 8);
      Matmul graphed = product(a, b, d3, 8, 8, 8);
      Workspace workspace = blas.workspaceFor(List.of(eager1, eager2, graphed)).syncOn(stream);
      blas.matmul(eager1, workspace).syncOn(stream);
      blas.matmul(eager2, workspace).syncOn(stream);
      CudaGraph<@Nullable Void> graph = CudaGraph.capture(stream, blas.matmul(graphed, workspace));
      assertEquals(before + 3, modules(), "a module per plan");

      blas.close();

      assertEquals(
          before + 1, modules(), "the eager products' modules go at once, the graph's stays");
      graph.launch().syncOn(stream);
      float[] eights = new float[8 * 8];
      java.util.Arrays.fill(eights, 8f);
      assertArrayEquals(eights, d3.toFloatArray().syncOn(stream), "the graph still replays");

      graph.close();
      workspace.close();
      assertEquals(before, modules(), "and the graph's goes with the graph");
    }
  }
}
