package cuda.graph.conformance;

import cuda.graph.simulator.Simulator;
import cuda.graph.spi.CudaDriver;

/** Runs {@link CoreApiContract} against the simulator. */
class SimulatorCoreApiTests implements CoreApiContract {

  @Override
  public CudaDriver openDriver() {
    return Simulator.create();
  }

  @Override
  public String providerId() {
    return "simulator";
  }
}
