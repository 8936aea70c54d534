// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 the cuda-graph authors
package cuda.graph.nccl;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;

import cuda.graph.CudaPlatform;
import cuda.graph.DeviceBuffer;
import cuda.graph.DeviceOp;
import cuda.graph.ElementType;
import cuda.graph.GraphNode;
import java.util.List;
import java.util.stream.IntStream;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * What every collective computes, with 2, 3 and 4 simulated devices: each rank brings values that
 * name it, and the results are checked against what the ranks brought.
 */
class CollectiveContractTests {

  private static final int N = 6;

  private CudaPlatform platform;
  private Communicators world;

  private Communicators open(int ranks) {
    platform = SimulatedDevices.platform(ranks);
    world = Nccl.open(platform.devices());
    return world;
  }

  @AfterEach
  void close() {
    world.close();
    platform.close();
  }

  /** Rank r's element i: 10 * (r + 1) + i. */
  private static int[] brought(int rank, int length) {
    return IntStream.range(0, length).map(i -> 10 * (rank + 1) + i).toArray();
  }

  @ParameterizedTest
  @ValueSource(ints = {2, 3, 4})
  void anAllReduceGivesEveryRankTheSumOfWhatEveryRankBrought(int ranks) {
    open(ranks);

    List<int[]> results =
        world.run(
            c ->
                DeviceBuffer.fromArray(brought(c.rank(), N))
                    .then(b -> c.allReduce(b, ReduceOp.SUM).andThen(b.toIntArray())));

    int[] expected = new int[N];
    for (int r = 0; r < ranks; r++) {
      for (int i = 0; i < N; i++) {
        expected[i] += brought(r, N)[i];
      }
    }
    for (int r = 0; r < ranks; r++) {
      assertArrayEquals(expected, results.get(r), "rank " + r);
    }
  }

  @ParameterizedTest
  @EnumSource(ReduceOp.class)
  void everyReductionCombinesTheRanksElementByElement(ReduceOp op) {
    open(3);

    List<float[]> results =
        world.run(
            c ->
                DeviceBuffer.fromArray(new float[] {c.rank() + 1, -(c.rank() + 1), 2})
                    .then(
                        b ->
                            DeviceBuffer.zeros(ElementType.F32, 3)
                                .then(out -> c.allReduce(b, out, op).andThen(out.toFloatArray()))));

    float[] expected =
        switch (op) {
          case SUM -> new float[] {6, -6, 6};
          case PRODUCT -> new float[] {6, -6, 8};
          case MAX -> new float[] {3, -1, 2};
          case MIN -> new float[] {1, -3, 2};
          case AVERAGE -> new float[] {2, -2, 2};
        };
    results.forEach(r -> assertArrayEquals(expected, r, 0f, op.toString()));
  }

  @ParameterizedTest
  @ValueSource(ints = {2, 3, 4})
  void anAllGatherListsEveryRanksPartInRankOrder(int ranks) {
    open(ranks);

    List<int[]> results =
        world.run(
            c ->
                DeviceBuffer.fromArray(brought(c.rank(), N))
                    .then(
                        part ->
                            DeviceBuffer.zeros(ElementType.I32, (long) N * ranks)
                                .then(all -> c.allGather(part, all).andThen(all.toIntArray()))));

    int[] expected = IntStream.range(0, ranks).flatMap(r -> IntStream.of(brought(r, N))).toArray();
    results.forEach(r -> assertArrayEquals(expected, r));
  }

  @ParameterizedTest
  @ValueSource(ints = {2, 3, 4})
  void aReduceScatterGivesRankRPartROfTheSum(int ranks) {
    open(ranks);

    List<int[]> results =
        world.run(
            c ->
                DeviceBuffer.fromArray(brought(c.rank(), N * ranks))
                    .then(
                        all ->
                            DeviceBuffer.zeros(ElementType.I32, N)
                                .then(
                                    part ->
                                        c.reduceScatter(all, part, ReduceOp.SUM)
                                            .andThen(part.toIntArray()))));

    for (int r = 0; r < ranks; r++) {
      int[] expected = new int[N];
      for (int q = 0; q < ranks; q++) {
        for (int i = 0; i < N; i++) {
          expected[i] += brought(q, N * ranks)[r * N + i];
        }
      }
      assertArrayEquals(expected, results.get(r), "rank " + r);
    }
  }

  @ParameterizedTest
  @ValueSource(ints = {2, 3, 4})
  void aBroadcastCopiesTheRootsBufferToEveryRank(int ranks) {
    open(ranks);
    int root = ranks - 1;

    List<int[]> results =
        world.run(
            c ->
                DeviceBuffer.fromArray(brought(c.rank(), N))
                    .then(b -> c.broadcast(b, root).andThen(b.toIntArray())));

    results.forEach(r -> assertArrayEquals(brought(root, N), r));
  }

  @ParameterizedTest
  @ValueSource(ints = {2, 3, 4})
  void aGroupThatReceivesBeforeItSendsPassesEachRanksBufferAroundTheRing(int ranks) {
    open(ranks);

    List<int[]> results =
        world.run(
            c ->
                DeviceBuffer.fromArray(brought(c.rank(), N))
                    .then(
                        mine ->
                            DeviceBuffer.zeros(ElementType.I32, N)
                                .then(
                                    from ->
                                        c.group(
                                                g -> {
                                                  g.recv(from, (c.rank() + ranks - 1) % ranks);
                                                  g.send(mine, (c.rank() + 1) % ranks);
                                                })
                                            .andThen(from.toIntArray()))));

    for (int r = 0; r < ranks; r++) {
      assertArrayEquals(brought((r + ranks - 1) % ranks, N), results.get(r), "rank " + r);
    }
  }

  @ParameterizedTest
  @ValueSource(ints = {2, 4})
  void halfPrecisionSumsRoundToTheElementType(int ranks) {
    open(ranks);
    short[] one = new short[N];
    java.util.Arrays.fill(one, Float.floatToFloat16(0.5f));

    List<short[]> results =
        world.run(
            c ->
                DeviceBuffer.fromArray(ElementType.F16, one)
                    .then(b -> c.allReduce(b, ReduceOp.SUM).andThen(b.toShortArray())));

    for (short[] r : results) {
      for (short h : r) {
        assertEquals(0.5f * ranks, Float.float16ToFloat(h));
      }
    }
  }

  @ParameterizedTest
  @ValueSource(ints = {2, 3})
  void aCollectiveSeesTheWorkBeforeItOnItsStreamAndTheWorkAfterItSeesItsResult(int ranks) {
    open(ranks);

    List<int[]> results =
        world.run(
            c ->
                DeviceBuffer.zeros(ElementType.I32, N)
                    .then(
                        b ->
                            DeviceOp.zipAll(
                                    List.<GraphNode<?>>of(
                                        b.fill(c.rank() + 1),
                                        c.allReduce(b, ReduceOp.SUM),
                                        c.allReduce(b, ReduceOp.MAX)))
                                .andThen(b.toIntArray())));

    int sum = ranks * (ranks + 1) / 2;
    results.forEach(r -> assertArrayEquals(IntStream.generate(() -> sum).limit(N).toArray(), r));
  }
}
