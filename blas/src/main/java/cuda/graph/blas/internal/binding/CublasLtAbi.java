// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 the cuda-graph authors
package cuda.graph.blas.internal.binding;

import cuda.graph.ElementType;
import java.lang.foreign.MemoryLayout;
import java.lang.foreign.StructLayout;
import java.lang.foreign.ValueLayout;

/**
 * The numbers and struct layouts of cuBLASLt's C interface that this module uses, as cuBLAS 12 and
 * 13 define them (their values did not change between the two): data types, compute types,
 * attribute ids and their values, and the two structs passed by address. Only what the backend sets
 * is here; everything else keeps cuBLASLt's default.
 */
public final class CublasLtAbi {

  // cudaDataType_t: the element types of matrices, bias and scalars.

  /** {@code CUDA_R_32F}: fp32. */
  public static final int R_32F = 0;

  /** {@code CUDA_R_16F}: IEEE fp16. */
  public static final int R_16F = 2;

  /** {@code CUDA_R_16BF}: bfloat16. */
  public static final int R_16BF = 14;

  // cublasComputeType_t: how products are multiplied and accumulated.

  /** {@code CUBLAS_COMPUTE_32F}: fp32 multiply-add, inputs never rounded down. */
  public static final int COMPUTE_32F = 68;

  /** {@code CUBLAS_COMPUTE_32F_FAST_TF32}: fp32 inputs may be rounded to TF32 for tensor cores. */
  public static final int COMPUTE_32F_FAST_TF32 = 77;

  // cublasOperation_t.

  /** {@code CUBLAS_OP_N}: the matrix as stored. */
  public static final int OP_N = 0;

  /** {@code CUBLAS_OP_T}: its transpose. */
  public static final int OP_T = 1;

  // cublasLtEpilogue_t (a bit set: RELU 2, BIAS 4, GELU 32).

  /** {@code CUBLASLT_EPILOGUE_DEFAULT}: only scaling. */
  public static final int EPILOGUE_DEFAULT = 1;

  /** {@code CUBLASLT_EPILOGUE_RELU}. */
  public static final int EPILOGUE_RELU = 2;

  /**
   * {@code CUBLASLT_EPILOGUE_BIAS}: a bias per row of the column-major D cuBLASLt computes,
   * broadcast over its columns.
   */
  public static final int EPILOGUE_BIAS = 4;

  /** {@code CUBLASLT_EPILOGUE_RELU_BIAS}: bias, then ReLU. */
  public static final int EPILOGUE_RELU_BIAS = 6;

  /** {@code CUBLASLT_EPILOGUE_GELU}: GELU, tanh approximation. */
  public static final int EPILOGUE_GELU = 32;

  /** {@code CUBLASLT_EPILOGUE_GELU_BIAS}: bias, then GELU. */
  public static final int EPILOGUE_GELU_BIAS = 36;

  // cublasLtMatmulDescAttributes_t, with the C type of each value.

  /** {@code CUBLASLT_MATMUL_DESC_TRANSA}: int32, a cublasOperation_t. */
  public static final int DESC_TRANSA = 3;

  /** {@code CUBLASLT_MATMUL_DESC_TRANSB}: int32, a cublasOperation_t. */
  public static final int DESC_TRANSB = 4;

  /** {@code CUBLASLT_MATMUL_DESC_EPILOGUE}: uint32, a cublasLtEpilogue_t. */
  public static final int DESC_EPILOGUE = 7;

  /** {@code CUBLASLT_MATMUL_DESC_BIAS_POINTER}: a device pointer. */
  public static final int DESC_BIAS_POINTER = 8;

  /** {@code CUBLASLT_MATMUL_DESC_BIAS_DATA_TYPE}: int32, a cudaDataType_t. */
  public static final int DESC_BIAS_DATA_TYPE = 26;

  // cublasLtMatrixLayoutAttribute_t. Layouts keep the default column order (CUBLASLT_ORDER_COL):
  // row-major products are given as their column-major transpose.

  /** {@code CUBLASLT_MATRIX_LAYOUT_BATCH_COUNT}: int32. */
  public static final int LAYOUT_BATCH_COUNT = 5;

  /** {@code CUBLASLT_MATRIX_LAYOUT_STRIDED_BATCH_OFFSET}: int64, in elements. */
  public static final int LAYOUT_STRIDED_BATCH_OFFSET = 6;

