// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 the cuda-graph authors
package cuda.graph;

import static org.apiguardian.api.API.Status.MAINTAINED;

import java.io.Serial;
import org.apiguardian.api.API;

/**
 * An operation was executed while this thread was already executing one (or capturing a graph).
 *
 * <p>Execution is not reentrant: a {@code sync}, {@code syncOn} or {@code async} call inside a
 * running op's closure, or inside a graph capture, would submit work on another stream while the
 * outer op's results are still in flight. Compose the inner work into the outer op instead (with
 * {@code then}, {@code zip}, or {@code Scope.record} during a capture).
 *
 * @since 0.1.0
 */
@API(status = MAINTAINED, since = "0.1.0")
public final class ReentrantExecutionException extends CudaException {

  @Serial private static final long serialVersionUID = 1L;

  /**
   * Reports a nested execution.
   *
   * @param message names both executions and says how to compose the inner one instead
   */
  public ReentrantExecutionException(String message) {
    super(message, null);
  }
}
