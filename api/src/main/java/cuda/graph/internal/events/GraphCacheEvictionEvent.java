// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 the cuda-graph authors
package cuda.graph.internal.events;

import jdk.jfr.Category;
import jdk.jfr.DataAmount;
import jdk.jfr.Description;
import jdk.jfr.Event;
import jdk.jfr.Label;
import jdk.jfr.Name;

/** A graph cache releasing the graph of a key to make room for another. */
@Name("cuda.graph.CacheEviction")
@Label("Graph Cache Eviction")
@Category({"CUDA", "Graph"})
@Description("A graph cache releasing a key's graph to stay within its budget or graph count")
public final class GraphCacheEvictionEvent extends Event {

  @Label("Key")
  public String key = "";

  @Label("For Key")
  public String forKey = "";

  @Label("Graph Memory")
  @DataAmount
  public long graphMemory;

  @Label("Replays")
  public long replays;

  @Label("In Flight")
  public boolean inFlight;
}
