// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 the cuda-graph authors
package cuda.graph.internal.events;

import jdk.jfr.Category;
import jdk.jfr.Description;
import jdk.jfr.Event;
import jdk.jfr.Label;
import jdk.jfr.Name;

/** Instantiating a captured graph and uploading it to the device. */
@Name("cuda.graph.Instantiate")
@Label("Graph Instantiate")
@Category({"CUDA", "Graph"})
@Description("cuGraphInstantiate and cuGraphUpload of a captured graph")
public final class GraphInstantiateEvent extends Event {

  @Label("Nodes")
  public int nodes;

  @Label("Succeeded")
  public boolean succeeded;
}
