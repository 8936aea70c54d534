// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 the cuda-graph authors
package cuda.graph.nccl;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import cuda.graph.CudaPlatform;
import cuda.graph.DeviceBuffer;
import cuda.graph.ElementType;
import java.util.List;
import java.util.stream.IntStream;
import org.jspecify.annotations.Nullable;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

/**
 * Real NCCL on the real driver: a communicator over every GPU of the machine (one rank on one
 * H200), collectives eager and captured into graphs, and a rank joined by id. Run with {@code
 * -Dcuda.graph.provider=cuda} and NCCL findable (see {@code scripts/gpu-run.sh nccl}); where the
 * system platform is not the GPU's they are skipped.
 */
@Tag("gpu")
class NcclGpuTests {

  private static final int N = 1 << 20;

  private static CudaPlatform platform;

  @BeforeAll
  static void findGpuAndNccl() {
    CudaPlatform system = CudaPlatform.system();
    Assumptions.assumeTrue(
        system.providerId().equals("cuda"),
        "no GPU: the system platform is '" + system.providerId() + "'");
    // A GPU host that runs these tests must have NCCL: a missing library fails them, with the
    // message that says where it was looked for and how to provide it.
    Nccl.version(system);
    platform = system;
  }

  private static float[] ramp(int rank) {
    float[] values = new float[N];
    for (int i = 0; i < N; i++) {
      values[i] = rank + (i % 1000);
    }
    return values;
  }

  @Test
  void theBindingReportsAnNcclOfAtLeast218() {
    String version = Nccl.version(platform);
    String[] parts = version.split("\\.");

    assertEquals(3, parts.length, version);
    assertTrue(
        Integer.parseInt(parts[0]) * 100 + Integer.parseInt(parts[1]) >= 218, "NCCL " + version);
  }

  @Test
  void anAllReduceOverEveryGpuSumsTheRanksEagerly() {
    try (Communicators world = Nccl.open(platform.devices())) {
      int ranks = world.size();

      List<float[]> results =
          world.run(
              c ->
                  DeviceBuffer.fromArray(ramp(c.rank()))
                      .then(b -> c.allReduce(b, ReduceOp.SUM).andThen(b.toFloatArray())));

      float[] expected = new float[N];
      for (int r = 0; r < ranks; r++) {
        float[] brought = ramp(r);
        for (int i = 0; i < N; i++) {
          expected[i] += brought[i];
        }
      }
      results.forEach(r -> assertArrayEquals(expected, r));
    }
  }

  @Test
  void aCapturedStepOfFillAllReduceAndAllGatherReplaysAsOftenAsAsked() {
    try (Communicators world = Nccl.open(platform.devices())) {
      int ranks = world.size();
      List<DeviceBuffer<Float>> grads = world.run(c -> DeviceBuffer.zeros(ElementType.F32, N));
      List<DeviceBuffer<Float>> all =
          world.run(c -> DeviceBuffer.zeros(ElementType.F32, (long) N * ranks));
      // NCCL connects on a collective's first use, which must happen outside a capture.
      world.run(c -> c.allReduce(grads.get(c.rank()), ReduceOp.SUM));
      world.run(c -> c.allGather(grads.get(c.rank()), all.get(c.rank())));

      try (CapturedStep<@Nullable Void> step =
          world.capture(
              c -> {
                DeviceBuffer<Float> g = grads.get(c.rank());
                return g.fill(1f)
                    .andThen(c.allReduce(g, ReduceOp.SUM))
                    .andThen(c.allReduce(g, ReduceOp.SUM))
                    .andThen(c.allGather(g, all.get(c.rank())));
              })) {
        step.replay(10);
      }

      float expected = (float) ranks * ranks;
      List<float[]> results = world.run(c -> all.get(c.rank()).toFloatArray());
      for (float[] r : results) {
        assertTrue(IntStream.range(0, r.length).allMatch(i -> r[i] == expected), "all " + expected);
      }
      world.run(c -> grads.get(c.rank()).free());
      world.run(c -> all.get(c.rank()).free());
    }
  }

  @Test
  void aRankJoinedByIdBroadcastsAndGroupsOnTheRealDriver() {
    NcclUniqueId id = Nccl.newUniqueId(platform);
    try (Communicator only = Nccl.join(platform.defaultDevice(), id, 0, 1)) {
      float[] result =
          DeviceBuffer.fromArray(ramp(3))
              .then(
                  b ->
                      DeviceBuffer.zeros(ElementType.F32, N)
                          .then(
                              out ->
                                  only.group(
                                          g -> {
                                            g.broadcast(b, out, 0);
                                            g.allReduce(out, out, ReduceOp.MAX);
                                          })
                                      .andThen(out.toFloatArray())))
              .syncOn(only.stream());

      assertArrayEquals(ramp(3), result);
    }
  }
}
