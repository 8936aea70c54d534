// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 the cuda-graph authors
package cuda.graph.blas.internal.binding;

import java.lang.foreign.FunctionDescriptor;
import java.lang.foreign.MemoryLayout;
import java.lang.foreign.ValueLayout;

/**
 * Every cuBLASLt entry point this module binds, each described once: the exported symbol, the C
 * signature, and whether the library may lack it. {@link CublasLtLibrary} links one downcall per
 * constant; {@link CublasLtErrors} names a failed call by its symbol.
 *
 * <p><b>Signatures.</b> Entry points return a {@code cublasStatus_t} ({@code int}) except {@link
 * #GET_VERSION} ({@code size_t}) and the two status texts ({@code const char *}). Opaque handles
 * ({@code cublasLtHandle_t}, the descriptors, {@code cudaStream_t}), device pointers and {@code
 * size_t} are passed as {@code long}, which the C calling conventions pass exactly like a pointer
 * and which costs no {@link java.lang.foreign.MemorySegment} per call; enums as {@code int}; host
 * memory cuBLASLt reads or writes (out-parameters, attribute values, alpha and beta, the algorithm
 * struct, the heuristic's results) as addresses.
 */
public enum CublasLtEntry {
  /** {@code cublasStatus_t cublasLtCreate(cublasLtHandle_t *handle)} */
  CREATE("cublasLtCreate", status(C.PTR)),
  /** {@code cublasStatus_t cublasLtDestroy(cublasLtHandle_t handle)} */
  DESTROY("cublasLtDestroy", status(C.HANDLE)),
  /** {@code size_t cublasLtGetVersion(void)}: {@code major * 10000 + minor * 100 + patch}. */
  GET_VERSION("cublasLtGetVersion", FunctionDescriptor.of(C.SIZE)),
  /** {@code const char *cublasLtGetStatusName(cublasStatus_t status)}; optional. */
  GET_STATUS_NAME("cublasLtGetStatusName", FunctionDescriptor.of(C.PTR, C.INT), true),
  /** {@code const char *cublasLtGetStatusString(cublasStatus_t status)}; optional. */
  GET_STATUS_STRING("cublasLtGetStatusString", FunctionDescriptor.of(C.PTR, C.INT), true),
  /**
   * {@code cublasStatus_t cublasLtMatmulDescCreate(cublasLtMatmulDesc_t *desc, cublasComputeType_t
   * computeType, cudaDataType_t scaleType)}
   */
  MATMUL_DESC_CREATE("cublasLtMatmulDescCreate", status(C.PTR, C.INT, C.INT)),
  /** {@code cublasStatus_t cublasLtMatmulDescDestroy(cublasLtMatmulDesc_t desc)} */
  MATMUL_DESC_DESTROY("cublasLtMatmulDescDestroy", status(C.HANDLE)),
  /**
   * {@code cublasStatus_t cublasLtMatmulDescSetAttribute(cublasLtMatmulDesc_t desc,
   * cublasLtMatmulDescAttributes_t attr, const void *buf, size_t sizeInBytes)}
   */
  MATMUL_DESC_SET_ATTRIBUTE(
      "cublasLtMatmulDescSetAttribute", status(C.HANDLE, C.INT, C.PTR, C.SIZE)),
  /**
   * {@code cublasStatus_t cublasLtMatrixLayoutCreate(cublasLtMatrixLayout_t *layout, cudaDataType
   * type, uint64_t rows, uint64_t cols, int64_t ld)}
   */
  MATRIX_LAYOUT_CREATE("cublasLtMatrixLayoutCreate", status(C.PTR, C.INT, C.SIZE, C.SIZE, C.SIZE)),
  /** {@code cublasStatus_t cublasLtMatrixLayoutDestroy(cublasLtMatrixLayout_t layout)} */
  MATRIX_LAYOUT_DESTROY("cublasLtMatrixLayoutDestroy", status(C.HANDLE)),
  /**
   * {@code cublasStatus_t cublasLtMatrixLayoutSetAttribute(cublasLtMatrixLayout_t layout,
   * cublasLtMatrixLayoutAttribute_t attr, const void *buf, size_t sizeInBytes)}
   */
  MATRIX_LAYOUT_SET_ATTRIBUTE(
      "cublasLtMatrixLayoutSetAttribute", status(C.HANDLE, C.INT, C.PTR, C.SIZE)),
  /** {@code cublasStatus_t cublasLtMatmulPreferenceCreate(cublasLtMatmulPreference_t *pref)} */
  MATMUL_PREFERENCE_CREATE("cublasLtMatmulPreferenceCreate", status(C.PTR)),
  /** {@code cublasStatus_t cublasLtMatmulPreferenceDestroy(cublasLtMatmulPreference_t pref)} */
  MATMUL_PREFERENCE_DESTROY("cublasLtMatmulPreferenceDestroy", status(C.HANDLE)),
  /**
   * {@code cublasStatus_t cublasLtMatmulPreferenceSetAttribute(cublasLtMatmulPreference_t pref,
   * cublasLtMatmulPreferenceAttributes_t attr, const void *buf, size_t sizeInBytes)}
   */
  MATMUL_PREFERENCE_SET_ATTRIBUTE(
      "cublasLtMatmulPreferenceSetAttribute", status(C.HANDLE, C.INT, C.PTR, C.SIZE)),
  /**
   * {@code cublasStatus_t cublasLtMatmulAlgoGetHeuristic(cublasLtHandle_t handle,
   * cublasLtMatmulDesc_t desc, cublasLtMatrixLayout_t a, ... b, ... c, ... d,
   * cublasLtMatmulPreference_t pref, int requestedAlgoCount, cublasLtMatmulHeuristicResult_t
   * results[], int *returnAlgoCount)}
   */
  MATMUL_ALGO_GET_HEURISTIC(
      "cublasLtMatmulAlgoGetHeuristic",
      status(
          C.HANDLE, C.HANDLE, C.HANDLE, C.HANDLE, C.HANDLE, C.HANDLE, C.HANDLE, C.INT, C.PTR,
          C.PTR)),
  /**
   * {@code cublasStatus_t cublasLtMatmulAlgoConfigGetAttribute(const cublasLtMatmulAlgo_t *algo,
   * cublasLtMatmulAlgoConfigAttributes_t attr, void *buf, size_t sizeInBytes, size_t
   * *sizeWritten)}: only to describe the chosen algorithm.
   */
  MATMUL_ALGO_CONFIG_GET_ATTRIBUTE(
      "cublasLtMatmulAlgoConfigGetAttribute", status(C.PTR, C.INT, C.PTR, C.SIZE, C.PTR)),
  /**
   * {@code cublasStatus_t cublasLtMatmul(cublasLtHandle_t handle, cublasLtMatmulDesc_t desc, const
   * void *alpha, const void *A, cublasLtMatrixLayout_t Adesc, const void *B, ... Bdesc, const void
   * *beta, const void *C, ... Cdesc, void *D, ... Ddesc, const cublasLtMatmulAlgo_t *algo, void
   * *workspace, size_t workspaceSizeInBytes, cudaStream_t stream)}: alpha and beta are host
   * pointers (the default pointer mode).
   */
  MATMUL(
      "cublasLtMatmul",
      status(
          C.HANDLE, C.HANDLE, C.PTR, C.HANDLE, C.HANDLE, C.HANDLE, C.HANDLE, C.PTR, C.HANDLE,
          C.HANDLE, C.HANDLE, C.HANDLE, C.PTR, C.HANDLE, C.SIZE, C.HANDLE));

