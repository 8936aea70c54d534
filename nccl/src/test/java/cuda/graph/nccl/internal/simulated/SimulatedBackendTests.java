// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 the cuda-graph authors
package cuda.graph.nccl.internal.simulated;

import static org.junit.jupiter.api.Assertions.assertEquals;

import cuda.graph.CudaPlatform;
import cuda.graph.nccl.Communicator;
import cuda.graph.nccl.Communicators;
import cuda.graph.nccl.Nccl;
import cuda.graph.nccl.NcclUniqueId;
import cuda.graph.simulator.Simulator;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import org.junit.jupiter.api.Test;

/**
 * The simulated backend shares its kernels among all communicators, which find their clique by an
 * id; a communicator's clique is dropped once every rank of it has been destroyed.
 */
class SimulatedBackendTests {

  private static final SimulatedBackend BACKEND = SimulatedBackend.INSTANCE;

  @Test
  void aClosedCommunicatorLeavesNoCliqueBehind() {
    int before = BACKEND.liveCliques();
    try (CudaPlatform platform =
        CudaPlatform.forDriver(Simulator.builder().devices(2).build(), "simulator")) {
      for (int i = 0; i < 3; i++) {
        try (Communicators world = Nccl.open(platform.devices())) {
          assertEquals(2, world.size());
          assertEquals(before + 1, BACKEND.liveCliques());
        }
        assertEquals(before, BACKEND.liveCliques());
      }
    }
  }

  @Test
  void joinedRanksKeepTheirCliqueUntilTheLastOfThemCloses() throws Exception {
    int before = BACKEND.liveCliques();
    ExecutorService processes = Executors.newFixedThreadPool(2);
    try (CudaPlatform first = CudaPlatform.forDriver(Simulator.create(), "simulator");
        CudaPlatform second = CudaPlatform.forDriver(Simulator.create(), "simulator")) {
      NcclUniqueId id = Nccl.newUniqueId(first);
      Future<Communicator> rank0 =
          processes.submit(() -> Nccl.join(first.defaultDevice(), id, 0, 2));
      Future<Communicator> rank1 =
          processes.submit(() -> Nccl.join(second.defaultDevice(), id, 1, 2));
      Communicator zero = rank0.get();
      Communicator one = rank1.get();
      assertEquals(before + 1, BACKEND.liveCliques());
      zero.close();
      assertEquals(before + 1, BACKEND.liveCliques(), "rank 1 is still open");
      one.close();
      assertEquals(before, BACKEND.liveCliques());
    } finally {
      processes.shutdown();
    }
  }
}
