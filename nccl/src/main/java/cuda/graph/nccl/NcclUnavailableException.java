// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 the cuda-graph authors
package cuda.graph.nccl;

import static org.apiguardian.api.API.Status.EXPERIMENTAL;

import java.util.Objects;
import org.apiguardian.api.API;

/**
 * NCCL cannot be used in this process: its library was not found or could not be loaded, it is
 * older than this module supports, or native access is not enabled for this module. The message
 * says where the module looked and what to do.
 *
 * @since 0.1.0
 */
@API(status = EXPERIMENTAL, since = "0.1.0")
public final class NcclUnavailableException extends RuntimeException {

  private static final long serialVersionUID = 1L;

  /**
   * Creates the exception.
   *
   * @param message what was tried and what to do
   * @param cause the failure underneath, or null
   */
  public NcclUnavailableException(
      String message, @org.jspecify.annotations.Nullable Throwable cause) {
    super(Objects.requireNonNull(message, "message"), cause);
  }
}
