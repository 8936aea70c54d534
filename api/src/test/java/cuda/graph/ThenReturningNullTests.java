// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 the cuda-graph authors
package cuda.graph;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import org.junit.jupiter.api.Test;

/** A {@code then} or {@code thenNode} function that returns null is named in the failure. */
class ThenReturningNullTests {

  @Test
  void thenWhoseFunctionReturnsNullSaysItReturnedNullInsteadOfAnOp() {
    try (CudaPlatform platform = SimulatorPlatforms.simulator();
        Stream stream = platform.defaultDevice().newStream()) {
      DeviceOp<Integer> op = DeviceOp.value(1).then(v -> null);
      NullPointerException e = assertThrows(NullPointerException.class, () -> op.syncOn(stream));
      assertEquals("then(...) returned null instead of an op", e.getMessage());
    }
  }

  @Test
  void thenNodeWhoseFunctionReturnsNullSaysItReturnedNullInsteadOfAGraphNode() {
    try (CudaPlatform platform = SimulatorPlatforms.simulator();
        Stream stream = platform.defaultDevice().newStream()) {
      GraphNode<Integer> node = DeviceOp.value(1).thenNode(v -> null);
      NullPointerException e = assertThrows(NullPointerException.class, () -> node.syncOn(stream));
      assertEquals("thenNode(...) returned null instead of a graph node", e.getMessage());
    }
  }
}
