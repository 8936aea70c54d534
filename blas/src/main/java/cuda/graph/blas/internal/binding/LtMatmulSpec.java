// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 the cuda-graph authors
package cuda.graph.blas.internal.binding;

import cuda.graph.ElementType;
import cuda.graph.blas.internal.plan.CheckedMatmul;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import org.jspecify.annotations.Nullable;

/**
 * What cuBLASLt is told for one {@link CheckedMatmul}: the descriptor's compute and scale types and
 * attributes, and the four matrix layouts with theirs. A pure function of the product, so the
 * choice of every attribute is tested without the library; {@link CublasLtBackend} only replays it
 * through the binding.
 *
 * <p><b>Row-major products.</b> cuBLASLt is column-major at heart. A row-major matrix is the
 * column-major view of its transpose, so D = op(A) op(B) in row-major is D' = op(B)' op(A)' in
 * column-major with the operands exchanged: cuBLASLt's A is our B, its m is our n, and every layout
 * keeps its leading dimension ({@link #swapped()}). Every row-major product is given so, and no
 * layout is ever ordered by rows ({@code CUBLASLT_ORDER_ROW}, with which cuBLASLt reports bias
 * epilogues as not supported): it leaves every layout in the order the fastest kernels are written
 * for, the way other frameworks call cuBLASLt. The elementwise epilogues (ReLU, GELU) do not care,
 * and the bias follows the swap: cuBLASLt adds it per row of the column-major D' it computes, that
 * is per column of our row-major D, which is where {@link CheckedMatmul} puts it (one element per
 * index of D's contiguous dimension, n of them). A column-major product is given as it is, its bias
 * per row of D.
 *
 * @param computeType the {@code cublasComputeType_t} the descriptor is created with
 * @param scaleType the {@code cudaDataType_t} of alpha and beta, created with it
 * @param swapped whether cuBLASLt's A is our B and its B our A (every row-major product)
 * @param attributes the descriptor's attributes, set in this order after it is created
 * @param a the layout of cuBLASLt's A (our B when swapped)
 * @param b the layout of cuBLASLt's B (our A when swapped)
 * @param c the layout of C, or null when the product has none ({@code beta == 0}): then D's layout
 *     and D's address stand for C, which cuBLASLt does not read
 * @param d the layout of D
 * @param biasData whether the bias pointer is set on the descriptor before every call
 * @param alignments the alignments in bytes of cuBLASLt's A, B, C and D (in its naming: swapped
 *     with the operands for a row-major product), given to the heuristic as the preferences {@code
 *     CUBLASLT_MATMUL_PREF_MIN_ALIGNMENT_A_BYTES} to {@code _D_BYTES}
 */
