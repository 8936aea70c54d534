// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 the cuda-graph authors
package cuda.graph.nccl;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTimeoutPreemptively;
import static org.junit.jupiter.api.Assertions.assertTrue;

import cuda.graph.CudaPlatform;
import cuda.graph.DeviceBuffer;
import cuda.graph.DeviceOp;
import cuda.graph.ElementType;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.stream.IntStream;
import org.jspecify.annotations.Nullable;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.function.ThrowingSupplier;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * A step that one rank's checks refuse when its op is made runs on no rank: the refusal is thrown
 * at once instead of the other ranks waiting in their collectives for a rank that never comes (NCCL
 * hangs there; the simulated one gives up after its timeout and fails every device), and the
 * communicator runs the next step as if nothing had happened.
 */
class CommunicatorsRefusedStepTests {

  private static final int N = 6;

  /**
   * What a refusal may take at most, against the simulated NCCL's 30 s wait for a missing rank; it
   * takes milliseconds, the bound is only there to fail instead of hanging.
   */
  private static final Duration BOUND = Duration.ofSeconds(10);

  private CudaPlatform platform;
  private Communicators world;

  private void open(int ranks) {
    platform = SimulatedDevices.platform(ranks);
    world = Nccl.open(platform.devices());
  }

  @AfterEach
  void close() {
    world.close();
    platform.close();
  }

  private static <T> T withoutHanging(ThrowingSupplier<T> work) {
    return assertTimeoutPreemptively(BOUND, work);
  }

  /** Rank r's element i: 10 * (r + 1) + i. */
  private static int[] brought(int rank) {
    return IntStream.range(0, N).map(i -> 10 * (rank + 1) + i).toArray();
  }

  private static int[] sumOfBrought(int ranks) {
    return IntStream.range(0, N)
        .map(i -> IntStream.range(0, ranks).map(r -> brought(r)[i]).sum())
        .toArray();
  }

  private List<DeviceBuffer<Integer>> broughtPerRank() {
    return world.run(c -> DeviceBuffer.fromArray(brought(c.rank())));
  }

  /** All-reduces each rank's buffer in place and reads it back. */
  private List<int[]> allReduce(List<DeviceBuffer<Integer>> buffers) {
    return world.run(
        c -> {
          DeviceBuffer<Integer> mine = buffers.get(c.rank());
          return c.allReduce(mine, ReduceOp.SUM).andThen(mine.toIntArray());
        });
  }

  private void free(List<DeviceBuffer<Integer>> buffers) {
    world.run(c -> buffers.get(c.rank()).free());
  }

  @ParameterizedTest
  @ValueSource(ints = {2, 3, 4})
  void everyRankPassingRankZerosBufferIsRefusedAtOnceAndTheNextAllReduceIsRight(int ranks) {
    open(ranks);
    List<DeviceBuffer<Integer>> buffers = broughtPerRank();

    IllegalArgumentException refused =
        withoutHanging(
            () ->
                assertThrows(
                    IllegalArgumentException.class,
                    () -> world.run(c -> c.allReduce(buffers.getFirst(), ReduceOp.SUM))));
    List<int[]> results = withoutHanging(() -> allReduce(buffers));

    assertTrue(refused.getMessage().startsWith("ncclAllReduce: "), refused.getMessage());
    assertTrue(
        refused.getMessage().contains("lives on device 0 but communicator rank 1 of " + ranks),
        refused.getMessage());
    assertEquals(ranks - 2, refused.getSuppressed().length, "ranks 2 and up are refused too");
    for (int r = 0; r < ranks; r++) {
      assertArrayEquals(sumOfBrought(ranks), results.get(r), "rank " + r);
    }
    free(buffers);
  }

