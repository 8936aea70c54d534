// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 the cuda-graph authors
package cuda.graph.nccl;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;

import cuda.graph.CudaPlatform;
import cuda.graph.DeviceBuffer;
import cuda.graph.simulator.Simulator;
import cuda.graph.spi.HandleKind;
import cuda.graph.testkit.InstrumentedDriver;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * On the simulator a group of collectives is a kernel launch, and kernels live in modules: one per
 * device and group size, shared by every communicator of the platform and unloaded with it, so
 * opening and closing communicators again loads nothing more.
 */
class SimulatedModuleTests {

  @Test
  void openingAndClosingCommunicatorsAgainLoadsNoFurtherModule() {
    InstrumentedDriver driver = new InstrumentedDriver(Simulator.builder().devices(2).build());
    try (CudaPlatform platform = CudaPlatform.forDriver(driver, "simulator")) {
      allReduceWithANewCommunicator(platform);
      assertEquals(2, driver.ledger().created(HandleKind.MODULE), "one module per device");
      for (int i = 0; i < 3; i++) {
        allReduceWithANewCommunicator(platform);
      }
      assertEquals(
          2,
          driver.ledger().created(HandleKind.MODULE),
          () -> "live: " + driver.ledger().describeLive(HandleKind.MODULE));
      assertEquals(2, driver.ledger().live(HandleKind.MODULE));
    }
    assertEquals(0, driver.ledger().live(HandleKind.MODULE), "unloaded with the platform");
  }

  private static void allReduceWithANewCommunicator(CudaPlatform platform) {
    try (Communicators world = Nccl.open(platform.devices())) {
      List<float[]> sums =
          world.run(
              rank ->
                  DeviceBuffer.fromArray(new float[] {rank.rank() + 1})
                      .then(
                          b ->
                              rank.allReduce(b, ReduceOp.SUM)
                                  .andThen(b.toFloatArray())
                                  .zip(b.free(), (sum, freed) -> sum)));
      assertArrayEquals(new float[] {3}, sums.get(0));
      assertArrayEquals(new float[] {3}, sums.get(1));
    }
  }
}
