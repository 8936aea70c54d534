// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 the cuda-graph authors
package example;

import cuda.graph.CudaGraph;
import cuda.graph.CudaPlatform;
import cuda.graph.DeviceBuffer;
import cuda.graph.ElementType;
import cuda.graph.GraphNode;
import cuda.graph.Stream;
import java.util.Arrays;
import java.util.List;
import org.jspecify.annotations.Nullable;

/** Two branches captured as parallel branches of one graph, joined before what follows. */
public class ParallelBranches {

  public static void main(String[] args) {
    try (Stream stream = CudaPlatform.system().defaultDevice().newStream();
        DeviceBuffer<Float> a = DeviceBuffer.zeros(ElementType.F32, 4).syncOn(stream);
        DeviceBuffer<Float> b = DeviceBuffer.zeros(ElementType.F32, 4).syncOn(stream);
        DeviceBuffer<Float> c = DeviceBuffer.zeros(ElementType.F32, 4).syncOn(stream)) {
      // Each branch may be any GraphNode: kernel launches, copies, fills and their compositions.
      GraphNode<List<@Nullable Void>> both = GraphNode.parallel(List.of(a.fill(1f), b.fill(2f)));
      try (CudaGraph<@Nullable Void> graph =
          CudaGraph.capture(stream, both.andThen(c.copyFrom(b)))) { // c = b, after both
        graph.launch().syncOn(stream); // both branches, one replay
        // prints: [FILL, FILL, COPY]: a = [1.0, 1.0, 1.0, 1.0], c = [2.0, 2.0, 2.0, 2.0]
        System.out.println(
            graph.nodeKinds()
                + ": a = "
                + Arrays.toString(a.toFloatArray().syncOn(stream))
                + ", c = "
                + Arrays.toString(c.toFloatArray().syncOn(stream)));
      }
    }
  }
}