  @Test
  void oneRanksGatherBufferOfTheWrongLengthStopsTheStepBeforeAnyRankFillsItsPart() {
    open(3);
    List<DeviceBuffer<Integer>> parts = broughtPerRank();
    List<DeviceBuffer<Integer>> gathered =
        world.run(c -> DeviceBuffer.zeros(ElementType.I32, c.rank() == 2 ? N : 3L * N));

    IllegalArgumentException refused =
        withoutHanging(
            () ->
                assertThrows(
                    IllegalArgumentException.class,
                    () ->
                        world.run(
                            c -> {
                              DeviceBuffer<Integer> part = parts.get(c.rank());
                              return part.fill(-1)
                                  .andThen(c.allGather(part, gathered.get(c.rank())));
                            })));
    List<int[]> afterwards = withoutHanging(() -> world.run(c -> parts.get(c.rank()).toIntArray()));
    List<int[]> results = withoutHanging(() -> allReduce(parts));

    assertTrue(refused.getMessage().startsWith("ncclAllGather: "), refused.getMessage());
    for (int r = 0; r < 3; r++) {
      assertArrayEquals(brought(r), afterwards.get(r), "rank " + r + " ran none of the step");
      assertArrayEquals(sumOfBrought(3), results.get(r), "rank " + r);
    }
    free(parts);
    free(gathered);
  }

  @Test
  void anExchangeGroupThatOneRankRefusesRunsOnNoRank() {
    open(2);
    List<DeviceBuffer<Integer>> mine = broughtPerRank();
    List<DeviceBuffer<Integer>> theirs = world.run(c -> DeviceBuffer.zeros(ElementType.I32, N));

    IllegalArgumentException refused =
        withoutHanging(
            () ->
                assertThrows(
                    IllegalArgumentException.class,
                    () ->
                        world.run(
                            c ->
                                c.group(
                                    g -> {
                                      int peer = 1 - c.rank();
                                      g.send(mine.get(c.rank()), peer);
                                      // Rank 1 receives into rank 0's buffer.
                                      g.recv(theirs.getFirst(), peer);
                                    }))));
    List<int[]> results = withoutHanging(() -> allReduce(mine));

    assertTrue(refused.getMessage().startsWith("ncclRecv: "), refused.getMessage());
    assertTrue(refused.getMessage().contains("communicator rank 1 of 2"), refused.getMessage());
    results.forEach(r -> assertArrayEquals(sumOfBrought(2), r));
    free(mine);
    free(theirs);
  }

  @Test
  void aCaptureThatOneRankRefusesCapturesNothingOnAnyRankAndTheNextCaptureReplaysRight() {
    open(2);
    List<DeviceBuffer<Integer>> buffers = broughtPerRank();
    AtomicInteger capturedOps = new AtomicInteger();

    IllegalArgumentException refused =
        withoutHanging(
            () ->
                assertThrows(
                    IllegalArgumentException.class,
                    () ->
                        world.capture(
                            c -> {
                              // Rank 1 passes rank 0's buffer.
                              var node = c.allReduce(buffers.getFirst(), ReduceOp.SUM);
                              return DeviceOp.value(c.rank())
                                  .then(
                                      r -> {
                                        capturedOps.incrementAndGet();
                                        return node;
                                      });
                            })));
    List<int[]> results =
        withoutHanging(
            () -> {
              try (CapturedStep<@Nullable Void> step =
                  world.capture(c -> c.allReduce(buffers.get(c.rank()), ReduceOp.SUM))) {
                step.replay();
              }
              return world.run(c -> buffers.get(c.rank()).toIntArray());
            });

    assertTrue(refused.getMessage().contains("communicator rank 1 of 2"), refused.getMessage());
    assertEquals(0, capturedOps.get(), "rank 0's op was captured although rank 1's was refused");
    results.forEach(r -> assertArrayEquals(sumOfBrought(2), r));
    free(buffers);
  }

  @Test
  void aReplayWithOneRanksGraphClosedLaunchesOnNoRankAndTheNextAllReduceIsRight() {
    open(2);
    List<DeviceBuffer<Integer>> buffers = broughtPerRank();
    CapturedStep<@Nullable Void> step =
        world.capture(c -> c.allReduce(buffers.get(c.rank()), ReduceOp.SUM));
    step.graphs().get(1).close();

    IllegalStateException refused =
        withoutHanging(() -> assertThrows(IllegalStateException.class, step::replay));
    List<int[]> results = withoutHanging(() -> allReduce(buffers));

    assertTrue(refused.getMessage().contains("rank 1's graph is closed"), refused.getMessage());
    results.forEach(r -> assertArrayEquals(sumOfBrought(2), r));
    step.close();
    free(buffers);
  }
}
