// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 the cuda-graph authors
package cuda.graph;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import org.jspecify.annotations.Nullable;
import org.junit.jupiter.api.Test;

/**
 * A null passed to the platform's and the graph's methods is refused with the parameter's name,
 * before anything runs (the kit's BadInputContract cases for these entry points).
 */
class NamedNullArgumentTests {

  @Test
  void aNullActionOrPathNamesTheParameter() {
    try (CudaPlatform platform = SimulatorPlatforms.simulator();
        Stream stream = platform.defaultDevice().newStream();
        DeviceBuffer<Integer> counter = DeviceBuffer.zeros(ElementType.I32, 4).syncOn(stream)) {
      assertEquals(
          "action",
          assertThrows(NullPointerException.class, () -> platform.runAsCurrent(null)).getMessage());
      assertEquals(
          "action",
          assertThrows(NullPointerException.class, () -> platform.callAsCurrent(null))
              .getMessage());
      KernelFixtures.ADD_ONE.load(platform.defaultDevice());
      try (CudaGraph<@Nullable Void> graph =
          CudaGraph.capture(
              stream, KernelFixtures.ADD_ONE.launch(LaunchConfig.of(1, 4), 4, counter))) {
        assertEquals(
            "path",
            assertThrows(NullPointerException.class, () -> graph.writeDot(null)).getMessage());
        assertEquals(1, graph.nodeCount(), "the graph is still usable");
      }
    }
  }
}
