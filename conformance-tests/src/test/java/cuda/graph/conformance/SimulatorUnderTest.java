// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 the cuda-graph authors
package cuda.graph.conformance;

import cuda.graph.simulator.Simulator;
import cuda.graph.spi.CudaDriver;
import java.time.Duration;
import java.util.concurrent.atomic.AtomicLong;

/**
 * Binds a contract to the simulator with its defaults (asynchronous streams): a test class {@code
 * implements} the contract and this interface, and declares nothing else. The nested interfaces
 * bind it to simulators with other settings. Every test opens a new, independent simulator.
 *
 * <p>Every binding reuses handle values as the real driver does ({@link
 * Simulator.Builder#reuseHandleValues}), so that a caller or an instrument that takes a value it
 * saw destroyed for the object it was fails here, not only on a GPU.
 */
interface SimulatorUnderTest extends ConformanceContract {

  /** {@return a builder with the settings every binding shares} */
  static Simulator.Builder simulator() {
    return Simulator.builder().reuseHandleValues(true);
  }

  @Override
  default CudaDriver openDriver() {
    return simulator().build();
  }

  @Override
  default String providerId() {
    return "simulator";
  }

  /**
   * Simulators that hold every queued operation back for a while, as a busy GPU would: a result
   * read before its work completed would be stale and fail.
   */
  interface Delayed extends SimulatorUnderTest {

    @Override
    default CudaDriver openDriver() {
      return simulator().executionDelay(Duration.ofNanos(200_000)).build();
    }
  }

  /**
   * Deterministic simulators: each try's streams run on the calling thread in an interleaving fixed
   * by its seed, so a failing try replays exactly. Each driver gets the next seed, from 1.
   */
  interface Deterministic extends SimulatorUnderTest {

    /** The next seed; shared by every deterministic binding of the test run. */
    AtomicLong SEEDS = new AtomicLong(1);

    @Override
    default CudaDriver openDriver() {
      return simulator().deterministic(SEEDS.getAndIncrement()).build();
    }
  }
}
