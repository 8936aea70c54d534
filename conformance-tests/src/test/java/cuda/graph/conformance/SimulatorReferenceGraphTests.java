package cuda.graph.conformance;

import cuda.graph.simulator.Simulator;
import cuda.graph.spi.CudaDriver;

/**
 * Runs {@link ReferenceGraphContract} against the simulator with its defaults (asynchronous
 * streams).
 */
class SimulatorReferenceGraphTests implements ReferenceGraphContract {

  @Override
  public CudaDriver openDriver() {
    return Simulator.create();
  }

  @Override
  public String providerId() {
    return "simulator";
  }
}
