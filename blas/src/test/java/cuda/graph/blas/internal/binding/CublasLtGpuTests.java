// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 the cuda-graph authors
package cuda.graph.blas.internal.binding;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import cuda.graph.CudaGraph;
import cuda.graph.CudaPlatform;
import cuda.graph.DeviceBuffer;
import cuda.graph.ElementType;
import cuda.graph.Stream;
import cuda.graph.blas.internal.plan.CheckedMatmul;
import cuda.graph.blas.internal.plan.CheckedMatmul.Compute;
import cuda.graph.blas.internal.plan.CheckedMatmul.Epilogue;
import cuda.graph.blas.internal.plan.CheckedMatmul.Order;
import cuda.graph.blas.internal.plan.MatmulOperands;
import cuda.graph.blas.internal.plan.MatmulPlan;
import java.util.Random;
import org.jspecify.annotations.Nullable;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

/**
 * Real cuBLASLt on the real driver: products run eagerly and replayed from captured graphs, against
 * a plain Java product. Run with {@code -Dcuda.graph.provider=cuda} and cuBLASLt findable (the
 * toolkit's lib64 on LD_LIBRARY_PATH, or {@code -Dcuda.graph.blas.library}); where the system
 * platform is not the GPU's they are skipped.
 */
@Tag("gpu")
class CublasLtGpuTests {

  private static final long LIMIT = 32L << 20;

  private static CudaPlatform platform;
  private static Stream stream;
  private static CublasLtBackend backend;

  @BeforeAll
  static void findGpuAndCublasLt() {
    CudaPlatform system = CudaPlatform.system();
    Assumptions.assumeTrue(
        system.providerId().equals("cuda"),
        "no GPU: the system platform is '" + system.providerId() + "'");
    // A GPU host that runs these tests must have cuBLASLt: a missing library fails them, with the
    // message that says where it was looked for and how to provide it.
    platform = system;
    stream = platform.defaultDevice().newStream();
    backend = CublasLtBackend.open(platform.defaultDevice());
  }

  @AfterAll
  static void close() {
    if (backend != null) {
      backend.close();
      stream.close();
    }
  }

  private static float[] random(int length, long seed) {
    Random random = new Random(seed);
    float[] values = new float[length];
    for (int i = 0; i < length; i++) {
      // Multiples of 1/8 up to 2: exact in fp16, bf16 and tf32, so only the sums round.
      values[i] = (random.nextInt(33) - 16) / 8f;
    }
    return values;
  }

  private static short[] f16(float[] values) {
    short[] out = new short[values.length];
    for (int i = 0; i < values.length; i++) {
      out[i] = Float.floatToFloat16(values[i]);
    }
    return out;
  }

  private static float[] fromF16(short[] values) {
    float[] out = new float[values.length];
    for (int i = 0; i < values.length; i++) {
      out[i] = Float.float16ToFloat(values[i]);
    }
    return out;
  }

  /**
   * Row-major D = A B (+ the bias, then the activation), in double. The bias has one element per
   * index of the contiguous dimension of D in {@code order}: per column {@code j} when D is
   * row-major, per row {@code i} when it is column-major (the matrices are the same, only how they
   * lie in memory differs).
   */
  private static float[] reference(
      float[] a,
      float[] b,
      float @Nullable [] bias,
      int m,
      int n,
      int k,
      Epilogue epilogue,
      Order order) {
    float[] d = new float[m * n];
    for (int i = 0; i < m; i++) {
      for (int j = 0; j < n; j++) {
        double sum = 0;
        for (int p = 0; p < k; p++) {
          sum += (double) a[i * k + p] * b[p * n + j];
        }
        if (bias != null) {
          sum += bias[order == Order.ROW_MAJOR ? j : i];
        }
        if (epilogue == Epilogue.RELU || epilogue == Epilogue.BIAS_RELU) {
          sum = Math.max(sum, 0);
        } else if (epilogue == Epilogue.GELU || epilogue == Epilogue.BIAS_GELU) {
          sum =
              0.5
                  * sum
                  * (1 + Math.tanh(Math.sqrt(2 / Math.PI) * (sum + 0.044715 * sum * sum * sum)));
        }
        d[i * n + j] = (float) sum;
      }
    }
    return d;
  }

  private static void assertClose(float[] expected, float[] actual, double tolerance) {
    assertEquals(expected.length, actual.length);
    for (int i = 0; i < expected.length; i++) {
      double allowed = tolerance * Math.max(1, Math.abs(expected[i]));
      assertTrue(
          Math.abs(expected[i] - actual[i]) <= allowed,
          "element " + i + ": expected " + expected[i] + ", got " + actual[i]);
    }
  }

  private static @Nullable DeviceBuffer<Byte> workspace(MatmulPlan plan) {
    return plan.workspaceBytes() == 0
        ? null
        : DeviceBuffer.zeros(ElementType.I8, plan.workspaceBytes()).syncOn(stream);
  }

  @Test
  void aRowMajorF32ProductRunsEagerlyAsTheJavaProduct() {
    int m = 64;
    int n = 48;
    int k = 40;
    CheckedMatmul product =
        Products.packed(Order.ROW_MAJOR, false, false, m, n, k, ElementType.F32);
    float[] a = random(m * k, 1);
    float[] b = random(k * n, 2);
    MatmulPlan plan = backend.plan(product, LIMIT);

    try (DeviceBuffer<Float> da = DeviceBuffer.fromArray(a).syncOn(stream);
        DeviceBuffer<Float> db = DeviceBuffer.fromArray(b).syncOn(stream);
        DeviceBuffer<Float> dd = DeviceBuffer.zeros(ElementType.F32, m * n).syncOn(stream)) {
      DeviceBuffer<Byte> ws = workspace(plan);
      backend.node(plan, new MatmulOperands(da, db, null, dd, null, ws)).syncOn(stream);

      assertClose(
          reference(a, b, null, m, n, k, Epilogue.NONE, Order.ROW_MAJOR),
          dd.toFloatArray().syncOn(stream),
          1e-5);
      if (ws != null) {
        ws.close();
      }
    }
    assertTrue(plan.algorithm().startsWith("cuBLASLt algo "), plan.algorithm());
  }

