package cuda.graph.blas.internal.binding;

import cuda.graph.blas.BlasException;
import org.jspecify.annotations.Nullable;

/**
 * The one way this package says that cuBLASLt cannot be used at all (not found, not loadable, too
 * old, no native access): a {@link BlasException} with status {@code
 * CUBLAS_STATUS_NOT_INITIALIZED}, the status cuBLAS itself gives when it cannot start, and a
 * message saying what was tried and what to do. The public package has no exception of its own for
 * this (nccl has {@code NcclUnavailableException}); should one be added, only this class changes.
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
  static BlasException because(String what, String message, @Nullable Throwable cause) {
    int status = CublasLtStatus.NOT_INITIALIZED;
    BlasException e = new BlasException(what, status, CublasLtStatus.name(status), message);
    if (cause != null) {
      e.initCause(cause);
    }
    return e;
  }

  /** {@return a new exception like {@code first}}, for a caller of a load that failed earlier */
  static BlasException again(BlasException first) {
    BlasException e =
        new BlasException(
            first.function(),
            first.status(),
            first.statusName(),
            String.valueOf(first.getMessage()));
    Throwable cause = first.getCause();
    if (cause != null) {
      e.initCause(cause);
    }
    return e;
  }
}
