// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 the cuda-graph authors
package cuda.graph.blas;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import cuda.graph.CudaGraph;
import cuda.graph.CudaPlatform;
import cuda.graph.DeviceBuffer;
import cuda.graph.ElementType;
import cuda.graph.RecordedNode;
import cuda.graph.Stream;
import java.util.List;
import java.util.concurrent.atomic.AtomicReference;
import org.jspecify.annotations.Nullable;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * A matmul node recorded with {@code Scope.recordNode} takes, through {@code
 * CudaGraph.replaceNode}, a product of the same shape over other buffers, for launches executed
 * afterwards, and refuses a product of another shape before the graph changes: the same on every
 * provider (the subclasses).
 */
abstract class AbstractMatmulReplacementTests {

  static final int M = 16, N = 24, K = 32;

  private CudaPlatform platform;
  Stream stream;
  Blas blas;

  /** {@return the platform the tests run on, opened} */
  abstract CudaPlatform openPlatform();

  /** Closes the platform if the test owns it. */
  abstract void closePlatform(CudaPlatform platform);

  @BeforeEach
  void open() {
    platform = openPlatform();
    stream = platform.defaultDevice().newStream();
    blas = Blas.open(platform.defaultDevice());
  }

  @AfterEach
  void close() {
    blas.close();
    stream.close();
    closePlatform(platform);
  }

  /** Small integers: every product and sum is exact in fp32, so results compare bit for bit. */
  private DeviceBuffer<Float> ints(int length, int seed) {
    float[] v = new float[length];
    for (int i = 0; i < length; i++) {
      v[i] = Math.floorMod(i * 7 + seed * 13, 9) - 4;
    }
    return DeviceBuffer.fromArray(v).syncOn(stream);
  }

  private static float[] product(float[] a, float[] b, int m, int n, int k) {
    float[] d = new float[m * n];
    for (int i = 0; i < m; i++) {
      for (int j = 0; j < n; j++) {
        float sum = 0;
        for (int p = 0; p < k; p++) {
          sum += a[i * k + p] * b[p * n + j];
        }
        d[i * n + j] = sum;
      }
    }
    return d;
  }

  private static Matmul mm(
      DeviceBuffer<Float> a, DeviceBuffer<Float> b, DeviceBuffer<Float> d, int m, int n, int k) {
    return Matmul.of(
        MatrixView.rowMajor(a, m, k), MatrixView.rowMajor(b, k, n), MatrixView.rowMajor(d, m, n));
  }

  @Test
  void aRecordedMatmulTakesAProductOfTheSameShapeOverOtherBuffersForLaterLaunches() {
    try (DeviceBuffer<Float> a1 = ints(M * K, 1);
        DeviceBuffer<Float> b1 = ints(K * N, 2);
        DeviceBuffer<Float> d1 = DeviceBuffer.zeros(ElementType.F32, M * N).syncOn(stream);
        DeviceBuffer<Float> a2 = ints(M * K, 3);
        DeviceBuffer<Float> b2 = ints(K * N, 4);
        DeviceBuffer<Float> d2 = DeviceBuffer.zeros(ElementType.F32, M * N).syncOn(stream)) {
      Matmul first = mm(a1, b1, d1, M, N, K);
      Matmul second = mm(a2, b2, d2, M, N, K);
      AtomicReference<@Nullable RecordedNode> node = new AtomicReference<>();
      try (Workspace workspace = blas.workspaceFor(List.of(first, second)).syncOn(stream);
          CudaGraph<@Nullable Void> graph =
              CudaGraph.scope(stream, s -> node.set(s.recordNode(blas.matmul(first, workspace))))) {
        graph.launch().syncOn(stream);
        float[] expected1 =
            product(a1.toFloatArray().syncOn(stream), b1.toFloatArray().syncOn(stream), M, N, K);
        assertArrayEquals(expected1, d1.toFloatArray().syncOn(stream));

        d1.fill(0f).syncOn(stream);
        graph.replaceNode(node.get(), blas.matmul(second, workspace));
        graph.launch().syncOn(stream);
        float[] expected2 =
            product(a2.toFloatArray().syncOn(stream), b2.toFloatArray().syncOn(stream), M, N, K);
        assertArrayEquals(expected2, d2.toFloatArray().syncOn(stream), "the new product");
        assertArrayEquals(
            new float[M * N], d1.toFloatArray().syncOn(stream), "the old D untouched");
      }
    }
  }

  @Test
  void aProductOfAnotherShapeIsRefusedAndTheNodeKeepsItsProduct() {
    int m2 = M / 2;
    try (DeviceBuffer<Float> a = ints(M * K, 1);
        DeviceBuffer<Float> b = ints(K * N, 2);
        DeviceBuffer<Float> d = DeviceBuffer.zeros(ElementType.F32, M * N).syncOn(stream);
        DeviceBuffer<Float> small = DeviceBuffer.zeros(ElementType.F32, m2 * N).syncOn(stream)) {
      Matmul recorded = mm(a, b, d, M, N, K);
      Matmul other = mm(a.slice(0, m2 * K), b, small, m2, N, K);
      AtomicReference<@Nullable RecordedNode> node = new AtomicReference<>();
      try (Workspace workspace = blas.workspaceFor(List.of(recorded, other)).syncOn(stream);
          CudaGraph<@Nullable Void> graph =
              CudaGraph.scope(
                  stream, s -> node.set(s.recordNode(blas.matmul(recorded, workspace))))) {
        IllegalArgumentException refused =
            assertThrows(
                IllegalArgumentException.class,
                () -> graph.replaceNode(node.get(), blas.matmul(other, workspace)));
        assertTrue(refused.getMessage().contains("cannot replace"), refused.getMessage());
        assertTrue(refused.getMessage().contains("recapture"), refused.getMessage());
        // Both products, as the plan describes them (issue 36, item 8), and no kernel's name.
        assertTrue(
            refused.getMessage().contains("D[16x24] = A[16x32] B[32x24]"), refused.getMessage());
        assertTrue(
            refused.getMessage().contains("D[8x24] = A[8x32] B[32x24]"), refused.getMessage());
        assertFalse(refused.getMessage().contains("simulated_matmul"), refused.getMessage());
        graph.launch().syncOn(stream);
        float[] expected =
            product(a.toFloatArray().syncOn(stream), b.toFloatArray().syncOn(stream), M, N, K);
        assertArrayEquals(expected, d.toFloatArray().syncOn(stream));
        assertArrayEquals(new float[m2 * N], small.toFloatArray().syncOn(stream));
      }
    }
  }
}
