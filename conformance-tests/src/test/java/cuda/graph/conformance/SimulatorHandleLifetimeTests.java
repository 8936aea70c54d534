package cuda.graph.conformance;

import cuda.graph.simulator.Simulator;
import cuda.graph.spi.CudaDriver;

/**
 * Runs {@link HandleLifetimeContract} against the simulator with its defaults (asynchronous
 * streams).
 */
class SimulatorHandleLifetimeTests implements HandleLifetimeContract {

  @Override
  public CudaDriver openDriver() {
    return Simulator.create();
  }

  @Override
  public String providerId() {
    return "simulator";
  }
}
