// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 the cuda-graph authors
package cuda.graph.spi;

import static org.apiguardian.api.API.Status.EXPERIMENTAL;

import java.util.List;
import org.apiguardian.api.API;

/**
 * A conditional node added by {@link CudaDriver#graphAddConditionalNode} and its empty body graphs.
 *
 * @param node the new node, owned by its graph
 * @param bodies the node's body graphs, in order; owned by the node (never destroy them), filled by
 *     capturing into them ({@link CudaDriver#streamBeginCaptureToGraph})
 * @since 0.1.0
 */
@API(status = EXPERIMENTAL, since = "0.1.0")
public record ConditionalNode(CuGraphNode node, List<CuGraph> bodies) {

  /** Copies {@code bodies}, so the record is immutable. */
  public ConditionalNode {
    bodies = List.copyOf(bodies);
  }
}
