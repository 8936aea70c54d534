// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 the cuda-graph authors
package cuda.graph.conformance;

import static org.apiguardian.api.API.Status.EXPERIMENTAL;

import java.io.Serial;
import org.apiguardian.api.API;

/**
 * An {@link Error} thrown on purpose by a contract's op or scope body (standing in for an {@code
 * OutOfMemoryError} or an assertion), to check that the API cleans up and propagates it as itself.
 *
 * @since 0.1.0
 */
@API(status = EXPERIMENTAL, since = "0.1.0")
public final class InjectedError extends Error {

  @Serial private static final long serialVersionUID = 1L;

  /**
   * Makes the error a contract throws.
   *
   * @param message says where the contract throws it, e.g. {@code "thrown by the op after step 2"}
   */
  public InjectedError(String message) {
    super(message);
  }
}
