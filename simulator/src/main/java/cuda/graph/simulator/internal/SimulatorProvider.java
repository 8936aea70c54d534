// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 the cuda-graph authors
package cuda.graph.simulator.internal;

import cuda.graph.simulator.Simulator;
import cuda.graph.spi.Availability;
import cuda.graph.spi.CudaDriver;
import cuda.graph.spi.CudaDriverProvider;
import java.time.Duration;

/**
 * The {@code simulator} provider. Always available, at the lowest priority, so a real GPU wins
 * wherever one is present. Settings come from system properties: {@code
 * cuda.graph.simulator.devices} (default 1), {@code cuda.graph.simulator.memory} (bytes per device,
 * default 16 GiB), {@code cuda.graph.simulator.seed} (deterministic scheduling with that seed),
 * {@code cuda.graph.simulator.delayMicros} (hold each operation back, asynchronous mode) and {@code
 * cuda.graph.simulator.reuseHandles} ({@code true}: hand destroyed handle values out again, as the
 * real driver does).
 */
public final class SimulatorProvider implements CudaDriverProvider {

  public static final String ID = "simulator";
  public static final int PRIORITY = 0;

  @Override
  public String id() {
    return ID;
  }

  @Override
  public int priority() {
    return PRIORITY;
  }

  @Override
  public Availability availability() {
    return Availability.available(
        "in-process CUDA driver simulator: needs no GPU; kernels run through their Java"
            + " implementations");
  }

  @Override
  public CudaDriver open() {
    Simulator.Builder builder = Simulator.builder();
    Integer devices = Integer.getInteger("cuda.graph.simulator.devices");
    if (devices != null) {
      builder.devices(devices);
    }
    Long memory = Long.getLong("cuda.graph.simulator.memory");
    if (memory != null) {
      builder.deviceMemoryBytes(memory);
    }
    Long seed = Long.getLong("cuda.graph.simulator.seed");
    if (seed != null) {
      builder.deterministic(seed);
    }
    Long delay = Long.getLong("cuda.graph.simulator.delayMicros");
    if (delay != null) {
      builder.executionDelay(Duration.ofNanos(delay * 1000));
    }
    if (Boolean.getBoolean("cuda.graph.simulator.reuseHandles")) {
      builder.reuseHandleValues(true);
    }
    return builder.build();
  }
}
