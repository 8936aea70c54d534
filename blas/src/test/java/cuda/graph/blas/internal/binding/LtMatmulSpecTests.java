// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 the cuda-graph authors
package cuda.graph.blas.internal.binding;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import cuda.graph.ElementType;
import cuda.graph.blas.internal.binding.LtMatmulSpec.Attribute;
import cuda.graph.blas.internal.binding.LtMatmulSpec.Layout;
import cuda.graph.blas.internal.plan.CheckedMatmul;
import cuda.graph.blas.internal.plan.CheckedMatmul.Compute;
import cuda.graph.blas.internal.plan.CheckedMatmul.Epilogue;
import cuda.graph.blas.internal.plan.CheckedMatmul.Order;
import java.util.List;
import java.util.Map;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Test;

/**
 * Which descriptor and layout attributes each kind of product is given: the pure half of planning,
 * so every choice is checked without cuBLASLt.
 */
class LtMatmulSpecTests {

  private static Map<String, Long> byName(List<Attribute> attributes) {
    return attributes.stream().collect(Collectors.toMap(Attribute::name, Attribute::value));
  }

  private static void assertLayout(
      Layout layout, int type, long rows, long cols, long ld, Map<String, Long> attributes) {
    assertEquals(type, layout.type(), layout.role() + " type");
    assertEquals(rows, layout.rows(), layout.role() + " rows");
    assertEquals(cols, layout.cols(), layout.role() + " cols");
    assertEquals(ld, layout.ld(), layout.role() + " ld");
    assertEquals(attributes, byName(layout.attributes()), layout.role() + " attributes");
  }

  @Test
  void aColumnMajorProductIsGivenAsItIsWithDefaultOrderAndItsTransposes() {
    CheckedMatmul m = Products.packed(Order.COLUMN_MAJOR, true, false, 8, 16, 32, ElementType.F16);

    LtMatmulSpec spec = LtMatmulSpec.of(m);

    assertFalse(spec.swapped());
    assertEquals(CublasLtAbi.COMPUTE_32F, spec.computeType());
    assertEquals(CublasLtAbi.R_32F, spec.scaleType());
    assertEquals(
        Map.of(
            "CUBLASLT_MATMUL_DESC_TRANSA", (long) CublasLtAbi.OP_T,
            "CUBLASLT_MATMUL_DESC_TRANSB", (long) CublasLtAbi.OP_N,
            "CUBLASLT_MATMUL_DESC_EPILOGUE", (long) CublasLtAbi.EPILOGUE_DEFAULT),
        byName(spec.attributes()));
    // A is stored k x m (transposed), B k x n, D m x n; column-major ld is the rows.
    assertLayout(spec.a(), CublasLtAbi.R_16F, 32, 8, 32, Map.of());
    assertLayout(spec.b(), CublasLtAbi.R_16F, 32, 16, 32, Map.of());
    assertLayout(spec.d(), CublasLtAbi.R_16F, 8, 16, 8, Map.of());
    assertNull(spec.c(), "beta 0: no C, D stands for it");
    assertFalse(spec.biasData());
  }

  @Test
  void aRowMajorProductWithoutBiasIsTheColumnMajorTransposeWithTheOperandsExchanged() {
    CheckedMatmul m = Products.packed(Order.ROW_MAJOR, false, true, 8, 16, 32, ElementType.BF16);

    LtMatmulSpec spec = LtMatmulSpec.of(m);

    assertTrue(spec.swapped());
    // cuBLASLt's A is our B (stored n x k row-major: k x n column-major), transposed as B was.
    assertLayout(spec.a(), CublasLtAbi.R_16BF, 32, 16, 32, Map.of());
    // cuBLASLt's B is our A (stored m x k row-major: k x m column-major), not transposed.
    assertLayout(spec.b(), CublasLtAbi.R_16BF, 32, 8, 32, Map.of());
    // D' = D transposed: n x m column-major with D's ld.
    assertLayout(spec.d(), CublasLtAbi.R_16BF, 16, 8, 16, Map.of());
    Map<String, Long> attributes = byName(spec.attributes());
    assertEquals(CublasLtAbi.OP_T, attributes.get("CUBLASLT_MATMUL_DESC_TRANSA"), "B's transpose");
    assertEquals(CublasLtAbi.OP_N, attributes.get("CUBLASLT_MATMUL_DESC_TRANSB"), "A's");
  }

