package cuda.graph.conformance;

import cuda.graph.simulator.Simulator;
import cuda.graph.spi.CudaDriver;

/**
 * Runs {@link ExampleModelsContract} against the simulator with its defaults (asynchronous
 * streams).
 */
class SimulatorExampleModelsTests implements ExampleModelsContract {

  @Override
  public CudaDriver openDriver() {
    return Simulator.create();
  }

  @Override
  public String providerId() {
    return "simulator";
  }
}
