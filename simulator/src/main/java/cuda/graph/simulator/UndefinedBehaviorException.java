// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 the cuda-graph authors
package cuda.graph.simulator;

import static org.apiguardian.api.API.Status.EXPERIMENTAL;

import org.apiguardian.api.API;

/**
 * The caller did something that is undefined behaviour on the real driver (which may crash the
 * process or corrupt memory): using or destroying a destroyed handle, passing a handle that was
 * never created, or passing null where the driver dereferences. A deterministic simulator also
 * throws it when the caller waits for work that can never run, which would hang a real driver.
 *
 * @since 0.1.0
 */
@API(status = EXPERIMENTAL, since = "0.1.0")
public final class UndefinedBehaviorException extends RuntimeException {

  private static final long serialVersionUID = 1L;

  /**
   * Reports undefined behaviour the simulator caught instead of crashing.
   *
   * @param message what the caller did (for a handle, the driver call and the handle) and why the
   *     real driver's behaviour would be undefined
   */
  public UndefinedBehaviorException(String message) {
    super(message);
  }
}