  @Test
  void aRowMajorProductWithABiasIsSwappedLikeAnyOtherSoItsBiasRunsAlongTheColumnsOfD() {
    CheckedMatmul m =
        Products.with(
            Order.ROW_MAJOR,
            false,
            false,
            8,
            16,
            32,
            ElementType.F16,
            1,
            Epilogue.BIAS_GELU,
            ElementType.F16,
            Compute.F32);

    LtMatmulSpec spec = LtMatmulSpec.of(m);

    // cuBLASLt's bias is per row of the column-major D' = D^T it computes: per column of our D.
    assertTrue(spec.swapped(), "the bias follows the swap");
    assertTrue(spec.biasData());
    // Default (column) order everywhere: no CUBLASLT_MATRIX_LAYOUT_ORDER attribute.
    assertLayout(spec.a(), CublasLtAbi.R_16F, 16, 32, 16, Map.of());
    assertLayout(spec.b(), CublasLtAbi.R_16F, 32, 8, 32, Map.of());
    assertLayout(spec.d(), CublasLtAbi.R_16F, 16, 8, 16, Map.of());
    assertEquals(
        Map.of(
            "CUBLASLT_MATMUL_DESC_TRANSA", (long) CublasLtAbi.OP_N,
            "CUBLASLT_MATMUL_DESC_TRANSB", (long) CublasLtAbi.OP_N,
            "CUBLASLT_MATMUL_DESC_EPILOGUE", (long) CublasLtAbi.EPILOGUE_GELU_BIAS,
            "CUBLASLT_MATMUL_DESC_BIAS_DATA_TYPE", (long) CublasLtAbi.R_16F),
        byName(spec.attributes()));
  }

  @Test
  void aColumnMajorProductWithABiasIsGivenAsItIsWithItsBiasType() {
    CheckedMatmul m =
        Products.with(
            Order.COLUMN_MAJOR,
            true,
            false,
            8,
            16,
            32,
            ElementType.BF16,
            1,
            Epilogue.BIAS,
            ElementType.BF16,
            Compute.F32);

    LtMatmulSpec spec = LtMatmulSpec.of(m);

    assertFalse(spec.swapped(), "cuBLASLt's bias is per row of D, as ours is");
    assertTrue(spec.biasData());
    assertLayout(spec.a(), CublasLtAbi.R_16BF, 32, 8, 32, Map.of());
    assertLayout(spec.d(), CublasLtAbi.R_16BF, 8, 16, 8, Map.of());
    assertEquals(
        Map.of(
            "CUBLASLT_MATMUL_DESC_TRANSA", (long) CublasLtAbi.OP_T,
            "CUBLASLT_MATMUL_DESC_TRANSB", (long) CublasLtAbi.OP_N,
            "CUBLASLT_MATMUL_DESC_EPILOGUE", (long) CublasLtAbi.EPILOGUE_BIAS,
            "CUBLASLT_MATMUL_DESC_BIAS_DATA_TYPE", (long) CublasLtAbi.R_16BF),
        byName(spec.attributes()));
  }

  @Test
  void everyEpilogueHasItsCublasLtValueAndOnlyTheBiasOnesABiasType() {
    Map<Epilogue, Integer> expected =
        Map.of(
            Epilogue.NONE, 1,
            Epilogue.RELU, 2,
            Epilogue.BIAS, 4,
            Epilogue.BIAS_RELU, 6,
            Epilogue.GELU, 32,
            Epilogue.BIAS_GELU, 36);
    for (Epilogue e : Epilogue.values()) {
      CheckedMatmul m =
          Products.with(
              Order.COLUMN_MAJOR,
              false,
              false,
              4,
              4,
              4,
              ElementType.F32,
              1,
              e,
              e.takesBias() ? ElementType.F32 : null,
              Compute.F32);

      Map<String, Long> attributes = byName(LtMatmulSpec.of(m).attributes());

      assertEquals(
          (long) expected.get(e), attributes.get("CUBLASLT_MATMUL_DESC_EPILOGUE"), e.name());
      assertEquals(
          e.takesBias() ? (Long) (long) CublasLtAbi.R_32F : null,
          attributes.get("CUBLASLT_MATMUL_DESC_BIAS_DATA_TYPE"),
          e.name());
    }
  }

