// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 the cuda-graph authors
package cuda.graph.internal.graph;

import cuda.graph.internal.runtime.DeviceImpl;
import cuda.graph.spi.CuGraph;
import cuda.graph.spi.CuGraphNode;
import cuda.graph.spi.CudaDriver;
import cuda.graph.spi.GraphNodeType;
import java.util.ArrayList;
import java.util.List;

/**
 * The scratch graphs a foreign node's work is captured into, to be added as (or to replace the
 * graph of) one child-graph node: what they hold, and their destruction.
 */
final class ChildGraphs {

  private ChildGraphs() {}

  /** {@return the type of each node of {@code graph}, in creation order} */
  static List<GraphNodeType> nodeTypes(CudaDriver driver, CuGraph graph) {
    List<GraphNodeType> types = new ArrayList<>();
    for (CuGraphNode node : driver.graphGetNodes(graph)) {
      types.add(driver.graphNodeGetType(node));
    }
    return List.copyOf(types);
  }

  /**
   * Destroys a scratch graph through the release queue: at once, or once the captures in progress
   * have ended; a failure is logged there and never retried, as for every native release.
   */
  static void destroy(DeviceImpl device, CuGraph scratch) {
    device.release(driver -> driver.graphDestroy(scratch));
  }
}
