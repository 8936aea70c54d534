// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 the cuda-graph authors
package cuda.graph.internal.events;

import jdk.jfr.Category;
import jdk.jfr.Description;
import jdk.jfr.Event;
import jdk.jfr.Label;
import jdk.jfr.Name;
import jdk.jfr.StackTrace;

/**
 * The host side of one graph replay: the time {@code cuGraphLaunch} takes to enqueue it, not the
 * time the GPU runs it. No stack trace, so a recording of a replay loop stays cheap.
 */
@Name("cuda.graph.Launch")
@Label("Graph Launch")
@Category({"CUDA", "Graph"})
@Description("Host time to enqueue one graph replay (cuGraphLaunch); the GPU runs it later")
@StackTrace(false)
public final class GraphLaunchEvent extends Event {

  @Label("Graph")
  public String graph = "";
}
