// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 the cuda-graph authors
package cuda.graph.spi;

import static org.apiguardian.api.API.Status.EXPERIMENTAL;

import org.apiguardian.api.API;

/**
 * A source of {@link CudaDriver}s, found through {@link java.util.ServiceLoader}.
 *
 * <p>Implementations must have a public no-argument constructor that does nothing expensive and
 * cannot fail: loading native libraries or probing devices belongs in {@link #availability()},
 * which is only called for providers that are candidates for selection.
 *
 * <p>Selection: a provider forced with {@code -Dcuda.graph.provider=<id>} (or the environment
 * variable {@code CUDA_GRAPH_PROVIDER}) is used if available; otherwise the available provider with
 * the highest {@link #priority()} wins.
 *
 * @since 0.1.0
 */
@API(status = EXPERIMENTAL, since = "0.1.0")
public interface CudaDriverProvider {

  /** {@return the provider's id, e.g. {@code "cuda"} or {@code "simulator"}: lower case, stable} */
  String id();

  /** {@return the provider's priority: higher wins among available providers} */
  int priority();

  /** {@return whether this provider can serve this process, with a one-line reason} */
  Availability availability();

  /**
   * Opens a driver. Each call returns a new, independent driver instance (for the real driver, a
   * new view of the one process-wide driver).
   *
   * @return a new driver, not yet initialized, owned by the caller, who closes it
   * @throws CudaDriverException if the driver cannot be opened
   */
  CudaDriver open();
}
