// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 the cuda-graph authors
package cuda.graph.spi;

import static org.apiguardian.api.API.Status.EXPERIMENTAL;

import org.apiguardian.api.API;

/**
 * A graph, from {@code cuStreamEndCapture} or {@code cuGraphCreate}; destroyed with {@code
 * cuGraphDestroy}.
 *
 * @param address the {@code CUgraph} value the driver returned
 * @since 0.1.0
 */
@API(status = EXPERIMENTAL, since = "0.1.0")
public record CuGraph(long address) implements CuHandle {

  @Override
  public HandleKind kind() {
    return HandleKind.GRAPH;
  }

  @Override
  public String toString() {
    return CuHandle.format(kind(), address);
  }
}
