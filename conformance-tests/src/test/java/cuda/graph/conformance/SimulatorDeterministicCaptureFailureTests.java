package cuda.graph.conformance;

import cuda.graph.simulator.Simulator;
import cuda.graph.spi.CudaDriver;
import java.util.concurrent.atomic.AtomicLong;

/**
 * Runs {@link CaptureFailureContract} against deterministic simulators: each try's streams run on
 * the calling thread in an interleaving fixed by the seed, so a failing try replays exactly.
 */
class SimulatorDeterministicCaptureFailureTests implements CaptureFailureContract {

  private static final AtomicLong SEEDS = new AtomicLong(1);

  @Override
  public CudaDriver openDriver() {
    return Simulator.builder().deterministic(SEEDS.getAndIncrement()).build();
  }

  @Override
  public String providerId() {
    return "simulator";
  }
}
