// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 the cuda-graph authors
package cuda.graph;

import static org.apiguardian.api.API.Status.MAINTAINED;

import java.io.Serial;
import org.apiguardian.api.API;
import org.jspecify.annotations.Nullable;

/**
 * No CUDA driver provider could be used: none was found, the forced one is missing or unavailable,
 * none is available, or the chosen one failed to open or initialize.
 *
 * <p>The message is the selection report: one line per decision, each starting with {@code
 * "cuda.graph: "}, joined with {@code '\n'}; the last line says what went wrong and how to fix it.
 * The cause, when there is one, is the exception the provider threw.
 *
 * @since 0.1.0
 */
@API(status = MAINTAINED, since = "0.1.0")
public final class CudaProviderException extends CudaException {

  @Serial private static final long serialVersionUID = 1L;

  /**
   * Reports why no provider can be used.
   *
   * @param message the selection report, one {@code "cuda.graph: "} line per decision
   * @param cause what the chosen provider threw, or null when no provider was tried or none threw
   */
  public CudaProviderException(String message, @Nullable Throwable cause) {
    super(message, cause);
  }
}
