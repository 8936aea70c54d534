// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 the cuda-graph authors
package cuda.graph.conformance;

import static org.apiguardian.api.API.Status.EXPERIMENTAL;

import java.io.Serial;
import org.apiguardian.api.API;

/**
 * A test left its session in a state the contracts forbid: a handle is still alive after the
 * platform closed, or a call broke a handle's lifetime during the session (each such {@link
 * cuda.graph.testkit.LifetimeViolation} is attached as suppressed). Thrown by {@link
 * ConformanceSession#close()} and {@link ConformanceSession#assertNothingLeaked}.
 *
 * <p>An {@link AssertionError}, so that test frameworks report it as a failed test, and so that
 * library code that catches {@code RuntimeException} cannot swallow it.
 *
 * @since 0.1.0
 */
@API(status = EXPERIMENTAL, since = "0.1.0")
public final class ConformanceViolation extends AssertionError {

  @Serial private static final long serialVersionUID = 1L;

  /**
   * A violation found at the end of a session, or midway.
   *
   * @param message what is wrong: the live handles and how each was made, or the violations
   */
  public ConformanceViolation(String message) {
    super(message);
  }
}