  @Test
  void tf32IsTheFastComputeTypeAndFp32ThePlainOne() {
    CheckedMatmul tf32 =
        Products.with(
            Order.COLUMN_MAJOR,
            false,
            false,
            4,
            4,
            4,
            ElementType.F32,
            1,
            Epilogue.NONE,
            null,
            Compute.TF32);

    assertEquals(CublasLtAbi.COMPUTE_32F_FAST_TF32, LtMatmulSpec.of(tf32).computeType());
    assertEquals(
        CublasLtAbi.COMPUTE_32F,
        LtMatmulSpec.of(Products.packed(Order.COLUMN_MAJOR, false, false, 4, 4, 4, ElementType.F32))
            .computeType());
  }

  @Test
  void aStridedBatchSetsTheCountAndEachMatrixsStrideOnItsLayoutFollowingTheSwap() {
    CheckedMatmul m =
        Products.with(
            Order.ROW_MAJOR,
            false,
            false,
            8,
            16,
            32,
            ElementType.F16,
            3,
            Epilogue.NONE,
            null,
            Compute.F32);

    LtMatmulSpec spec = LtMatmulSpec.of(m);

    assertEquals(
        Map.of(
            "CUBLASLT_MATRIX_LAYOUT_BATCH_COUNT",
            3L,
            "CUBLASLT_MATRIX_LAYOUT_STRIDED_BATCH_OFFSET",
            m.strideB()),
        byName(spec.a().attributes()),
        "cuBLASLt's A is our B");
    assertEquals(
        m.strideA(),
        byName(spec.b().attributes()).get("CUBLASLT_MATRIX_LAYOUT_STRIDED_BATCH_OFFSET"));
    assertEquals(
        m.strideD(),
        byName(spec.d().attributes()).get("CUBLASLT_MATRIX_LAYOUT_STRIDED_BATCH_OFFSET"));
    Attribute stride = spec.d().attributes().get(1);
    assertEquals(8, stride.size(), "int64_t");
    assertEquals(4, spec.d().attributes().get(0).size(), "the count is int32_t");
  }

  @Test
  void theOperandsAlignmentsReachTheHeuristicInCublasLtsNamingSwappedForARowMajorProduct() {
    CheckedMatmul row = Products.packed(Order.ROW_MAJOR, false, false, 8, 16, 32, ElementType.F16);
    // Row-major: cuBLASLt's A is our B, its B our A.
    assertEquals(
        List.of(16, 2, 64, 128),
        LtMatmulSpec.of(Products.aligned(row, 2, 16, 64, 128)).alignments());
    CheckedMatmul column =
        Products.packed(Order.COLUMN_MAJOR, false, false, 8, 16, 32, ElementType.F16);
    assertEquals(
        List.of(2, 16, 64, 128),
        LtMatmulSpec.of(Products.aligned(column, 2, 16, 64, 128)).alignments());
  }

  @Test
  void anAlignmentThatIsNoPowerOfTwoUpTo256IsNoProduct() {
    CheckedMatmul column =
        Products.packed(Order.COLUMN_MAJOR, false, false, 8, 16, 32, ElementType.F16);
    org.junit.jupiter.api.Assertions.assertThrows(
        IllegalArgumentException.class, () -> Products.aligned(column, 24, 16, 64, 128));
  }

  @Test
  void aProductWithCGetsALayoutOfItsOwn() {
    CheckedMatmul packed =
        Products.packed(Order.COLUMN_MAJOR, false, false, 8, 16, 32, ElementType.F32);
    CheckedMatmul withC =
        new CheckedMatmul(
            8,
            16,
            32,
            Order.COLUMN_MAJOR,
            false,
            false,
            ElementType.F32,
            ElementType.F32,
            ElementType.F32,
            Compute.F32,
            8,
            32,
            10,
            8,
            1,
            0,
            0,
            0,
            0,
            1f,
            0.5f,
            Epilogue.NONE,
            null,
            256,
            256,
            256,
            256);

    Layout c = LtMatmulSpec.of(withC).c();

    assertNull(LtMatmulSpec.of(packed).c());
    assertNotNull(c);
    assertLayout(c, CublasLtAbi.R_32F, 8, 16, 10, Map.of());
  }

  @Test
  void theDescriptionNamesShapesTypesAndEpilogue() {
    CheckedMatmul m =
        Products.with(
            Order.ROW_MAJOR,
            false,
            true,
            8,
            16,
            32,
            ElementType.F16,
            2,
            Epilogue.BIAS_RELU,
            ElementType.F16,
            Compute.F32);

    assertEquals(
        "the row-major product 2 x D[8x16] = A[8x32] B'[32x16], f16 x f16 -> f16, compute F32,"
            + " epilogue BIAS_RELU (bias f16)",
        LtMatmulSpec.describe(m));
  }
}
