// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 the cuda-graph authors
package cuda.graph.blas;

import static org.apiguardian.api.API.Status.EXPERIMENTAL;

import java.util.Objects;
import org.apiguardian.api.API;
import org.jspecify.annotations.Nullable;

/**
 * Matrix products cannot run on a platform: its provider has none, cuBLASLt was not found or could
 * not be loaded, it is older than this module supports, or native access is not enabled for this
 * module. The message says what was tried and what to do.
 *
 * @since 0.1.0
 */
@API(status = EXPERIMENTAL, since = "0.1.0")
public final class BlasUnavailableException extends RuntimeException {

  private static final long serialVersionUID = 1L;

  /**
   * Creates the exception.
   *
   * @param message what was tried and what to do
   * @param cause the failure underneath, or null
   */
  public BlasUnavailableException(String message, @Nullable Throwable cause) {
    super(Objects.requireNonNull(message, "message"), cause);
  }
}
