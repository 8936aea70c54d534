// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 the cuda-graph authors
package cuda.graph.blas;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import cuda.graph.CudaPlatform;
import cuda.graph.DeviceBuffer;
import cuda.graph.ElementType;
import cuda.graph.Stream;
import cuda.graph.simulator.Simulator;
import java.util.List;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.function.Executable;

/**
 * The refusals of the blas API that no other test reaches (issue 36, item 12): each is the
 * exception its Javadoc names, with a message that names the call, the bad value and what to do.
 */
class BlasRefusalTests {

  private CudaPlatform platform;
  private Stream stream;
  private DeviceBuffer<Float> buffer;

  @BeforeEach
  void open() {
    platform = CudaPlatform.forDriver(Simulator.builder().build(), "simulator");
    stream = platform.defaultDevice().newStream();
    buffer = DeviceBuffer.zeros(ElementType.F32, 64).syncOn(stream);
  }

  @AfterEach
  void close() {
    buffer.close();
    stream.close();
    platform.close();
  }

  /**
   * {@return the message of the {@code type} that {@code bad} throws, checked to hold each part}
   */
  private static String refused(
      Class<? extends RuntimeException> type, Executable bad, String... parts) {
    String message = assertThrows(type, bad).getMessage();
    for (String part : parts) {
      assertTrue(message.contains(part), () -> "'" + part + "' missing from: " + message);
    }
    return message;
  }

  @Test
  void aNegativeWorkspaceLimitIsRefusedNamingTheLimitAndTheSmallestAllowed() {
    refused(
        IllegalArgumentException.class,
        () -> Blas.open(platform.defaultDevice(), -1),
        "Blas.open",
        "workspace limit -1",
        "use 0 or more bytes");
  }

  @Test
  void anEmptyListOfProductsForAWorkspaceIsRefusedSayingWhatToPass() {
    try (Blas blas = Blas.open(platform.defaultDevice())) {
      refused(
          IllegalArgumentException.class,
          () -> blas.workspaceFor(List.of()),
          "Blas.workspaceFor",
          "no matmul given",
          "pass the products that will share the workspace");
    }
  }

  @Test
  void aMatrixOfZeroRowsIsRefusedNamingItsShapeAndTheSmallestShape() {
    refused(
        IllegalArgumentException.class,
        () -> MatrixView.rowMajor(buffer, 0, 4),
        "MatrixView",
        "0 x 4",
        "describe at least 1 row and 1 column");
  }

  @Test
  void aMatrixOfZeroColumnsIsRefusedNamingItsShapeAndTheSmallestShape() {
    refused(
        IllegalArgumentException.class,
        () -> MatrixView.columnMajor(buffer, 4, 0),
        "MatrixView",
        "4 x 0",
        "describe at least 1 row and 1 column");
  }

  @Test
  void aNegativeOffsetIsRefusedNamingTheOffsetAndTheSmallestAllowed() {
    MatrixView view = MatrixView.rowMajor(buffer, 4, 4);
    refused(
        IllegalArgumentException.class,
        () -> view.atOffset(-3),
        "MatrixView",
        "offset -3 is negative",
        "use 0 or more");
  }

  @Test
  void aNegativeBatchStrideIsRefusedNamingTheStrideAndTheSmallestAllowed() {
    MatrixView view = MatrixView.rowMajor(buffer, 4, 4);
    String message =
        refused(
            IllegalArgumentException.class,
            () -> view.batched(2, -16),
            "MatrixView",
            "batch stride -16 is negative",
            "use 0 or more elements");
    assertEquals(-1, message.indexOf('\n'), "one line: " + message);
  }
}