  private final String symbol;
  private final FunctionDescriptor descriptor;
  private final boolean optional;

  CublasLtEntry(String symbol, FunctionDescriptor descriptor) {
    this(symbol, descriptor, false);
  }

  CublasLtEntry(String symbol, FunctionDescriptor descriptor, boolean optional) {
    this.symbol = symbol;
    this.descriptor = descriptor;
    this.optional = optional;
  }

  /** {@return the exported symbol, e.g. {@code cublasLtMatmul}} */
  public String symbol() {
    return symbol;
  }

  /** {@return the C signature as the FFM API links it: the parameters' layouts and the result's} */
  public FunctionDescriptor descriptor() {
    return descriptor;
  }

  /**
   * {@return whether the library may lack the entry point}: only the status texts, which the error
   * funnel can do without
   */
  public boolean optional() {
    return optional;
  }

  /** {@return the signature of an entry point taking {@code parameters}, returning a status} */
  private static FunctionDescriptor status(MemoryLayout... parameters) {
    return FunctionDescriptor.of(C.INT, parameters);
  }

  /**
   * The layouts of the C types in the signatures; a nested class because enum constants may not
   * refer to the enum's own static fields.
   */
  private static final class C {
    /** {@code int}, {@code cublasStatus_t} and every enum. */
    static final ValueLayout.OfInt INT = ValueLayout.JAVA_INT;

    /** {@code size_t}, {@code uint64_t}, {@code int64_t}. */
    static final ValueLayout.OfLong SIZE = ValueLayout.JAVA_LONG;

    /** Handles, descriptors, {@code cudaStream_t} and device pointers: never dereferenced here. */
    static final ValueLayout.OfLong HANDLE = ValueLayout.JAVA_LONG;

    /** Host pointers: out-parameters, attribute values, scalars, structs, returned strings. */
    static final ValueLayout PTR = ValueLayout.ADDRESS;

    private C() {}
  }
}
