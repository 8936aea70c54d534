package cuda.graph.simulator;

import cuda.graph.spi.CudaDriver;

/**
 * A {@link CudaDriver} simulated in this process, with the instruments tests use to check a caller:
 * which handles are alive ({@link #handles()}), which calls were made ({@link #calls()}), and
 * failures to inject ({@link #faults()}).
 *
 * <p>It behaves as the CUDA driver was measured to behave, with one deliberate difference: where
 * the real driver would crash or corrupt memory (a destroyed handle used again, a host buffer freed
 * under a pending copy), the simulator throws {@link UndefinedBehaviorException} to the caller, or
 * fails the stream with a sticky error, so that the bug shows up in a test.
 */
public interface SimulatedDriver extends CudaDriver {

  /** {@return the settings this simulator was built with} */
  SimulatorSettings settings();

  /** {@return the ledger of handles created and destroyed, by kind} */
  HandleLedger handles();

  /** {@return the log of calls made to this driver} */
  CallLog calls();

  /** {@return the fault injector: make chosen calls fail with chosen statuses} */
  FaultInjector faults();
}
