// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 the cuda-graph authors
package cuda.graph;

import cuda.graph.simulator.SimulatedDriver;
import cuda.graph.simulator.Simulator;
import cuda.graph.spi.CudaDriver;
import cuda.graph.testkit.InstrumentedDriver;
import java.time.Duration;

/**
 * The one way the API tests make a platform: over a driver of their own (a simulator, bare or
 * {@linkplain #instrumented instrumented}), which the platform owns and closes with it. Each test
 * closes the platform it made (try-with-resources or {@code @AfterEach}).
 */
final class SimulatorPlatforms {

  private SimulatorPlatforms() {}

  /** {@return a platform over {@code driver}, which the platform closes with it} */
  static CudaPlatform over(CudaDriver driver) {
    return CudaPlatform.forDriver(driver, "simulator");
  }

  /**
   * {@return {@code simulator} wrapped in the instruments (handle ledger, call log, fault plan,
   * lifetime checks)} Build the platform {@linkplain #over over the wrapper}: calls made on the
   * bare simulator are invisible to the instruments.
   */
  static InstrumentedDriver instrumented(SimulatedDriver simulator) {
    return new InstrumentedDriver(simulator);
  }

  /** {@return a platform over a default simulator: one device, work run synchronously} */
  static CudaPlatform simulator() {
    return over(Simulator.create());
  }

  /** {@return a platform whose simulator delays every stream operation by {@code delay}} */
  static CudaPlatform delayed(Duration delay) {
    return over(Simulator.builder().executionDelay(delay).build());
  }
}
