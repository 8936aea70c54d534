// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 the cuda-graph authors
package cuda.graph.blas;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import cuda.graph.CudaPlatform;
import cuda.graph.DeviceBuffer;
import cuda.graph.ElementType;
import cuda.graph.GraphNode;
import cuda.graph.Stream;
import java.util.List;
import org.jspecify.annotations.Nullable;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

/**
 * Issue 36 item B on real cuBLASLt: a product whose plan cuBLASLt's heuristic returns but which
 * cublasLtMatmul refuses (f16 x f16 -> f32, compute F32, BIAS_GELU with an f32 bias, A transposed,
 * column-major D 64x64 from k = 16) is refused when it is made, or runs; it never fails at launch.
 */
@Tag("gpu")
class CudaUnrunnableProductGpuTests {

  @Test
  void aProductCublasLtCannotRunIsRefusedWhenMadeNotWhenLaunched() {
    CudaPlatform system = CudaPlatform.system();
    Assumptions.assumeTrue(
        system.providerId().equals("cuda"),
        "no GPU: the system platform is '" + system.providerId() + "'");
    try (Stream stream = system.defaultDevice().newStream();
        Blas blas = Blas.open(system.defaultDevice());
        DeviceBuffer<Short> a = DeviceBuffer.zeros(ElementType.F16, 16 * 64).syncOn(stream);
        DeviceBuffer<Short> b = DeviceBuffer.zeros(ElementType.F16, 16 * 64).syncOn(stream);
        DeviceBuffer<Float> d = DeviceBuffer.zeros(ElementType.F32, 64 * 64).syncOn(stream);
        DeviceBuffer<Float> bias = DeviceBuffer.zeros(ElementType.F32, 64).syncOn(stream)) {
      Matmul product =
          Matmul.of(
                  MatrixView.columnMajor(a, 16, 64).transposed(),
                  MatrixView.columnMajor(b, 16, 64),
                  MatrixView.columnMajor(d, 64, 64))
              .withEpilogue(Epilogue.BIAS_GELU, bias);
      @Nullable GraphNode<@Nullable Void> node = null;
      Workspace workspace = null;
      try {
        workspace = blas.workspaceFor(List.of(product)).syncOn(stream);
        node = blas.matmul(product, workspace);
      } catch (BlasException refused) {
        assertEquals("CUBLAS_STATUS_NOT_SUPPORTED", refused.statusName(), refused.getMessage());
        assertTrue(refused.getMessage().contains("BIAS_GELU"), refused.getMessage());
        return;
      }
      try {
        node.syncOn(stream); // made, so it must run
      } finally {
        workspace.close();
      }
    }
  }
}
