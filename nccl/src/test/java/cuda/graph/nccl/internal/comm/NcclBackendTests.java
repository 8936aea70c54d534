// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 the cuda-graph authors
package cuda.graph.nccl.internal.comm;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import cuda.graph.CudaPlatform;
import cuda.graph.DeviceBuffer;
import cuda.graph.ElementType;
import cuda.graph.nccl.Communicators;
import cuda.graph.nccl.NcclException;
import cuda.graph.nccl.ReduceOp;
import cuda.graph.nccl.internal.binding.FakeNccl;
import cuda.graph.nccl.internal.binding.NcclEntry;
import cuda.graph.nccl.internal.binding.NcclResults;
import cuda.graph.simulator.Simulator;
import java.util.List;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * NCCL's backend without a GPU: its calls go to an NCCL made of upcall stubs, over the simulator's
 * streams, so the order of the calls, what they are given and what their failures become are
 * checked in every build.
 */
class NcclBackendTests {

  private FakeNccl nccl;
  private CudaPlatform platform;
  private Communicators world;

  @BeforeEach
  void open() {
    nccl = FakeNccl.recording();
    platform = CudaPlatform.forDriver(Simulator.builder().devices(2).build(), "simulator");
    world = CommunicatorsImpl.open(platform.devices(), new NcclBackend(nccl.bind()));
  }

  @AfterEach
  void close() {
    world.close();
    platform.close();
    nccl.close();
  }

  /** {@return the entries {@code thread} called, in order} */
  private List<String> calledBy(String thread) {
    return nccl.order().stream()
        .filter(c -> c.startsWith(thread + ":"))
        .map(c -> c.substring(thread.length() + 1))
        .toList();
  }

  @Test
  void aGroupIsOneGroupStartItsCollectivesInOrderAndOneGroupEndOnEachRanksThread() {
    world.run(
        c ->
            DeviceBuffer.zeros(ElementType.F32, 8)
                .then(
                    a ->
                        DeviceBuffer.zeros(ElementType.F32, 16)
                            .then(
                                b ->
                                    c.group(
                                        g -> {
                                          g.allReduce(a, a, ReduceOp.MAX);
                                          g.allGather(a, b);
                                        }))));

    for (int rank = 0; rank < 2; rank++) {
      assertEquals(
          List.of("GROUP_START", "ALL_REDUCE", "ALL_GATHER", "GROUP_END"),
          calledBy("cuda-graph-nccl rank " + rank),
          "rank " + rank);
    }
    List<Object> allReduce = nccl.lastCall(NcclEntry.ALL_REDUCE);
    assertEquals(8L, allReduce.get(2), "count");
    assertEquals(7, allReduce.get(3), "ncclFloat32");
    assertEquals(ReduceOp.MAX.code(), allReduce.get(4), "ncclMax");
    assertEquals(allReduce.get(0), allReduce.get(1), "in place: one address for both");
    assertEquals(8L, nccl.lastCall(NcclEntry.ALL_GATHER).get(2), "the send buffer's count");
  }

  @Test
  void aSingleCollectiveIsIssuedWithoutAGroup() {
    world.run(c -> DeviceBuffer.zeros(ElementType.I32, 4).then(b -> c.broadcast(b, 1)));

    assertEquals(List.of("BROADCAST"), calledBy("cuda-graph-nccl rank 0"));
    assertEquals(1, nccl.lastCall(NcclEntry.BROADCAST).get(4), "root");
  }

  @Test
  void aFailingCollectiveInAGroupStillEndsTheGroupAndReportsNcclsCodeAndAdvice() {
    nccl.returning(NcclEntry.ALL_REDUCE, NcclResults.INVALID_USAGE);

    NcclException failure =
        assertThrows(
            NcclException.class,
            () ->
                world.run(
                    c ->
                        DeviceBuffer.zeros(ElementType.F32, 4)
                            .then(
                                b ->
                                    c.group(
                                        g -> {
                                          g.allReduce(b, b, ReduceOp.SUM);
                                          g.broadcast(b, b, 0);
                                        }))));

    assertEquals("ncclAllReduce", failure.function());
    assertTrue(failure.getMessage().contains("ncclInvalidUsage (5)"), failure.getMessage());
    assertEquals(
        List.of("GROUP_START", "ALL_REDUCE", "GROUP_END"), calledBy("cuda-graph-nccl rank 0"));
    assertEquals(1, failure.getSuppressed().length, "the other rank's failure is kept too");
  }

  @Test
  void closingFinalizesTheRanksInOneGroupThenDestroysEach() {
    world.close();

    List<String> destroy = calledBy("cuda-graph-nccl destroy");
    assertEquals(
        List.of(
            "GROUP_START",
            "COMM_FINALIZE",
            "COMM_FINALIZE",
            "GROUP_END",
            "COMM_DESTROY",
            "COMM_DESTROY"),
        destroy);
  }
}
