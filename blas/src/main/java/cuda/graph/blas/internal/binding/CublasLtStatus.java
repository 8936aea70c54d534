// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 the cuda-graph authors
package cuda.graph.blas.internal.binding;

/**
 * The {@code cublasStatus_t} codes: their names and, for each, a sentence on what the user can do.
 * The codes are sparse (there is no 2, 4, 5, ...); a code this module does not know is named {@code
 * cublasStatus <n>}, so a message never loses it.
 */
public final class CublasLtStatus {

  /** {@code CUBLAS_STATUS_SUCCESS}. */
  public static final int SUCCESS = 0;

  /** {@code CUBLAS_STATUS_NOT_INITIALIZED}: the library or the handle could not start. */
  public static final int NOT_INITIALIZED = 1;

  /** {@code CUBLAS_STATUS_ALLOC_FAILED}: host or device memory ran out inside cuBLASLt. */
  public static final int ALLOC_FAILED = 3;

  /** {@code CUBLAS_STATUS_INVALID_VALUE}: an argument or combination of them is refused. */
  public static final int INVALID_VALUE = 7;

  /** {@code CUBLAS_STATUS_ARCH_MISMATCH}: the device lacks a feature the operation needs. */
  public static final int ARCH_MISMATCH = 8;

  /** {@code CUBLAS_STATUS_MAPPING_ERROR}: a texture or memory mapping failed. */
  public static final int MAPPING_ERROR = 11;

  /** {@code CUBLAS_STATUS_EXECUTION_FAILED}: the kernel failed to launch or run. */
  public static final int EXECUTION_FAILED = 13;

  /** {@code CUBLAS_STATUS_INTERNAL_ERROR}: an internal operation (often a CUDA call) failed. */
  public static final int INTERNAL_ERROR = 14;

  /** {@code CUBLAS_STATUS_NOT_SUPPORTED}: the combination of types, layouts or epilogue is not. */
  public static final int NOT_SUPPORTED = 15;

  /** {@code CUBLAS_STATUS_LICENSE_ERROR}. */
  public static final int LICENSE_ERROR = 16;

  private CublasLtStatus() {}

  /** {@return whether cuBLAS's headers, as this module knows them, name {@code status}} */
  public static boolean isKnown(int status) {
    return switch (status) {
      case SUCCESS,
          NOT_INITIALIZED,
          ALLOC_FAILED,
          INVALID_VALUE,
          ARCH_MISMATCH,
          MAPPING_ERROR,
          EXECUTION_FAILED,
          INTERNAL_ERROR,
          NOT_SUPPORTED,
          LICENSE_ERROR ->
          true;
      default -> false;
    };
  }

  /**
   * {@return the name of {@code status}, e.g. {@code CUBLAS_STATUS_INVALID_VALUE}}; {@code
   * cublasStatus <n>} for a code this module does not know
   */
  public static String name(int status) {
    return switch (status) {
      case SUCCESS -> "CUBLAS_STATUS_SUCCESS";
      case NOT_INITIALIZED -> "CUBLAS_STATUS_NOT_INITIALIZED";
      case ALLOC_FAILED -> "CUBLAS_STATUS_ALLOC_FAILED";
      case INVALID_VALUE -> "CUBLAS_STATUS_INVALID_VALUE";
      case ARCH_MISMATCH -> "CUBLAS_STATUS_ARCH_MISMATCH";
      case MAPPING_ERROR -> "CUBLAS_STATUS_MAPPING_ERROR";
      case EXECUTION_FAILED -> "CUBLAS_STATUS_EXECUTION_FAILED";
      case INTERNAL_ERROR -> "CUBLAS_STATUS_INTERNAL_ERROR";
      case NOT_SUPPORTED -> "CUBLAS_STATUS_NOT_SUPPORTED";
      case LICENSE_ERROR -> "CUBLAS_STATUS_LICENSE_ERROR";
      default -> "cublasStatus " + status;
    };
  }

  /** {@return one sentence on what to do about {@code status}, starting with a capital} */
  public static String advice(int status) {
    return switch (status) {
      case SUCCESS -> "Nothing to do: the call succeeded.";
      case NOT_INITIALIZED ->
          "cuBLASLt could not start: check that the device works (nvidia-smi) and that the"
              + " library matches the driver's CUDA version.";
      case ALLOC_FAILED ->
          "Memory ran out inside cuBLASLt: free device or host memory, or make fewer distinct"
              + " products.";
      case INVALID_VALUE ->
          "cuBLASLt refused an argument: check the shapes, leading dimensions and strides, that"
              + " every buffer (and slice) is aligned to 16 bytes or more, and that the workspace"
              + " is at least as large as the plan asked for.";
      case ARCH_MISMATCH ->
          "The device lacks a feature this product needs (e.g. bf16 before compute capability"
              + " 8.0): use other types on this device.";
      case MAPPING_ERROR -> "cuBLASLt could not map device memory: check the buffers are alive.";
      case EXECUTION_FAILED ->
          "The kernel failed to launch or run: check earlier GPU work succeeded;"
              + " compute-sanitizer names the fault.";
      case INTERNAL_ERROR ->
          "An operation inside cuBLASLt failed, often a CUDA call: check earlier GPU work"
              + " succeeded; CUBLASLT_LOG_LEVEL=5 shows cuBLASLt's calls.";
      case NOT_SUPPORTED ->
          "cuBLASLt has no kernel for this combination of types, layouts, alignment and epilogue"
              + " on this device: change one of them (CUBLASLT_LOG_LEVEL=5 says which it"
              + " refused).";
      case LICENSE_ERROR -> "cuBLASLt reports a license error: check the CUDA installation.";
      default ->
          "A status this module does not know, perhaps from a newer cuBLAS: CUBLASLT_LOG_LEVEL=5"
              + " shows what failed.";
    };
  }
}
