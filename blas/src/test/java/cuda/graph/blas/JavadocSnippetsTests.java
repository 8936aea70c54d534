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
import org.jspecify.annotations.Nullable;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * The examples in the blas module's Javadoc: each {@code @start region=...} to {@code @end} below
 * is shown by a {@code {@snippet class=cuda.graph.blas.JavadocSnippetsTests region=...}} tag (the
 * javadoc tool reads this file through {@code --snippet-path src/test/java}), so every example
 * compiles with the tests and runs here, on a simulator.
 */
class JavadocSnippetsTests {

  private CudaPlatform platform;
  private Stream stream;

  @BeforeEach
  void openStream() {
    platform = CudaPlatform.forDriver(Simulator.builder().build(), "simulator");
    stream = platform.defaultDevice().newStream();
  }

  @AfterEach
  void closePlatform() {
    stream.close();
    platform.close();
  }

  private DeviceBuffer<Float> floats(float... values) {
    return DeviceBuffer.fromArray(values).syncOn(stream);
  }

  @Test
  void blas() {
    float[] product;
    // @start region=blas
    try (DeviceBuffer<Float> a = floats(1, 2, 3, 4); // 2 x 2, row-major
        DeviceBuffer<Float> b = floats(1, 0, 0, 1); // the identity
        DeviceBuffer<Float> d = DeviceBuffer.zeros(ElementType.F32, 4).syncOn(stream);
        Blas blas = Blas.open(stream.device())) { // one per device
      Matmul ab =
          Matmul.of(
              MatrixView.rowMajor(a, 2, 2),
              MatrixView.rowMajor(b, 2, 2),
              MatrixView.rowMajor(d, 2, 2));
      try (Workspace workspace = blas.workspaceFor(List.of(ab)).syncOn(stream); // before capture
          CudaGraph<@Nullable Void> graph = CudaGraph.capture(stream, blas.matmul(ab, workspace))) {
        graph.launch().syncOn(stream); // the planned product, replayed: no planning, no allocation
      }
      product = d.toFloatArray().syncOn(stream); // [1.0, 2.0, 3.0, 4.0]
    }
    // @end
    assertArrayEquals(new float[] {1, 2, 3, 4}, product);
  }

  @Test
  void plan() {
    try (DeviceBuffer<Float> a = floats(1, 2, 3, 4);
        DeviceBuffer<Float> d = DeviceBuffer.zeros(ElementType.F32, 4).syncOn(stream);
        Blas blas = Blas.open(stream.device())) {
      Matmul aa =
          Matmul.of(
              MatrixView.rowMajor(a, 2, 2),
              MatrixView.rowMajor(a, 2, 2),
              MatrixView.rowMajor(d, 2, 2));
      // @start region=plan
      MatmulPlanReport plan = blas.plan(aa); // planned once for this product, then reused
      long need = plan.workspaceBytes(); // what a Workspace for it must hold, at most the limit
      String algorithm = plan.algorithm(); // one line: cuBLASLt's choice, or the Java reference
      // @end
      assertEquals(need, blas.plan(aa).workspaceBytes(), "the same plan again");
      assertTrue(!algorithm.isBlank(), algorithm);
    }
  }

  @Test
  void matmul() {
    int tokens = 2;
    float[] y0;
    // @start region=matmul
    try (DeviceBuffer<Float> x =
            DeviceBuffer.filled(ElementType.F32, tokens * 384, 0.5f).syncOn(stream);
        DeviceBuffer<Float> w =
            DeviceBuffer.filled(ElementType.F32, 1536 * 384, 0.01f).syncOn(stream);
        DeviceBuffer<Float> b = DeviceBuffer.filled(ElementType.F32, 1536, 1f).syncOn(stream);
        DeviceBuffer<Float> y = DeviceBuffer.zeros(ElementType.F32, tokens * 1536).syncOn(stream);
        Blas blas = Blas.open(stream.device())) {
      // A linear layer, y = relu(x w^T + b), all row-major: b has one value per output feature.
      Matmul up =
          Matmul.of(
                  MatrixView.rowMajor(x, tokens, 384), // x: tokens x 384
                  MatrixView.rowMajor(w, 1536, 384).transposed(), // op(B) = w^T: 384 x 1536
                  MatrixView.rowMajor(y, tokens, 1536)) // y: tokens x 1536
              .withEpilogue(Epilogue.BIAS_RELU, b); // b: 1536 elements, one per column of y
      try (Workspace workspace = blas.workspaceFor(List.of(up)).syncOn(stream)) {
        blas.matmul(up, workspace).syncOn(stream); // eagerly here; captured just the same
      }
      y0 = y.toFloatArray().syncOn(stream); // every element 384 * 0.5 * 0.01 + 1 = 2.92
    }
    // @end
    for (float v : y0) {
      assertEquals(2.92f, v, 1e-4f);
    }
  }

  @Test
  void matrixView() {
    try (DeviceBuffer<Float> buffer =
        DeviceBuffer.zeros(ElementType.F32, 8 * 64 * 136).syncOn(stream)) {
      // @start region=matrix-view
      // 8 row-major 64 x 128 matrices, each row padded to 136 elements, one after the other
      MatrixView x =
          MatrixView.rowMajor(buffer, 64, 128).withLeadingDimension(136).batched(8, 64 * 136);
      // @end
      assertEquals(7 * 64 * 136 + 63 * 136 + 128, x.elementsSpanned());
      assertEquals(8, x.batch());
    }
  }

  @Test
  void workspace() {
    float[] out;
    // @start region=workspace
    try (DeviceBuffer<Float> x = floats(1, 2); // 1 x 2
        DeviceBuffer<Float> w1 = floats(1, 0, 0, 1); // 2 x 2
        DeviceBuffer<Float> w2 = floats(3, 0, 0, 3); // 2 x 2
        DeviceBuffer<Float> h = DeviceBuffer.zeros(ElementType.F32, 2).syncOn(stream);
        DeviceBuffer<Float> y = DeviceBuffer.zeros(ElementType.F32, 2).syncOn(stream);
        Blas blas = Blas.open(stream.device())) {
      Matmul up =
          Matmul.of(
              MatrixView.rowMajor(x, 1, 2),
              MatrixView.rowMajor(w1, 2, 2),
              MatrixView.rowMajor(h, 1, 2));
      Matmul down =
          Matmul.of(
              MatrixView.rowMajor(h, 1, 2),
              MatrixView.rowMajor(w2, 2, 2),
              MatrixView.rowMajor(y, 1, 2));
      CudaGraph<@Nullable Void> layer;
      // One workspace for both: they run one after the other in the graph.
      try (Workspace workspace = blas.workspaceFor(List.of(up, down)).syncOn(stream)) {
        layer =
            CudaGraph.capture(
                stream, blas.matmul(up, workspace).andThen(blas.matmul(down, workspace)));
      } // closing the workspace frees nothing the graph still replays
      try (layer) {
        layer.launch().syncOn(stream);
      } // the memory goes once the graph and its launches let go
      out = y.toFloatArray().syncOn(stream); // [3.0, 6.0]
    }
    // @end
    assertArrayEquals(new float[] {3, 6}, out);
  }
}
