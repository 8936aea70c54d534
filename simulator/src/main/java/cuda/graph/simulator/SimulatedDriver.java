// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 the cuda-graph authors
package cuda.graph.simulator;

import static org.apiguardian.api.API.Status.EXPERIMENTAL;

import cuda.graph.spi.CudaDriver;
import org.apiguardian.api.API;

/**
 * A {@link CudaDriver} simulated in this process.
 *
 * <p>It behaves as the CUDA driver was measured to behave, with one deliberate difference: where
 * the real driver would crash or corrupt memory (a destroyed handle used again, a host buffer freed
 * under a pending copy), the simulator throws {@link UndefinedBehaviorException} to the caller, or
 * fails the stream with a sticky error, so that the bug shows up in a test.
 *
 * <p>It keeps no instruments of its own: to count live handles, log calls or inject failures, wrap
 * it (like any driver) in the test kit's {@code cuda.graph.testkit.InstrumentedDriver}.
 * Thread-safe.
 *
 * @since 0.1.0
 */
@API(status = EXPERIMENTAL, since = "0.1.0")
public interface SimulatedDriver extends CudaDriver {

  /** {@return the settings this simulator was built with} */
  SimulatorSettings settings();
}
