// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 the cuda-graph authors
package cuda.graph.conformance;

import static org.apiguardian.api.API.Status.EXPERIMENTAL;

import java.io.Serial;
import org.apiguardian.api.API;

/**
 * Thrown on purpose by a contract's op or scope body, to check that the API propagates it as
 * itself. One escaping anywhere else means the API lost track of a failure.
 *
 * @since 0.1.0
 */
@API(status = EXPERIMENTAL, since = "0.1.0")
public final class InjectedException extends RuntimeException {

  @Serial private static final long serialVersionUID = 1L;

  /**
   * Makes the exception a contract throws.
   *
   * @param message says where the contract throws it, e.g. {@code "thrown by the op after step 2"}
   */
  public InjectedException(String message) {
    super(message);
  }
}
