// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 the cuda-graph authors
package example;

import cuda.graph.CudaGraph;
import cuda.graph.CudaPlatform;
import cuda.graph.DeviceBuffer;
import cuda.graph.GraphUpdate;
import cuda.graph.RecordedNode;
import cuda.graph.Stream;
import java.util.Arrays;
import org.jspecify.annotations.Nullable;

/** Changing a graph: recapture it, or replace and switch off single nodes. */
public class ChangingGraphs {

  /** The nodes a scope hands out of its body, to change later. */
  record Nodes(RecordedNode fillA, RecordedNode fillB) {}

  public static void main(String[] args) {
    try (Stream stream = CudaPlatform.system().defaultDevice().newStream();
        DeviceBuffer<Integer> a = DeviceBuffer.fromArray(new int[2]).syncOn(stream);
        DeviceBuffer<Integer> b = DeviceBuffer.fromArray(new int[2]).syncOn(stream);
        DeviceBuffer<Integer> c = DeviceBuffer.fromArray(new int[2]).syncOn(stream)) {
      // recapture: the same graph object, new work; in place when the shape allows.
      try (CudaGraph<@Nullable Void> graph = CudaGraph.capture(stream, a.fill(1))) {
        // prints: in place
        System.out.println(describe(graph.recapture(b.fill(2)))); // same topology: cheap
        // prints: reinstantiated
        System.out.println(describe(graph.recapture(a.fill(3).andThen(b.fill(4)))));
        graph.launch().syncOn(stream); // replays the latest capture: a = 3, b = 4
      }

      // Single nodes: scopeReturning hands out what its body returns, here the recorded nodes.
      try (CudaGraph<Nodes> graph =
          CudaGraph.scopeReturning(
              stream,
              scope -> new Nodes(scope.recordNode(a.fill(5)), scope.recordNode(b.fill(6))))) {
        Nodes nodes = graph.takeOutput();
        graph.replaceNode(nodes.fillA(), c.fill(7)); // checked like a launch: a fill of ints
        graph.setEnabled(nodes.fillB(), false); // off until switched on or recaptured
        graph.launch().syncOn(stream);
      }
      // prints: a = [3, 3], b = [4, 4], c = [7, 7]
      System.out.println(
          "a = "
              + Arrays.toString(a.toIntArray().syncOn(stream))
              + ", b = "
              + Arrays.toString(b.toIntArray().syncOn(stream))
              + ", c = "
              + Arrays.toString(c.toIntArray().syncOn(stream)));
    }
  }

  static String describe(GraphUpdate update) {
    return switch (update) {
      case GraphUpdate.InPlace p -> "in place";
      case GraphUpdate.Reinstantiated r -> "reinstantiated"; // r.reason(): driver's or library's
    };
  }
}
