// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 the cuda-graph authors
package cuda.graph.blas;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import cuda.graph.CudaException;
import cuda.graph.CudaGraph;
import cuda.graph.CudaPlatform;
import cuda.graph.DeviceBuffer;
import cuda.graph.ElementType;
import cuda.graph.Stream;
import cuda.graph.simulator.Simulator;
import cuda.graph.spi.CuResult;
import cuda.graph.spi.DriverCall;
import cuda.graph.testkit.InstrumentedDriver;
import java.util.List;
import java.util.Map;
import org.jspecify.annotations.Nullable;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/**
 * A driver call around a matmul that fails (allocating the workspace, launching the node, capturing
 * or instantiating its graph, replaying it) fails that call's op, leaks nothing, and leaves the
 * platform able to run the product again.
 */
class MatmulFaultTests {

  @ParameterizedTest
  @EnumSource(
      value = DriverCall.class,
      names = {
        "MEM_ALLOC_ASYNC",
        "LAUNCH_KERNEL",
        "STREAM_BEGIN_CAPTURE",
        "STREAM_END_CAPTURE",
        "GRAPH_INSTANTIATE",
        "GRAPH_LAUNCH"
      })
  void aFailedDriverCallAroundAMatmulLeaksNothingAndThePlatformStaysUsable(DriverCall call) {
    InstrumentedDriver driver =
        new InstrumentedDriver(Simulator.builder().reuseHandleValues(true).build());
    try (CudaPlatform platform = CudaPlatform.forDriver(driver, "simulator");
        Stream stream = platform.defaultDevice().newStream();
        Blas blas = Blas.open(platform.defaultDevice());
        DeviceBuffer<Float> a = DeviceBuffer.fromArray(new float[] {1, 2, 3, 4}).syncOn(stream);
        DeviceBuffer<Float> d = DeviceBuffer.zeros(ElementType.F32, 4).syncOn(stream)) {
      Matmul square =
          Matmul.of(
              MatrixView.rowMajor(a, 2, 2),
              MatrixView.rowMajor(a, 2, 2),
              MatrixView.rowMajor(d, 2, 2));
      driver.faults().failNth(call, 1, CuResult.OUT_OF_MEMORY);
      assertThrows(CudaException.class, () -> run(blas, square, stream));
      assertEquals(
          1, driver.faults().fired(), () -> "the fault fired: " + driver.faults().pending());

      d.fill(0f).syncOn(stream);
      run(blas, square, stream);
      assertArrayEquals(new float[] {7, 10, 15, 22}, d.toFloatArray().syncOn(stream));
    }
    assertEquals(
        Map.of(),
        WorkspaceSoak.nonZero(driver.ledger().liveCounts()),
        "nothing outlives the platform");
    assertTrue(driver.violations().isEmpty(), () -> driver.violations().toString());
  }

  /** Allocates a workspace, runs the product eagerly, then captures and replays it. */
  private static void run(Blas blas, Matmul product, Stream stream) {
    try (Workspace workspace = blas.workspaceFor(List.of(product)).syncOn(stream)) {
      blas.matmul(product, workspace).syncOn(stream);
      try (CudaGraph<@Nullable Void> graph =
          CudaGraph.capture(stream, blas.matmul(product, workspace))) {
        graph.launch().syncOn(stream);
      }
    }
  }
}
