// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 the cuda-graph authors
package cuda.graph;

import static org.junit.jupiter.api.Assertions.assertEquals;

import cuda.graph.simulator.Simulator;
import cuda.graph.spi.HandleKind;
import cuda.graph.testkit.InstrumentedDriver;
import java.util.Map;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;

/**
 * The fixture of tests that inject faults and count handles: a platform over an instrumented
 * simulator and one stream, opened before each test; after it, the stream and platform are closed
 * and the ledger must show nothing alive.
 */
abstract class InstrumentedPlatformFixture {

  protected InstrumentedDriver simulator;
  protected CudaPlatform platform;
  protected Stream stream;

  @BeforeEach
  void openPlatform() {
    simulator = SimulatorPlatforms.instrumented(Simulator.create());
    platform = SimulatorPlatforms.over(simulator);
    stream = platform.defaultDevice().newStream();
  }

  @AfterEach
  void closePlatformAndCheckNothingLeaked() {
    stream.close();
    platform.close();
    assertEquals(
        Map.of(),
        simulator.ledger().liveCounts(),
        () -> String.join("\n", simulator.ledger().describeLive()));
  }

  /** {@return the device allocations alive now} */
  protected long liveDeviceMemory() {
    return simulator.ledger().live(HandleKind.DEVICE_MEMORY);
  }
}
