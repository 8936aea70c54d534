// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 the cuda-graph authors
package example;

import cuda.graph.CudaGraph;
import cuda.graph.CudaPlatform;
import cuda.graph.DeviceBuffer;
import cuda.graph.ElementType;
import cuda.graph.Stream;
import cuda.graph.blas.Blas;
import cuda.graph.blas.Epilogue;
import cuda.graph.blas.Matmul;
import cuda.graph.blas.MatmulPlanReport;
import cuda.graph.blas.MatrixView;
import cuda.graph.blas.Workspace;
import java.util.List;
import java.util.Random;
import org.jspecify.annotations.Nullable;

/** A linear layer with bias and GELU as one cuBLASLt matmul node, captured and replayed. */
public class MatmulLayer {

  public static void main(String[] args) {
    int tokens = 4;
    float[] input = random(tokens * 384, 1);
    float[] weights = random(1536 * 384, 2);
    float[] biases = random(1536, 3);
    float[] out;
    try (Stream stream = CudaPlatform.system().defaultDevice().newStream();
        Blas blas = Blas.open(stream.device()); // one per device
        DeviceBuffer<Float> x = DeviceBuffer.fromArray(input).syncOn(stream); // tokens x 384
        DeviceBuffer<Float> w = DeviceBuffer.fromArray(weights).syncOn(stream); // 1536 x 384
        DeviceBuffer<Float> b = DeviceBuffer.fromArray(biases).syncOn(stream); // 1536
        DeviceBuffer<Float> y = DeviceBuffer.zeros(ElementType.F32, tokens * 1536).syncOn(stream)) {
      // y = gelu(x w^T + b), all row-major; b: one value per column of y (output feature)
      Matmul up =
          Matmul.of(
                  MatrixView.rowMajor(x, tokens, 384),
                  MatrixView.rowMajor(w, 1536, 384).transposed(),
                  MatrixView.rowMajor(y, tokens, 1536))
              .withEpilogue(Epilogue.BIAS_GELU, b);
      MatmulPlanReport plan = blas.plan(up); // planned once: algorithm and workspace need
      try (Workspace workspace = blas.workspaceFor(List.of(up)).syncOn(stream); // before capture
          CudaGraph<@Nullable Void> layer = CudaGraph.capture(stream, blas.matmul(up, workspace))) {
        layer.launch().syncOn(stream); // replays: no planning, no allocation
      }
      out = y.toFloatArray().syncOn(stream);
    }
    double worst = 0; // against the same layer in Java, with the tanh GELU cuBLASLt uses
    for (int t = 0; t < tokens; t++) {
      for (int o = 0; o < 1536; o++) {
        double sum = biases[o];
        for (int p = 0; p < 384; p++) {
          sum += (double) input[t * 384 + p] * weights[o * 384 + p];
        }
        double gelu =
            0.5
                * sum
                * (1 + Math.tanh(Math.sqrt(2 / Math.PI) * (sum + 0.044715 * sum * sum * sum)));
        worst = Math.max(worst, Math.abs(gelu - out[t * 1536 + o]));
      }
    }
    // prints: 4 x 1536 outputs, within 1e-4 of Java: true
    System.out.println(tokens + " x 1536 outputs, within 1e-4 of Java: " + (worst < 1e-4));
  }

  static float[] random(int length, long seed) {
    Random random = new Random(seed);
    float[] values = new float[length];
    for (int i = 0; i < length; i++) {
      values[i] = (float) (random.nextDouble() - 0.5);
    }
    return values;
  }
}
