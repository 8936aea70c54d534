// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 the cuda-graph authors
package cuda.graph;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.concurrent.atomic.AtomicReference;
import org.jspecify.annotations.Nullable;
import org.junit.jupiter.api.Test;

/**
 * A recapture instantiated anew says whose decision that was (issue 36, item 8): the driver's,
 * which refused {@code cuGraphExecUpdate}, or the library's, which did not ask the driver; each
 * reason starts with the words {@link GraphUpdate.Reinstantiated} documents for its source.
 */
class GraphUpdateReasonTests extends InstrumentedPlatformFixture {

  // As the Javadoc spells them, not through the constants: a changed text must fail here.
  private static final String BY_DRIVER = "cuGraphExecUpdate refused the new capture: ";
  private static final String BY_LIBRARY = "not updated in place, by the library's rule: ";

  private static String reason(GraphUpdate update) {
    return assertInstanceOf(GraphUpdate.Reinstantiated.class, update).reason();
  }

  @Test
  void aTopologyTheDriverRefusesIsTheDriversReasonWithItsUpdateResult() {
    try (DeviceBuffer<Integer> a = DeviceBuffer.zeros(ElementType.I32, 4).syncOn(stream);
        CudaGraph<@Nullable Void> graph = CudaGraph.scope(stream, s -> s.record(a.fill(1)))) {
      String reason =
          reason(
              graph.recapture(
                  s -> {
                    s.record(a.fill(2));
                    s.record(a.fill(3));
                  }));
      assertTrue(reason.startsWith(BY_DRIVER + "ERROR_TOPOLOGY_CHANGED"), reason);
      graph.launch().syncOn(stream);
      assertArrayEquals(new int[] {3, 3, 3, 3}, a.toIntArray().syncOn(stream));
    }
  }

  @Test
  void aGraphWithTemporariesIsTheLibrarysReasonNamingTheRule() {
    try (DeviceBuffer<Integer> a = DeviceBuffer.zeros(ElementType.I32, 4).syncOn(stream);
        CudaGraph<@Nullable Void> graph =
            CudaGraph.scope(
                stream,
                s -> {
                  DeviceBuffer<Integer> scratch = s.temporary(ElementType.I32, 4);
                  s.record(scratch.fill(5));
                  s.record(a.copyFrom(scratch));
                })) {
      String reason = reason(graph.recapture(s -> s.record(a.fill(6))));
      assertTrue(reason.startsWith(BY_LIBRARY), reason);
      assertTrue(reason.contains("temporaries"), reason);
      assertTrue(!reason.contains(BY_DRIVER), reason);
    }
  }

  @Test
  void aNodeSwitchedOffIsTheLibrarysReasonNamingSetEnabled() {
    AtomicReference<@Nullable RecordedNode> fill = new AtomicReference<>();
    try (DeviceBuffer<Integer> a = DeviceBuffer.zeros(ElementType.I32, 4).syncOn(stream);
        CudaGraph<@Nullable Void> graph =
            CudaGraph.scope(stream, s -> fill.set(s.recordNode(a.fill(1))))) {
      graph.setEnabled(fill.get(), false);
      String reason = reason(graph.recapture(s -> s.record(a.fill(2))));
      assertTrue(reason.startsWith(BY_LIBRARY), reason);
      assertTrue(reason.contains("setEnabled"), reason);
      graph.launch().syncOn(stream);
      assertArrayEquals(new int[] {2, 2, 2, 2}, a.toIntArray().syncOn(stream));
    }
  }
}
