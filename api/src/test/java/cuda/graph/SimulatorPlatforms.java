package cuda.graph;

import cuda.graph.simulator.SimulatedDriver;
import cuda.graph.simulator.Simulator;
import java.time.Duration;

/**
 * The one way the API tests make a platform: over a simulator of their own, which the platform owns
 * and closes with it. Each test closes the platform it made (try-with-resources or
 * {@code @AfterEach}).
 */
final class SimulatorPlatforms {

  private SimulatorPlatforms() {}

  /** {@return a platform over {@code simulator}, which the platform closes with it} */
  static CudaPlatform over(SimulatedDriver simulator) {
    return CudaPlatform.forDriver(simulator, "simulator");
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
