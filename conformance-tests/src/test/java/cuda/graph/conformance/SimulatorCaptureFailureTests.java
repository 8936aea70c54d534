package cuda.graph.conformance;

import cuda.graph.simulator.Simulator;
import cuda.graph.spi.CudaDriver;

/**
 * Runs {@link CaptureFailureContract} against the simulator with its defaults (asynchronous
 * streams).
 */
class SimulatorCaptureFailureTests implements CaptureFailureContract {

  @Override
  public CudaDriver openDriver() {
    return Simulator.create();
  }

  @Override
  public String providerId() {
    return "simulator";
  }
}
