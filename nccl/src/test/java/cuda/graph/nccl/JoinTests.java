// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 the cuda-graph authors
package cuda.graph.nccl;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import cuda.graph.CudaPlatform;
import cuda.graph.DeviceBuffer;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import org.junit.jupiter.api.Test;

/**
 * Ranks that find each other by an id, as processes do through NCCL's bootstrap: here each
 * "process" is a thread with a platform of its own.
 */
class JoinTests {

  @Test
  void threeRanksThatJoinOneIdFromTheirOwnPlatformsReduceTogether() throws Exception {
    int size = 3;
    NcclUniqueId id;
    try (CudaPlatform maker = SimulatedDevices.platform(1)) {
      id = Nccl.newUniqueId(maker);
    }
    NcclUniqueId sent = NcclUniqueId.fromHex(id.toHex());
    ExecutorService processes = Executors.newFixedThreadPool(size);
    try {
      List<Future<float[]>> results = new ArrayList<>();
      for (int r = 0; r < size; r++) {
        int rank = r;
        results.add(
            processes.submit(
                () -> {
                  try (CudaPlatform platform = SimulatedDevices.platform(1);
                      Communicator c = Nccl.join(platform.defaultDevice(), sent, rank, size)) {
                    return DeviceBuffer.fromArray(new float[] {rank, 1})
                        .then(b -> c.allReduce(b, ReduceOp.SUM).andThen(b.toFloatArray()))
                        .syncOn(c.stream());
                  }
                }));
      }
      for (Future<float[]> result : results) {
        assertArrayEquals(new float[] {3, 3}, result.get());
      }
    } finally {
      processes.shutdown();
    }
  }

  @Test
  void aOneRankCommunicatorIsValidAndItsAllReduceCopies() {
    try (CudaPlatform platform = SimulatedDevices.platform(1);
        Communicators world = Nccl.open(platform.devices())) {
      Communicator only = world.rank(0);

      float[] result =
          DeviceBuffer.fromArray(new float[] {1, 2, 3})
              .then(b -> only.allReduce(b, ReduceOp.SUM).andThen(b.toFloatArray()))
              .syncOn(only.stream());

      assertArrayEquals(new float[] {1, 2, 3}, result);
      assertEquals(1, only.size());
    }
  }

  @Test
  void anIdIsExactly128BytesAndARankMustFitTheSize() {
    assertThrows(IllegalArgumentException.class, () -> NcclUniqueId.of(new byte[12]));
    try (CudaPlatform platform = SimulatedDevices.platform(1)) {
      NcclUniqueId id = Nccl.newUniqueId(platform);
      assertThrows(
          IllegalArgumentException.class, () -> Nccl.join(platform.defaultDevice(), id, 2, 2));
      assertThrows(
          IllegalArgumentException.class, () -> Nccl.join(platform.defaultDevice(), id, 0, 0));
    }
  }
}
