// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 the cuda-graph authors
package cuda.graph.nccl;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import cuda.graph.CudaDriverError;
import cuda.graph.CudaPlatform;
import cuda.graph.DeviceBuffer;
import cuda.graph.DeviceOp;
import cuda.graph.ElementType;
import cuda.graph.Stream;
import java.util.List;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * Bad input fails when the node is made, with a message naming the collective and what to do; ranks
 * that disagree, or a rank that never comes, fail every rank of the communicator instead of hanging
 * as NCCL would.
 */
class CollectiveMisuseTests {

  private CudaPlatform platform;
  private Communicators world;
  private Stream onFirst;

  @BeforeEach
  void open() {
    System.setProperty("cuda.graph.nccl.simulator.timeout", "300");
    platform = SimulatedDevices.platform(2);
    world = Nccl.open(platform.devices());
    onFirst = platform.device(0).newStream();
  }

  @AfterEach
  void close() {
    System.clearProperty("cuda.graph.nccl.simulator.timeout");
    onFirst.close();
    world.close();
    platform.close();
  }

  private String refusal(Runnable make) {
    return assertThrows(IllegalArgumentException.class, make::run).getMessage();
  }

  @Test
  void aBufferOfAnotherRanksDeviceIsRefused() {
    try (DeviceBuffer<Float> onSecond =
        DeviceBuffer.zeros(ElementType.F32, 4).syncOn(world.rank(1).stream())) {
      String message = refusal(() -> world.rank(0).allReduce(onSecond, ReduceOp.SUM));

      assertTrue(message.startsWith("ncclAllReduce: "), message);
      assertTrue(message.contains("lives on device 1 but communicator rank 0 of 2"), message);
    }
  }

  @Test
  void aGroupWhoseFirstCollectiveIsRefusedReportsThatRefusalRatherThanAnEmptyGroup() {
    try (DeviceBuffer<Float> onSecond =
        DeviceBuffer.zeros(ElementType.F32, 4).syncOn(world.rank(1).stream())) {
      String message =
          refusal(() -> world.rank(0).group(g -> g.allReduce(onSecond, onSecond, ReduceOp.SUM)));

      assertTrue(message.startsWith("ncclAllReduce: "), message);
      assertTrue(message.contains("lives on device 1 but communicator rank 0 of 2"), message);
    }
  }

  @Test
  void lengthsThatDoNotFitTheCollectiveAreRefused() {
    try (DeviceBuffer<Float> four = DeviceBuffer.zeros(ElementType.F32, 4).syncOn(onFirst);
        DeviceBuffer<Float> six = DeviceBuffer.zeros(ElementType.F32, 6).syncOn(onFirst)) {
      Communicator first = world.rank(0);

      assertTrue(
          refusal(() -> first.allGather(four, six))
              .contains("the receive buffer must hold size (2) times the send buffer's elements"));
      assertTrue(
          refusal(() -> first.reduceScatter(four, six, ReduceOp.SUM))
              .contains("the send buffer must hold size (2) times the receive buffer's elements"));
      assertTrue(
          refusal(() -> first.allReduce(four, six, ReduceOp.MAX))
              .contains("both buffers must hold as many elements"));
    }
  }

  @Test
  void ranksOutsideTheCommunicatorAndElementTypesNcclLacksAreRefused() {
    try (DeviceBuffer<Float> buffer = DeviceBuffer.zeros(ElementType.F32, 4).syncOn(onFirst);
        DeviceBuffer<Short> shorts = DeviceBuffer.zeros(ElementType.I16, 4).syncOn(onFirst)) {
      Communicator first = world.rank(0);

      assertTrue(refusal(() -> first.broadcast(buffer, 2)).contains("root 2 is no rank"));
      assertTrue(refusal(() -> first.send(buffer, 0)).contains("is this rank itself"));
      assertTrue(
          refusal(() -> first.allReduce(shorts, ReduceOp.SUM)).startsWith("ncclAllReduce: "));
      assertTrue(
          refusal(() -> first.group(g -> {})).contains("added no collective"), "an empty group");
    }
  }

  @Test
  void ranksThatRunDifferentCollectivesFailEveryRankWithBothNamed() {
    RuntimeException failure =
        assertThrows(
            RuntimeException.class,
            () ->
                world.run(
                    c ->
                        DeviceBuffer.zeros(ElementType.F32, 4)
                            .then(
                                b ->
                                    c.rank() == 0
                                        ? c.allReduce(b, ReduceOp.SUM)
                                        : c.broadcast(b, 0))));

    CudaDriverError error = assertCudaError(failure);
    assertTrue(
        error.getMessage().contains("ranks disagree about collective #0"), error.getMessage());
    assertTrue(error.getMessage().contains("ncclBroadcast(4 x f32, root 0)"), error.getMessage());
    assertEquals(1, failure.getSuppressed().length, "the other rank failed too");
  }

  @Test
  void aRankThatNeverComesFailsTheOthersAfterTheTimeoutInsteadOfHanging() {
    try (DeviceBuffer<Float> buffer = DeviceBuffer.zeros(ElementType.F32, 4).syncOn(onFirst)) {
      RuntimeException failure =
          assertThrows(
              RuntimeException.class,
              () -> world.rank(0).allReduce(buffer, ReduceOp.SUM).syncOn(onFirst));

      CudaDriverError error = assertCudaError(failure);
      assertTrue(error.getMessage().contains("waits for rank(s) [1]"), error.getMessage());
      assertTrue(error.getMessage().contains("where NCCL would hang"), error.getMessage());
    }
  }

  private static CudaDriverError assertCudaError(Throwable failure) {
    for (Throwable t = failure; t != null; t = t.getCause()) {
      if (t instanceof CudaDriverError e) {
        return e;
      }
    }
    throw new AssertionError("expected a CudaDriverError in " + failure, failure);
  }

  @Test
  void theSimulatedVersionIsReportedAsSuch() {
    assertEquals("simulated", Nccl.version(platform));
    assertEquals(2, world.size());
    assertEquals(List.of(0, 1), world.ranks().stream().map(Communicator::rank).toList());
    DeviceOp.value(1).syncOn(onFirst);
  }
}
