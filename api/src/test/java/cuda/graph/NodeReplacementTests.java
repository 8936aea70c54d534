// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 the cuda-graph authors
package cuda.graph;

import static java.lang.foreign.ValueLayout.JAVA_INT_UNALIGNED;
import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import cuda.graph.spi.CuResult;
import cuda.graph.spi.DriverCall;
import java.util.concurrent.atomic.AtomicReference;
import org.jspecify.annotations.Nullable;
import org.junit.jupiter.api.Test;

/**
 * {@code CudaGraph.replaceNode}: a kernel node takes a replacement that keeps the node's edges and
 * may set the conditions of its own capture; a refused or failed replacement changes nothing, and
 * the replacement's buffers are given back.
 */
class NodeReplacementTests extends InstrumentedPlatformFixture {

  private static final LaunchConfig ONE = LaunchConfig.of(1, 1);
  private static final LaunchConfig ONE_PROGRAMMATIC = ONE.withProgrammaticDependentLaunch();

  /** {@code choose(const int *value, condition c)}: sets {@code c} to {@code value[0]}. */
  private static final Kernel CHOOSE =
      KernelImage.ptx(
              """
              .version 9.0
              .target sm_90
              .address_size 64
              .visible .entry choose(.param .u64 value, .param .u64 c) { ret; }
              """)
          .withReference(
              "choose", call -> call.setCondition(1, call.memory(0, 4).get(JAVA_INT_UNALIGNED, 0)))
          .kernel("choose", KernelParam.pointer(ElementType.I32), KernelParam.CONDITION);

  private DeviceBuffer<Integer> ints(int... values) {
    return DeviceBuffer.fromArray(values).syncOn(stream);
  }

  private int[] read(DeviceBuffer<Integer> buffer) {
    return buffer.toIntArray().syncOn(stream);
  }

  private static GraphNode<@Nullable Void> addOne(DeviceBuffer<Integer> data, LaunchConfig config) {
    return KernelFixtures.ADD_ONE.launch(config, (int) data.length(), data);
  }

  /**
   * Asserts that {@code replace} is refused before any driver call, with a message saying {@code
   * why}, and that {@code unused} (the replacement's buffer) is given back: closed, it is freed.
   */
  private void assertRefusedAndGivenBack(
      Runnable replace, DeviceBuffer<Integer> unused, String... why) {
    long setParams = simulator.calls().count(DriverCall.GRAPH_EXEC_KERNEL_NODE_SET_PARAMS);
    IllegalArgumentException refused = assertThrows(IllegalArgumentException.class, replace::run);
    for (String part : why) {
      assertTrue(refused.getMessage().contains(part), refused.getMessage());
    }
    assertEquals(setParams, simulator.calls().count(DriverCall.GRAPH_EXEC_KERNEL_NODE_SET_PARAMS));
    long live = liveDeviceMemory();
    unused.close();
    assertEquals(live - 1, liveDeviceMemory(), "the refused replacement's buffer is freed");
  }

  @Test
  void aPlainKernelNodeRefusesAProgrammaticLaunchAndKeepsReplayingItsOwn() {
    KernelFixtures.ADD_ONE.load(platform.defaultDevice());
    DeviceBuffer<Integer> a = ints(0, 0);
    DeviceBuffer<Integer> b = ints(0, 0);
    AtomicReference<@Nullable RecordedNode> node = new AtomicReference<>();
    try (CudaGraph<@Nullable Void> graph =
        CudaGraph.scope(stream, scope -> node.set(scope.recordNode(addOne(a, ONE))))) {
      assertRefusedAndGivenBack(
          () -> graph.replaceNode(node.get(), addOne(b, ONE_PROGRAMMATIC)),
          b,
          "programmatic",
          "edge",
          "recapture");
      graph.launch().syncOn(stream);
      assertArrayEquals(new int[] {1, 1}, read(a));
    }
    a.close();
  }

  @Test
  void aProgrammaticKernelNodeRefusesAPlainLaunchAndKeepsReplayingItsOwn() {
    KernelFixtures.ADD_ONE.load(platform.defaultDevice());
    DeviceBuffer<Integer> before = ints(0);
    DeviceBuffer<Integer> a = ints(0, 0);
    DeviceBuffer<Integer> b = ints(0, 0);
    AtomicReference<@Nullable RecordedNode> node = new AtomicReference<>();
    try (CudaGraph<@Nullable Void> graph =
        CudaGraph.scope(
            stream,
            scope -> {
              scope.record(addOne(before, ONE));
              node.set(scope.recordNode(addOne(a, ONE_PROGRAMMATIC)));
            })) {
      assertRefusedAndGivenBack(
          () -> graph.replaceNode(node.get(), addOne(b, ONE)),
          b,
          "programmatic",
          "edge",
          "recapture");
      graph.launch().syncOn(stream);
      assertArrayEquals(new int[] {1, 1}, read(a));
    }
    a.close();
    before.close();
  }

