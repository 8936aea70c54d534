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
import java.util.List;
import java.util.Random;
import org.jspecify.annotations.Nullable;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/**
 * A matmul node is one node however it runs: eagerly, captured and replayed, recorded in a scope,
 * with the same bits each way and each epilogue, with the plan chosen once.
 */
class MatmulNodeTests {

  private CudaPlatform platform;
  private Stream stream;
  private Blas blas;

  @BeforeEach
  void open() {
    platform = CudaPlatform.forDriver(Simulator.builder().build(), "simulator");
    stream = platform.defaultDevice().newStream();
    blas = Blas.open(platform.defaultDevice());
  }

  @AfterEach
  void close() {
    blas.close();
    stream.close();
    platform.close();
  }

  private DeviceBuffer<Float> random(int length, long seed) {
    Random random = new Random(seed);
    float[] data = new float[length];
    for (int i = 0; i < length; i++) {
      data[i] = (float) (random.nextDouble() * 2 - 1);
    }
    return DeviceBuffer.fromArray(data).syncOn(stream);
  }

  @ParameterizedTest
  @EnumSource(Epilogue.class)
  void eagerCapturedAndScopeRecordedProductsAreBitForBitEqualForEveryEpilogue(Epilogue epilogue) {
    int m = 6;
    int n = 5;
    int k = 7;
    try (DeviceBuffer<Float> a = random(m * k, 1);
        DeviceBuffer<Float> b = random(k * n, 2);
        DeviceBuffer<Float> c = random(m * n, 3);
        DeviceBuffer<Float> bias = random(n, 4); // one per column of the row-major D
        DeviceBuffer<Float> eager = DeviceBuffer.zeros(ElementType.F32, m * n).syncOn(stream);
        DeviceBuffer<Float> captured = DeviceBuffer.zeros(ElementType.F32, m * n).syncOn(stream);
        DeviceBuffer<Float> recorded = DeviceBuffer.zeros(ElementType.F32, m * n).syncOn(stream)) {
      Matmul[] products = new Matmul[3];
      DeviceBuffer<?>[] outputs = {eager, captured, recorded};
      for (int i = 0; i < 3; i++) {
        Matmul mm =
            Matmul.of(
                    MatrixView.rowMajor(a, m, k),
                    MatrixView.rowMajor(b, k, n),
                    MatrixView.rowMajor(outputs[i], m, n))
                .scaledBy(0.5f)
                .plus(2f, MatrixView.rowMajor(c, m, n));
        products[i] =
            epilogue.takesBias() ? mm.withEpilogue(epilogue, bias) : mm.withEpilogue(epilogue);
      }
      try (Workspace workspace = blas.workspaceFor(List.of(products)).syncOn(stream)) {
        blas.matmul(products[0], workspace).syncOn(stream);
        try (CudaGraph<@Nullable Void> graph =
                CudaGraph.capture(stream, blas.matmul(products[1], workspace));
            CudaGraph<@Nullable Void> scope =
                CudaGraph.scope(stream, s -> s.record(blas.matmul(products[2], workspace)))) {
          graph.launch().syncOn(stream);
          scope.launch().syncOn(stream);
        }
      }
      float[] expected = eager.toFloatArray().syncOn(stream);
      assertArrayEquals(expected, captured.toFloatArray().syncOn(stream), "captured");
      assertArrayEquals(expected, recorded.toFloatArray().syncOn(stream), "scope-recorded");
      HostMatrices.Expected[] reference =
          HostMatrices.expected(
              products[0], doubles(a), doubles(b), doubles(c), doubles(bias), expected.length);
      for (int i = 0; i < expected.length; i++) {
        assertEquals(reference[i].value(), expected[i], reference[i].tolerance(), "element " + i);
      }
    }
  }

