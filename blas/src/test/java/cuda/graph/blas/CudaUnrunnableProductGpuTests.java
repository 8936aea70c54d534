// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 the cuda-graph authors
package cuda.graph.blas;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import cuda.graph.CudaGraph;
import cuda.graph.CudaPlatform;
import cuda.graph.DeviceBuffer;
import cuda.graph.ElementType;
import cuda.graph.GraphNode;
import cuda.graph.Stream;
import java.util.List;
import org.jspecify.annotations.Nullable;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

/**
 * Issue 36 item B on real cuBLASLt: a product that is made runs, eagerly and replayed; one that
 * cuBLASLt cannot run is refused when it is made, never at launch. The heuristic is told how
 * aligned each operand really is (it assumes 256 bytes otherwise, and an algorithm chosen so is
 * refused with {@code CUBLAS_STATUS_NOT_SUPPORTED} when it runs on an operand at an offset), and a
 * bias that is not 16-byte aligned, which faults the device, is refused by {@code Matmul} itself.
 * The product is the issue's: f16 x f16 -> f32, compute F32, BIAS_GELU with an f32 bias, A
 * transposed, column-major D 64x64 from k = 16.
 */
@Tag("gpu")
class CudaUnrunnableProductGpuTests {

  private static final int M = 64, N = 64, K = 16;

  private CudaPlatform platform;
  private Stream stream;
  private Blas blas;
  private DeviceBuffer<Short> a;
  private DeviceBuffer<Short> b;
  private DeviceBuffer<Float> d;
  private DeviceBuffer<Float> bias;

  @BeforeEach
  void open() {
    platform = SystemGpu.orSkip();
    stream = platform.defaultDevice().newStream();
    blas = Blas.open(platform.defaultDevice());
    // A and B zero, so D = GELU(bias) per row: the result says the epilogue ran on the right bias.
    a = DeviceBuffer.zeros(ElementType.F16, K * M + 64).syncOn(stream);
    b = DeviceBuffer.zeros(ElementType.F16, K * N).syncOn(stream);
    d = DeviceBuffer.zeros(ElementType.F32, M * N).syncOn(stream);
    float[] values = new float[M + 16];
    for (int i = 0; i < values.length; i++) {
      values[i] = (i % 9 - 4) / 2f;
    }
    bias = DeviceBuffer.fromArray(values).syncOn(stream);
  }

  @AfterEach
  void close() {
    if (blas != null) {
      for (AutoCloseable c : new AutoCloseable[] {a, b, d, bias, blas, stream}) {
        try {
          c.close();
        } catch (Exception e) {
          throw new AssertionError(e);
        }
      }
    }
  }

  private Matmul product(long aOffset) {
    return Matmul.of(
            MatrixView.columnMajor(a, K, M).atOffset(aOffset).transposed(),
            MatrixView.columnMajor(b, K, N),
            MatrixView.columnMajor(d, M, N))
        .withEpilogue(Epilogue.BIAS_GELU, bias);
  }

  private static float gelu(float x) {
    double t = Math.tanh(Math.sqrt(2 / Math.PI) * (x + 0.044715 * x * x * x));
    return (float) (0.5 * x * (1 + t));
  }

  /**
   * Makes the product; {@return whether it was refused when made} (with cuBLASLt's NOT_SUPPORTED).
   * Made, it must run eagerly and from a graph, and compute GELU(bias) row by row.
   */
  private boolean refusedOrRuns(Matmul product) {
    @Nullable Workspace workspace = null;
    GraphNode<@Nullable Void> eager;
    GraphNode<@Nullable Void> captured;
    try {
      workspace = blas.workspaceFor(List.of(product)).syncOn(stream);
      eager = blas.matmul(product, workspace);
      captured = blas.matmul(product, workspace);
    } catch (BlasException refused) {
      if (workspace != null) {
        workspace.close();
      }
      assertEquals("CUBLAS_STATUS_NOT_SUPPORTED", refused.statusName(), refused.getMessage());
      assertTrue(refused.getMessage().contains("BIAS_GELU"), refused.getMessage());
      return true;
    }
    Workspace made = workspace;
    try (made;
        CudaGraph<@Nullable Void> graph = CudaGraph.capture(stream, captured)) {
      eager.syncOn(stream);
      checkD();
      d.fill(0f).syncOn(stream);
      graph.launch().syncOn(stream);
      checkD();
    }
    return false;
  }

  private void checkD() {
    float[] got = d.toFloatArray().syncOn(stream);
    float[] biasValues = bias.toFloatArray().syncOn(stream);
    for (int j = 0; j < N; j++) {
      for (int i = 0; i < M; i++) {
        float want = gelu(biasValues[i]);
        float value = got[i + j * M];
        assertTrue(
            Math.abs(value - want) <= 1e-3f * (1 + Math.abs(want)),
            "D[" + i + "," + j + "] = " + value + ", want GELU(" + biasValues[i] + ") = " + want);
      }
    }
  }

  @Test
  void theIssuesProductRuns() {
    assertTrue(!refusedOrRuns(product(0)), "the issue's product, aligned, has algorithms");
  }

  @Test
  void aProductWhoseAStartsSixteenBytesInIsPlannedForThatAlignmentAndRuns() {
    assertTrue(!refusedOrRuns(product(8)), "16-byte aligned f16 operands have algorithms");
  }

  @Test
  void aProductWhoseAStartsTwoBytesInIsRefusedWhenMadeOrRuns() {
    refusedOrRuns(product(1)); // either is fine; what is not: made, then refused at launch
  }

  @Test
  void aBiasThatIsNotSixteenByteAlignedIsRefusedBeforeItCanFaultTheDevice() {
    String message =
        assertThrows(
                IllegalArgumentException.class,
                () -> product(0).withEpilogue(Epilogue.BIAS_GELU, bias.slice(1, M)))
            .getMessage();
    assertTrue(message.contains("aligned to 4 bytes"), message);
  }
}
