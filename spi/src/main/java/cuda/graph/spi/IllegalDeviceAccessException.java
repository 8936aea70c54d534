// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 the cuda-graph authors
package cuda.graph.spi;

import static org.apiguardian.api.API.Status.EXPERIMENTAL;

import org.apiguardian.api.API;

/**
 * A simulated kernel touched device memory outside every live allocation. The simulator turns it
 * into a sticky {@code CUDA_ERROR_ILLEGAL_ADDRESS}, the way a GPU reports a bad access.
 *
 * @since 0.1.0
 */
@API(status = EXPERIMENTAL, since = "0.1.0")
public final class IllegalDeviceAccessException extends RuntimeException {

  private static final long serialVersionUID = 1L;

  /**
   * Reports a bad access.
   *
   * @param message the address range accessed and why it is not valid device memory
   */
  public IllegalDeviceAccessException(String message) {
    super(message);
  }
}