  // cublasLtMatmulPreferenceAttributes_t.

  /** {@code CUBLASLT_MATMUL_PREF_MAX_WORKSPACE_BYTES}: uint64. */
  public static final int PREF_MAX_WORKSPACE_BYTES = 1;

  /**
   * {@code CUBLASLT_MATMUL_PREF_MIN_ALIGNMENT_A_BYTES}: uint32; B, C and D follow (6, 7, 8). The
   * heuristic assumes 256 unless told, and an algorithm it chose for a more aligned pointer is
   * refused when the product runs ({@code CUBLAS_STATUS_NOT_SUPPORTED}).
   */
  public static final int PREF_MIN_ALIGNMENT_A_BYTES = 5;

  // cublasLtMatmulAlgoConfigAttributes_t, read to describe an algorithm.

  /** {@code CUBLASLT_ALGO_CONFIG_ID}: int32. */
  public static final int ALGO_CONFIG_ID = 0;

  /** {@code CUBLASLT_ALGO_CONFIG_TILE_ID}: uint32, a cublasLtMatmulTile_t. */
  public static final int ALGO_CONFIG_TILE_ID = 1;

  /** {@code CUBLASLT_ALGO_CONFIG_SPLITK_NUM}: int32. */
  public static final int ALGO_CONFIG_SPLITK_NUM = 2;

  /** {@code CUBLASLT_ALGO_CONFIG_STAGES_ID}: uint32, a cublasLtMatmulStages_t. */
  public static final int ALGO_CONFIG_STAGES_ID = 6;

  /**
   * {@code cublasLtMatmulAlgo_t}: eight opaque 64-bit words, copied by value (the heuristic writes
   * one, {@code cublasLtMatmul} reads it through a pointer).
   */
  public static final StructLayout ALGO =
      MemoryLayout.structLayout(
              MemoryLayout.sequenceLayout(8, ValueLayout.JAVA_LONG).withName("data"))
          .withName("cublasLtMatmulAlgo_t");

  /**
   * {@code cublasLtMatmulHeuristicResult_t}: the algorithm, the workspace it needs ({@code
   * size_t}), its {@code cublasStatus_t} (the other fields count only when it is SUCCESS), its
   * waves count (a float, the device's occupancy) and four reserved ints.
   */
  public static final StructLayout HEURISTIC_RESULT =
      MemoryLayout.structLayout(
              ALGO.withName("algo"),
              ValueLayout.JAVA_LONG.withName("workspaceSize"),
              ValueLayout.JAVA_INT.withName("state"),
              ValueLayout.JAVA_FLOAT.withName("wavesCount"),
              MemoryLayout.sequenceLayout(4, ValueLayout.JAVA_INT).withName("reserved"))
          .withName("cublasLtMatmulHeuristicResult_t");

  /** Byte offset of {@code workspaceSize} in {@link #HEURISTIC_RESULT}. */
  public static final long RESULT_WORKSPACE_SIZE =
      HEURISTIC_RESULT.byteOffset(MemoryLayout.PathElement.groupElement("workspaceSize"));

  /** Byte offset of {@code state} in {@link #HEURISTIC_RESULT}. */
  public static final long RESULT_STATE =
      HEURISTIC_RESULT.byteOffset(MemoryLayout.PathElement.groupElement("state"));

  /** Byte offset of {@code wavesCount} in {@link #HEURISTIC_RESULT}. */
  public static final long RESULT_WAVES_COUNT =
      HEURISTIC_RESULT.byteOffset(MemoryLayout.PathElement.groupElement("wavesCount"));

  private CublasLtAbi() {}

  /**
   * {@return the {@code cudaDataType_t} of {@code type}}
   *
   * @throws IllegalArgumentException for a type cuBLASLt's matmuls here do not take (only F32, F16
   *     and BF16)
   */
  public static int dataType(ElementType<?> type) {
    // ElementType's instances are constants, compared by identity.
    if (type == ElementType.F32) {
      return R_32F;
    } else if (type == ElementType.F16) {
      return R_16F;
    } else if (type == ElementType.BF16) {
      return R_16BF;
    }
    throw new IllegalArgumentException(
        "the cuBLASLt backend multiplies f32, f16 and bf16 matrices, not " + type);
  }
}
