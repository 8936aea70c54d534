// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 the cuda-graph authors
package cuda.graph.blas;

import static org.apiguardian.api.API.Status.EXPERIMENTAL;

import java.util.Objects;
import org.apiguardian.api.API;

/**
 * A cuBLASLt call failed, or a backend has no algorithm for a product. Carries the entry point that
 * failed, its {@code cublasStatus_t} code and name, and a sentence on what to do; the message holds
 * all of them.
 *
 * @since 0.1.0
 */
@API(status = EXPERIMENTAL, since = "0.1.0")
public final class BlasException extends RuntimeException {

  private static final long serialVersionUID = 1L;

  /** The cuBLASLt entry point that failed. */
  private final String function;

  /** The {@code cublasStatus_t} it returned; never {@code CUBLAS_STATUS_SUCCESS}. */
  private final int status;

  /** The name of {@link #status}. */
  private final String statusName;

  /**
   * Creates an exception for a failed cuBLASLt call.
   *
   * @param function the cuBLASLt entry point, e.g. {@code cublasLtMatmul}
   * @param status the {@code cublasStatus_t} it returned
   * @param statusName the name of {@code status}, e.g. {@code CUBLAS_STATUS_INVALID_VALUE}
   * @param message the whole message: call, code, name and what to do
   */
  public BlasException(String function, int status, String statusName, String message) {
    super(Objects.requireNonNull(message, "message"));
    this.function = Objects.requireNonNull(function, "function");
    this.status = status;
    this.statusName = Objects.requireNonNull(statusName, "statusName");
  }

  /** {@return the cuBLASLt entry point that failed, e.g. {@code cublasLtMatmulAlgoGetHeuristic}} */
  public String function() {
    return function;
  }

  /** {@return the {@code cublasStatus_t} code the call returned} */
  public int status() {
    return status;
  }

  /** {@return the name of {@link #status()}, e.g. {@code CUBLAS_STATUS_NOT_SUPPORTED}} */
  public String statusName() {
    return statusName;
  }
}
