// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 the cuda-graph authors
package cuda.graph.nccl;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import cuda.graph.CudaPlatform;
import cuda.graph.DeviceBuffer;
import cuda.graph.ElementType;
import cuda.graph.NodeKind;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.IntStream;
import org.jspecify.annotations.Nullable;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * A step of work and collectives captured once per rank and replayed together: replays equal the
 * eager step run as often, each replay sees the one before it, and closing the communicators ends
 * both new collectives and replays on the ranks' streams.
 */
class CapturedStepTests {

  private static final int N = 4;

  private static List<DeviceBuffer<Integer>> onesPerRank(Communicators world) {
    return world.run(c -> DeviceBuffer.filled(ElementType.I32, N, c.rank() + 1));
  }

  @ParameterizedTest
  @ValueSource(ints = {2, 3, 4})
  void replayingACapturedAllReduceEqualsRunningItEagerlyAsOften(int ranks) {
    try (CudaPlatform platform = SimulatedDevices.platform(ranks);
        Communicators world = Nccl.open(platform.devices())) {
      List<DeviceBuffer<Integer>> eager = onesPerRank(world);
      List<DeviceBuffer<Integer>> captured = onesPerRank(world);
      // x <- sum over ranks of x, then x <- x + x: the state grows, so replays cannot be confused.
      for (int i = 0; i < 3; i++) {
        world.run(c -> c.allReduce(eager.get(c.rank()), ReduceOp.SUM));
      }

      try (CapturedStep<@Nullable Void> step =
          world.capture(c -> c.allReduce(captured.get(c.rank()), ReduceOp.SUM))) {
        step.replay();
        step.replay(2);

        assertEquals(ranks, step.graphs().size());
        assertTrue(step.graphs().getFirst().nodeKinds().contains(NodeKind.KERNEL));
      }
      List<int[]> expected = world.run(c -> eager.get(c.rank()).toIntArray());
      List<int[]> replayed = world.run(c -> captured.get(c.rank()).toIntArray());
      int total = ranks * (ranks + 1) / 2 * ranks * ranks;
      for (int r = 0; r < ranks; r++) {
        assertArrayEquals(expected.get(r), replayed.get(r), "rank " + r);
        assertArrayEquals(IntStream.generate(() -> total).limit(N).toArray(), replayed.get(r));
      }
      world.run(c -> captured.get(c.rank()).free());
      world.run(c -> eager.get(c.rank()).free());
    }
  }

  @ParameterizedTest
  @ValueSource(ints = {2})
  void aStepOfComputeAndCollectivesIsCapturedTogetherAcrossTheRanks(int ranks) {
    try (CudaPlatform platform = SimulatedDevices.platform(ranks);
        Communicators world = Nccl.open(platform.devices())) {
      List<DeviceBuffer<Integer>> gradients = onesPerRank(world);
      List<DeviceBuffer<Integer>> gathered =
          world.run(c -> DeviceBuffer.zeros(ElementType.I32, (long) N * ranks));

      try (CapturedStep<@Nullable Void> step =
          world.capture(
              c -> {
                DeviceBuffer<Integer> g = gradients.get(c.rank());
                return g.fill(10 * (c.rank() + 1))
                    .andThen(c.allReduce(g, ReduceOp.SUM))
                    .andThen(c.allGather(g, gathered.get(c.rank())));
              })) {
        for (int i = 0; i < 5; i++) {
          step.replay();
        }
      }

      List<int[]> results = world.run(c -> gathered.get(c.rank()).toIntArray());
      results.forEach(
          r -> assertArrayEquals(IntStream.generate(() -> 30).limit(N * 2L).toArray(), r));
    }
  }

  @ParameterizedTest
  @ValueSource(ints = {2})
  void closingTheCommunicatorsRefusesNewNodesAndReplaysOfStepsOnItsStreams(int ranks) {
    try (CudaPlatform platform = SimulatedDevices.platform(ranks)) {
      Communicators world = Nccl.open(platform.devices());
      List<DeviceBuffer<Integer>> buffers = onesPerRank(world);
      CapturedStep<@Nullable Void> step =
          world.capture(c -> c.allReduce(buffers.get(c.rank()), ReduceOp.SUM));
      List<Communicator> ranksBefore = new ArrayList<>(world.ranks());

      world.close();
      IllegalStateException replay = assertThrows(IllegalStateException.class, step::replay);

      assertTrue(replay.getMessage().contains("is closed"), replay.getMessage());
      IllegalStateException refused =
          assertThrows(
              IllegalStateException.class,
              () -> ranksBefore.getFirst().allReduce(buffers.getFirst(), ReduceOp.SUM));
      assertTrue(refused.getMessage().contains("is closed"), refused.getMessage());
      step.close();
      for (DeviceBuffer<Integer> b : buffers) {
        b.close();
      }
    }
  }
}