  @Test
  void aColumnMajorF16ProductWithBiasAndGeluReplaysFromACapturedGraphAsTheJavaProduct() {
    biasAndGeluReplayAsTheJavaProduct(Order.COLUMN_MAJOR);
  }

  /**
   * A row-major product, bias included, is run as its column-major transpose; cuBLASLt's bias per
   * row of that transpose is the contract's bias per column of the row-major D.
   */
  @Test
  void aRowMajorF16ProductWithBiasAndGeluReplaysFromACapturedGraphAsTheJavaProduct() {
    biasAndGeluReplayAsTheJavaProduct(Order.ROW_MAJOR);
  }

  private static void biasAndGeluReplayAsTheJavaProduct(Order order) {
    int m = 128;
    int n = 64;
    int k = 96;
    CheckedMatmul product =
        Products.with(
            order,
            false,
            false,
            m,
            n,
            k,
            ElementType.F16,
            1,
            Epilogue.BIAS_GELU,
            ElementType.F16,
            Compute.F32);
    float[] rowA = random(m * k, 3);
    float[] rowB = random(k * n, 4);
    boolean column = order == Order.COLUMN_MAJOR;
    float[] bias = random(column ? m : n, 5);
    float[] rowD = reference(rowA, rowB, bias, m, n, k, Epilogue.BIAS_GELU, order);
    float[] a = column ? columnMajor(rowA, m, k) : rowA;
    float[] b = column ? columnMajor(rowB, k, n) : rowB;
    float[] expected = column ? columnMajor(rowD, m, n) : rowD;
    MatmulPlan plan = backend.plan(product, LIMIT);

    try (DeviceBuffer<Short> da = DeviceBuffer.fromArray(ElementType.F16, f16(a)).syncOn(stream);
        DeviceBuffer<Short> db = DeviceBuffer.fromArray(ElementType.F16, f16(b)).syncOn(stream);
        DeviceBuffer<Short> dbias =
            DeviceBuffer.fromArray(ElementType.F16, f16(bias)).syncOn(stream);
        DeviceBuffer<Short> dd = DeviceBuffer.zeros(ElementType.F16, m * n).syncOn(stream)) {
      DeviceBuffer<Byte> ws = workspace(plan);
      try (CudaGraph<@Nullable Void> graph =
          CudaGraph.capture(
              stream, backend.node(plan, new MatmulOperands(da, db, null, dd, dbias, ws)))) {
        graph.launch().syncOn(stream);
        graph.launch().syncOn(stream);
      }

      // fp16 output: about 3 significant digits.
      assertClose(expected, fromF16(dd.toShortArray().syncOn(stream)), 4e-3);
      if (ws != null) {
        ws.close();
      }
    }
  }

  /** {@return the row-major {@code rows x cols} matrix {@code row} in column-major order} */
  private static float[] columnMajor(float[] row, int rows, int cols) {
    float[] out = new float[row.length];
    for (int i = 0; i < rows; i++) {
      for (int j = 0; j < cols; j++) {
        out[i + j * rows] = row[i * cols + j];
      }
    }
    return out;
  }

  @Test
  void aBatchedColumnMajorProductWithTransposedBRunsEagerlyAsTheJavaProduct() {
    int m = 32;
    int n = 24;
    int k = 16;
    int batch = 3;
    CheckedMatmul product =
        Products.with(
            Order.COLUMN_MAJOR,
            false,
            true,
            m,
            n,
            k,
            ElementType.F32,
            batch,
            Epilogue.RELU,
            null,
            Compute.F32);
    float[] a = random(batch * m * k, 6);
    float[] b = random(batch * n * k, 7);
    MatmulPlan plan = backend.plan(product, LIMIT);

    float[] expected = new float[batch * m * n];
    for (int q = 0; q < batch; q++) {
      // Column-major A (m x k, ld m) and B stored n x k (ld n), transposed: as row-major products.
      float[] rowA = new float[m * k];
      float[] rowB = new float[k * n];
      for (int i = 0; i < m; i++) {
        for (int p = 0; p < k; p++) {
          rowA[i * k + p] = a[q * m * k + i + p * m];
        }
      }
      for (int p = 0; p < k; p++) {
        for (int j = 0; j < n; j++) {
          rowB[p * n + j] = b[q * k * n + j + p * n];
        }
      }
      float[] rowD = reference(rowA, rowB, null, m, n, k, Epilogue.RELU, Order.COLUMN_MAJOR);
      for (int i = 0; i < m; i++) {
        for (int j = 0; j < n; j++) {
          expected[q * m * n + i + j * m] = rowD[i * n + j];
        }
      }
    }
    try (DeviceBuffer<Float> da = DeviceBuffer.fromArray(a).syncOn(stream);
        DeviceBuffer<Float> db = DeviceBuffer.fromArray(b).syncOn(stream);
        DeviceBuffer<Float> dd =
            DeviceBuffer.zeros(ElementType.F32, batch * m * n).syncOn(stream)) {
      DeviceBuffer<Byte> ws = workspace(plan);
      backend.node(plan, new MatmulOperands(da, db, null, dd, null, ws)).syncOn(stream);

      assertClose(expected, dd.toFloatArray().syncOn(stream), 1e-5);
      if (ws != null) {
        ws.close();
      }
    }
  }
}
