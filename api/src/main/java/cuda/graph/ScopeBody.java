// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 the cuda-graph authors
package cuda.graph;

import static org.apiguardian.api.API.Status.MAINTAINED;

import org.apiguardian.api.API;

/**
 * What {@link CudaGraph#scope} and the conditional nodes of a {@link Scope} record: a function of
 * the {@link Scope} that returns nothing. {@link ScopeFunction} is the form whose result becomes
 * the graph's output.
 *
 * @since 0.1.0
 */
@FunctionalInterface
@API(status = MAINTAINED, since = "0.1.0")
public interface ScopeBody {
  /**
   * Records the graph's nodes; called once, on the capturing thread, while the capture is open.
   *
   * @param scope records nodes into the graph; dead once this method returns
   */
  void record(Scope scope);
}
