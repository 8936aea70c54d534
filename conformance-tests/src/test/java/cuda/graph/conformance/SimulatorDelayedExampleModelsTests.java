package cuda.graph.conformance;

import cuda.graph.simulator.Simulator;
import cuda.graph.spi.CudaDriver;
import java.time.Duration;

/**
 * Runs {@link ExampleModelsContract} against simulators that hold every queued operation back for a
 * while, as a busy GPU would: a result read before its work completed would be stale and fail.
 */
class SimulatorDelayedExampleModelsTests implements ExampleModelsContract {

  @Override
  public CudaDriver openDriver() {
    return Simulator.builder().executionDelay(Duration.ofNanos(200_000)).build();
  }

  @Override
  public String providerId() {
    return "simulator";
  }
}