  /**
   * A linear layer {@code y = x w^T + b} (x {@code tokens x in}, w {@code out x in}, y {@code
   * tokens x out}, all row-major) adds one bias value per output feature. Described row-major, that
   * is per column of D; described column-major over the same memory ({@code y^T = w x^T + b}), per
   * row of D: either way the bias runs along D's contiguous dimension and y is the same. Small
   * integers keep every sum exact in fp32, so the plain Java layer is compared bit for bit.
   */
  @ParameterizedTest
  @EnumSource(Order.class)
  void aLinearLayerAddsOneBiasValuePerOutputFeatureInEitherOrder(Order order) {
    int tokens = 3;
    int in = 4;
    int out = 5;
    float[] input = integers(tokens * in, 11);
    float[] weights = integers(out * in, 12);
    float[] biases = integers(out, 13);
    float[] expected = new float[tokens * out];
    for (int t = 0; t < tokens; t++) {
      for (int o = 0; o < out; o++) {
        float sum = biases[o];
        for (int p = 0; p < in; p++) {
          sum += input[t * in + p] * weights[o * in + p];
        }
        expected[t * out + o] = sum;
      }
    }
    try (DeviceBuffer<Float> x = DeviceBuffer.fromArray(input).syncOn(stream);
        DeviceBuffer<Float> w = DeviceBuffer.fromArray(weights).syncOn(stream);
        DeviceBuffer<Float> b = DeviceBuffer.fromArray(biases).syncOn(stream);
        DeviceBuffer<Float> y = DeviceBuffer.zeros(ElementType.F32, tokens * out).syncOn(stream)) {
      Matmul layer =
          order == Order.ROW_MAJOR
              ? Matmul.of(
                  MatrixView.rowMajor(x, tokens, in),
                  MatrixView.rowMajor(w, out, in).transposed(),
                  MatrixView.rowMajor(y, tokens, out))
              : Matmul.of(
                  MatrixView.columnMajor(w, in, out).transposed(),
                  MatrixView.columnMajor(x, in, tokens),
                  MatrixView.columnMajor(y, out, tokens));
      Matmul withBias = layer.withEpilogue(Epilogue.BIAS, b);
      try (Workspace workspace = blas.workspaceFor(List.of(withBias)).syncOn(stream)) {
        blas.matmul(withBias, workspace).syncOn(stream);
      }
      assertArrayEquals(expected, y.toFloatArray().syncOn(stream), order + " linear layer");
    }
  }

  /** {@return {@code length} integers from -3 to 3, exact in every type} */
  private static float[] integers(int length, long seed) {
    Random random = new Random(seed);
    float[] data = new float[length];
    for (int i = 0; i < length; i++) {
      data[i] = random.nextInt(7) - 3;
    }
    return data;
  }

  private double[] doubles(DeviceBuffer<Float> buffer) {
    return HostMatrices.Contents.download(buffer, stream);
  }

  @Test
  void aProductIsPlannedOnceAndEveryReplayRunsThatPlan() {
    try (DeviceBuffer<Float> a = random(16, 1);
        DeviceBuffer<Float> d = DeviceBuffer.zeros(ElementType.F32, 16).syncOn(stream)) {
      Matmul mm =
          Matmul.of(
              MatrixView.rowMajor(a, 4, 4),
              MatrixView.rowMajor(a, 4, 4).transposed(),
              MatrixView.rowMajor(d, 4, 4));
      MatmulPlanReport report = blas.plan(mm);
      assertEquals(64, report.workspaceBytes(), "16 fp32 accumulators");
      assertTrue(report.algorithm().startsWith("simulated reference"), report.algorithm());
      assertEquals(report, blas.plan(Matmul.of(mm.a(), mm.b(), mm.d())), "an equal product");
      try (Workspace workspace = Workspace.allocate(report.workspaceBytes()).syncOn(stream);
          CudaGraph<@Nullable Void> graph = CudaGraph.capture(stream, blas.matmul(mm, workspace))) {
        for (int i = 0; i < 3; i++) {
          graph.launch().syncOn(stream);
        }
        float[] gram = d.toFloatArray().syncOn(stream);
        for (int i = 0; i < 4; i++) {
          for (int j = 0; j < 4; j++) {
            assertEquals(gram[i * 4 + j], gram[j * 4 + i], "A A^T is symmetric");
          }
        }
      }
    }
  }

  @Test
  void aBlasWithoutWorkspacePlansAlgorithmsThatNeedNone() {
    try (Blas none = Blas.open(platform.defaultDevice(), 0);
        DeviceBuffer<Float> a = random(4, 1);
        DeviceBuffer<Float> d = DeviceBuffer.zeros(ElementType.F32, 4).syncOn(stream);
        Workspace tiny = Workspace.allocate(1).syncOn(stream)) {
      Matmul mm =
          Matmul.of(
              MatrixView.rowMajor(a, 2, 2),
              MatrixView.rowMajor(a, 2, 2),
              MatrixView.rowMajor(d, 2, 2));
      assertEquals(0, none.plan(mm).workspaceBytes());
      none.matmul(mm, tiny).syncOn(stream);
      float[] x = a.toFloatArray().syncOn(stream);
      float[] y = d.toFloatArray().syncOn(stream);
      assertEquals(Math.fma(x[1], x[2], x[0] * x[0]), y[0]);
    }
  }
}
