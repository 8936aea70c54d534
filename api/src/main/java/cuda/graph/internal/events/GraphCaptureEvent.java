// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 the cuda-graph authors
package cuda.graph.internal.events;

import jdk.jfr.Category;
import jdk.jfr.Description;
import jdk.jfr.Event;
import jdk.jfr.Label;
import jdk.jfr.Name;

/** One stream capture, from {@code cuStreamBeginCapture} to {@code cuStreamEndCapture}. */
@Name("cuda.graph.Capture")
@Label("Graph Capture")
@Category({"CUDA", "Graph"})
@Description("Records a DeviceOp or scope into a CUDA graph (begin to end of stream capture)")
public final class GraphCaptureEvent extends Event {

  @Label("What")
  @Description("The op or scope captured")
  public String what = "";

  @Label("Stream")
  public String stream = "";

  @Label("Nodes")
  @Description("Nodes of the captured graph; -1 when the capture failed")
  public int nodes = -1;
}
