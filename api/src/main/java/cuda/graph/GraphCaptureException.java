// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 the cuda-graph authors
package cuda.graph;

import static org.apiguardian.api.API.Status.MAINTAINED;

import java.io.Serial;
import org.apiguardian.api.API;
import org.jspecify.annotations.Nullable;

/**
 * A graph could not be captured for a reason of the library's own, not a driver error: an op that
 * allocates, frees or stages through host memory was executed inside the capture (graphs replay
 * fixed addresses, so none of these can be captured), or the driver ended a capture without
 * producing a graph.
 *
 * @since 0.1.0
 */
@API(status = MAINTAINED, since = "0.1.0")
public final class GraphCaptureException extends CudaException {

  @Serial private static final long serialVersionUID = 1L;

  /**
   * Reports why a capture could not produce a graph.
   *
   * @param message which op could not be captured and what to do instead, or that the driver
   *     produced no graph
   * @param cause the failure that ended the capture, or null
   */
  public GraphCaptureException(String message, @Nullable Throwable cause) {
    super(message, cause);
  }
}
