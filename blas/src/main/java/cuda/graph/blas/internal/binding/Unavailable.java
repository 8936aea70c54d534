// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 the cuda-graph authors
package cuda.graph.blas.internal.binding;

import cuda.graph.blas.BlasException;
import cuda.graph.blas.BlasUnavailableException;
import org.jspecify.annotations.Nullable;

/**
 * The one way this package says that cuBLASLt cannot be used at all (not found, not loadable, too
 * old, no native access): a {@link BlasUnavailableException} whose message says what was tried and
 * what to do, caused by a {@link BlasException} naming the step that failed with status {@code
 * CUBLAS_STATUS_NOT_INITIALIZED} (the status cuBLAS itself gives when it cannot start).
 */
final class Unavailable {

  private Unavailable() {}

  /**
   * {@return the exception}
   *
   * @param what the step that failed, e.g. {@code dlopen(libcublasLt.so.13)} or {@code
   *     cublasLtGetVersion}
   * @param message the whole message: what was tried, why it failed, what to do
   * @param cause the failure underneath, or null
   */
  static BlasUnavailableException because(String what, String message, @Nullable Throwable cause) {
    int status = CublasLtStatus.NOT_INITIALIZED;
    BlasException step = new BlasException(what, status, CublasLtStatus.name(status), message);
    if (cause != null) {
      step.initCause(cause);
    }
    return new BlasUnavailableException(message, step);
  }

  /** {@return a new exception like {@code first}}, for a caller of a load that failed earlier */
  static BlasUnavailableException again(BlasUnavailableException first) {
    return new BlasUnavailableException(String.valueOf(first.getMessage()), first.getCause());
  }
}
