// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 the cuda-graph authors
package cuda.graph;

import static org.apiguardian.api.API.Status.MAINTAINED;

import org.apiguardian.api.API;
import org.jspecify.annotations.Nullable;

/**
 * What {@link CudaGraph#scopeReturning} records: a function of the {@link Scope} whose result
 * becomes the graph's output ({@link CudaGraph#takeOutput}), such as the {@link RecordedNode}s a
 * later {@link CudaGraph#replaceNode} changes or the buffers a launch computes.
 *
 * @param <T> the type of the result, the graph's output
 * @since 0.1.0
 */
@FunctionalInterface
@API(status = MAINTAINED, since = "0.1.0")
public interface ScopeFunction<T extends @Nullable Object> {
  /**
   * Records the graph's nodes and returns what the graph hands out as its output; called once, on
   * the capturing thread, while the capture is open.
   *
   * @param scope records nodes into the graph; dead once this method returns
   * @return the graph's output: handles whose data, if any, is computed when the graph is launched
   */
  T record(Scope scope);
}