  @Test
  void aFailedKernelNodeSetParamsGivesTheReplacementsBuffersBackAndKeepsTheOldNode() {
    KernelFixtures.ADD_ONE.load(platform.defaultDevice());
    DeviceBuffer<Integer> a = ints(0, 0);
    DeviceBuffer<Integer> b = ints(0, 0);
    AtomicReference<@Nullable RecordedNode> node = new AtomicReference<>();
    try (CudaGraph<@Nullable Void> graph =
        CudaGraph.scope(stream, scope -> node.set(scope.recordNode(addOne(a, ONE))))) {
      simulator
          .faults()
          .failNth(DriverCall.GRAPH_EXEC_KERNEL_NODE_SET_PARAMS, 1, CuResult.INVALID_VALUE);
      assertThrows(CudaDriverError.class, () -> graph.replaceNode(node.get(), addOne(b, ONE)));
      assertEquals(1, simulator.faults().fired());

      long live = liveDeviceMemory();
      b.close();
      assertEquals(live - 1, liveDeviceMemory(), "the failed replacement's buffer is freed");
      graph.launch().syncOn(stream);
      assertArrayEquals(new int[] {1, 1}, read(a));
      a.close();
      assertEquals(live - 1, liveDeviceMemory(), "the graph still holds the old node's buffer");
      graph.launch().syncOn(stream);
    }
  }

  /**
   * A kernel that sets the graph's own condition takes a replacement that sets the same condition,
   * also after an in-place recapture (whose new condition is then the one to pass); a condition of
   * an earlier capture of the graph, or of another graph, is refused.
   */
  @Test
  void aKernelNodeSettingItsGraphsConditionTakesAReplacementSettingTheSameCondition() {
    CHOOSE.load(platform.defaultDevice());
    KernelFixtures.ADD_ONE.load(platform.defaultDevice());
    DeviceBuffer<Integer> no = ints(0);
    DeviceBuffer<Integer> yes = ints(1);
    DeviceBuffer<Integer> hits = ints(0);
    AtomicReference<@Nullable RecordedNode> chooser = new AtomicReference<>();
    AtomicReference<@Nullable GraphCondition> condition = new AtomicReference<>();
    ScopeBody body =
        scope -> {
          GraphCondition c = scope.condition(0);
          condition.set(c);
          chooser.set(scope.recordNode(CHOOSE.launch(ONE, no, c)));
          scope.ifThen(c, then -> then.record(addOne(hits, ONE)));
        };
    try (CudaGraph<@Nullable Void> graph = CudaGraph.scope(stream, body)) {
      graph.launch().syncOn(stream);
      assertArrayEquals(new int[] {0}, read(hits));

      graph.replaceNode(chooser.get(), CHOOSE.launch(ONE, yes, condition.get()));
      graph.launch().syncOn(stream);
      assertArrayEquals(new int[] {1}, read(hits));

      GraphCondition first = condition.get();
      assertInstanceOf(GraphUpdate.InPlace.class, graph.recapture(body));
      graph.replaceNode(chooser.get(), CHOOSE.launch(ONE, yes, condition.get()));
      graph.launch().syncOn(stream);
      assertArrayEquals(new int[] {2}, read(hits));

      DeviceBuffer<Integer> unused = ints(1);
      assertRefusedAndGivenBack(
          () -> graph.replaceNode(chooser.get(), CHOOSE.launch(ONE, unused, first)),
          unused,
          "another capture",
          "recorded the node");

      AtomicReference<@Nullable GraphCondition> foreign = new AtomicReference<>();
      try (CudaGraph<@Nullable Void> other =
          CudaGraph.scope(
              stream,
              scope -> {
                GraphCondition c = scope.condition(0);
                foreign.set(c);
                scope.record(CHOOSE.launch(ONE, no, c));
                scope.ifThen(c, then -> then.record(addOne(hits, ONE)));
              })) {
        DeviceBuffer<Integer> unusedToo = ints(1);
        assertRefusedAndGivenBack(
            () -> graph.replaceNode(chooser.get(), CHOOSE.launch(ONE, unusedToo, foreign.get())),
            unusedToo,
            "another capture",
            "recorded the node");
        other.launch().syncOn(stream);
      }
      graph.launch().syncOn(stream);
      assertArrayEquals(new int[] {3}, read(hits));
    }
    no.close();
    yes.close();
    hits.close();
  }
}
