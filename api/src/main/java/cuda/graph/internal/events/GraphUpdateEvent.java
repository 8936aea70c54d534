// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 the cuda-graph authors
package cuda.graph.internal.events;

import jdk.jfr.Category;
import jdk.jfr.Description;
import jdk.jfr.Event;
import jdk.jfr.Label;
import jdk.jfr.Name;

/**
 * A change of an instantiated graph without a new {@code CudaGraph}: a recapture applied in place
 * or re-instantiated, a node replaced, a node enabled or disabled.
 */
@Name("cuda.graph.Update")
@Label("Graph Update")
@Category({"CUDA", "Graph"})
@Description(
    "A change of an instantiated graph: recapture (in place or re-instantiated), node"
        + " replacement, node enable state")
public final class GraphUpdateEvent extends Event {

  /** What {@link #change} says for a recapture that {@code cuGraphExecUpdate} applied in place. */
  public static final String IN_PLACE = "recapture in place";

  /** What {@link #change} says for a recapture that needed a new exec. */
  public static final String REINSTANTIATED = "recapture re-instantiated";

  /** What {@link #change} says for a node replacement. */
  public static final String NODE_REPLACED = "node replaced";

  /** What {@link #change} says for a node switched on or off. */
  public static final String NODE_ENABLE = "node enable state";

  @Label("Change")
  public String change = "";

  @Label("Graph")
  public String graph = "";

  @Label("Detail")
  @Description("Why a recapture was re-instantiated, or which node changed")
  public String detail = "";

  @Label("Succeeded")
  public boolean succeeded;
}