public record LtMatmulSpec(
    int computeType,
    int scaleType,
    boolean swapped,
    List<Attribute> attributes,
    Layout a,
    Layout b,
    @Nullable Layout c,
    Layout d,
    boolean biasData,
    List<Integer> alignments) {

  /** Copies the lists. */
  public LtMatmulSpec {
    attributes = List.copyOf(attributes);
    alignments = List.copyOf(alignments);
  }

  /**
   * One attribute of a descriptor or a layout: its id, its name for messages and tests, its value
   * and the size of its C type.
   *
   * @param id the attribute id
   * @param name the attribute's C name
   * @param value its value, as a 4-byte or 8-byte integer
   * @param size 4 or 8
   */
  public record Attribute(int id, String name, long value, int size) {

    static Attribute int32(int id, String name, int value) {
      return new Attribute(id, name, value, Integer.BYTES);
    }

    static Attribute int64(int id, String name, long value) {
      return new Attribute(id, name, value, Long.BYTES);
    }
  }

  /**
   * One matrix as cuBLASLt sees it.
   *
   * @param role which matrix, for messages: {@code A}, {@code B}, {@code C} or {@code D} in
   *     cuBLASLt's naming
   * @param type its {@code cudaDataType_t}
   * @param rows its rows as stored (before the transpose the descriptor applies)
   * @param cols its columns as stored
   * @param ld its leading dimension
   * @param attributes set in this order after the layout is created
   */
  public record Layout(
      String role, int type, long rows, long cols, long ld, List<Attribute> attributes) {

    /** Copies the list. */
    public Layout {
      attributes = List.copyOf(attributes);
    }
  }

  /** {@return what cuBLASLt is told for {@code m}} */
  public static LtMatmulSpec of(CheckedMatmul m) {
    boolean rowMajor = m.order() == CheckedMatmul.Order.ROW_MAJOR;
    boolean bias = m.epilogue().takesBias();
    boolean swapped = rowMajor;

    int compute =
        m.compute() == CheckedMatmul.Compute.TF32
            ? CublasLtAbi.COMPUTE_32F_FAST_TF32
            : CublasLtAbi.COMPUTE_32F;

    // Our A, as stored: m x k, or k x m when transA; likewise B: k x n, or n x k.
    long aRows = m.transA() ? m.k() : m.m();
    long aCols = m.transA() ? m.m() : m.k();
    long bRows = m.transB() ? m.n() : m.k();
    long bCols = m.transB() ? m.k() : m.n();
    int aType = CublasLtAbi.dataType(m.a());
    int bType = CublasLtAbi.dataType(m.b());
    int cType = CublasLtAbi.dataType(m.c());

    Layout ltA;
    Layout ltB;
    Layout ltC;
    Layout ltD;
    int transA;
    int transB;
    if (swapped) {
      // The column-major view of a row-major r x c matrix is its transpose, c x r, with the same
      // ld.
      ltA = layout("A", bType, bCols, bRows, m.ldb(), m.batch(), m.strideB());
      ltB = layout("B", aType, aCols, aRows, m.lda(), m.batch(), m.strideA());
      ltC = layout("C", cType, m.n(), m.m(), m.ldc(), m.batch(), m.strideC());
      ltD = layout("D", cType, m.n(), m.m(), m.ldd(), m.batch(), m.strideD());
      transA = m.transB() ? CublasLtAbi.OP_T : CublasLtAbi.OP_N;
      transB = m.transA() ? CublasLtAbi.OP_T : CublasLtAbi.OP_N;
    } else {
      ltA = layout("A", aType, aRows, aCols, m.lda(), m.batch(), m.strideA());
      ltB = layout("B", bType, bRows, bCols, m.ldb(), m.batch(), m.strideB());
      ltC = layout("C", cType, m.m(), m.n(), m.ldc(), m.batch(), m.strideC());
      ltD = layout("D", cType, m.m(), m.n(), m.ldd(), m.batch(), m.strideD());
      transA = m.transA() ? CublasLtAbi.OP_T : CublasLtAbi.OP_N;
      transB = m.transB() ? CublasLtAbi.OP_T : CublasLtAbi.OP_N;
    }

    List<Attribute> attributes = new ArrayList<>();
    attributes.add(Attribute.int32(CublasLtAbi.DESC_TRANSA, "CUBLASLT_MATMUL_DESC_TRANSA", transA));
    attributes.add(Attribute.int32(CublasLtAbi.DESC_TRANSB, "CUBLASLT_MATMUL_DESC_TRANSB", transB));
    attributes.add(
        Attribute.int32(
            CublasLtAbi.DESC_EPILOGUE, "CUBLASLT_MATMUL_DESC_EPILOGUE", epilogue(m.epilogue())));
    if (bias) {
      ElementType<?> biasType =
          Objects.requireNonNull(m.bias(), "a product with a bias epilogue has a bias type");
      attributes.add(
          Attribute.int32(
              CublasLtAbi.DESC_BIAS_DATA_TYPE,
              "CUBLASLT_MATMUL_DESC_BIAS_DATA_TYPE",
              CublasLtAbi.dataType(biasType)));
      // The bias vector is the same for every matrix of a batch: the batch stride stays 0. Its
      // pointer is set before every call; its length is the rows of the D cuBLASLt computes (our
      // n when swapped, our m when not), as CheckedMatmul's rule says.
    }
    boolean hasC = m.beta() != 0f;
    List<Integer> alignments =
        swapped
            ? List.of(m.alignB(), m.alignA(), m.alignC(), m.alignD())
            : List.of(m.alignA(), m.alignB(), m.alignC(), m.alignD());
    return new LtMatmulSpec(
        compute,
        CublasLtAbi.R_32F,
        swapped,
        attributes,
        ltA,
        ltB,
        hasC ? ltC : null,
        ltD,
        bias,
        alignments);
  }

  /** {@return a one-line description of {@code m}, for messages and the plan's report} */
  public static String describe(CheckedMatmul m) {
    return m.describe();
  }

  /** {@return the {@code cublasLtEpilogue_t} of {@code e}} */
  static int epilogue(CheckedMatmul.Epilogue e) {
    return switch (e) {
      case NONE -> CublasLtAbi.EPILOGUE_DEFAULT;
      case RELU -> CublasLtAbi.EPILOGUE_RELU;
      case GELU -> CublasLtAbi.EPILOGUE_GELU;
      case BIAS -> CublasLtAbi.EPILOGUE_BIAS;
      case BIAS_RELU -> CublasLtAbi.EPILOGUE_RELU_BIAS;
      case BIAS_GELU -> CublasLtAbi.EPILOGUE_GELU_BIAS;
    };
  }

  private static Layout layout(
      String role, int type, long rows, long cols, long ld, int batch, long stride) {
    // Every layout keeps cuBLASLt's default column order: a row-major product is swapped instead.
    List<Attribute> attributes = new ArrayList<>();
    if (batch > 1) {
      attributes.add(
          Attribute.int32(
              CublasLtAbi.LAYOUT_BATCH_COUNT, "CUBLASLT_MATRIX_LAYOUT_BATCH_COUNT", batch));
      attributes.add(
          Attribute.int64(
              CublasLtAbi.LAYOUT_STRIDED_BATCH_OFFSET,
              "CUBLASLT_MATRIX_LAYOUT_STRIDED_BATCH_OFFSET",
              stride));
    }
    return new Layout(role, type, rows, cols, ld, attributes);
  }
}
