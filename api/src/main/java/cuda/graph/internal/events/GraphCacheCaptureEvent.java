// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 the cuda-graph authors
package cuda.graph.internal.events;

import jdk.jfr.Category;
import jdk.jfr.DataAmount;
import jdk.jfr.Description;
import jdk.jfr.Event;
import jdk.jfr.Label;
import jdk.jfr.Name;
import jdk.jfr.Timespan;

/** A graph cache capturing the graph of a key it missed or warmed. */
@Name("cuda.graph.CacheCapture")
@Label("Graph Cache Capture")
@Category({"CUDA", "Graph"})
@Description("A graph cache capturing, instantiating and uploading the graph of one key")
public final class GraphCacheCaptureEvent extends Event {

  @Label("Key")
  public String key = "";

  @Label("Capture")
  @Timespan(Timespan.NANOSECONDS)
  public long captureNanos;

  @Label("Instantiate")
  @Timespan(Timespan.NANOSECONDS)
  public long instantiateNanos;

  @Label("Upload")
  @Timespan(Timespan.NANOSECONDS)
  public long uploadNanos;

  @Label("Graph Memory")
  @DataAmount
  public long graphMemory;

  @Label("Outcome")
  @Description(
      "CACHED, CAPTURE_FAILED, REFUSED_BY_BUDGET, REFUSED_IN_FLIGHT (launches in flight held the"
          + " budget longer than the cache waits) or CLOSED (by the recorder)")
  public String outcome = "";
}
