// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 the cuda-graph authors
package cuda.graph.simulator;

import static org.apiguardian.api.API.Status.EXPERIMENTAL;

import java.time.Duration;
import java.util.OptionalLong;
import org.apiguardian.api.API;

/**
 * The settings a simulator was built with.
 *
 * @param devices number of devices
 * @param deviceMemoryBytes memory size of each device
 * @param deviceName the name every device reports
 * @param seed the seed of deterministic scheduling, or empty for asynchronous streams
 * @param executionDelay how long each queued operation is held back in asynchronous mode
 * @param reusesHandleValues whether a destroyed object's handle value is handed out again, as the
 *     real driver does (see {@link Simulator.Builder#reuseHandleValues})
 * @param graphMemoryMappingUnit the unit each device maps graph memory in (see {@link
 *     Simulator.Builder#graphMemoryMappingUnit})
 * @since 0.1.0
 */
@API(status = EXPERIMENTAL, since = "0.1.0")
public record SimulatorSettings(
    int devices,
    long deviceMemoryBytes,
    String deviceName,
    OptionalLong seed,
    Duration executionDelay,
    boolean reusesHandleValues,
    long graphMemoryMappingUnit) {

  /**
   * The settings of 0.1.0, with the measured mapping unit ({@link
   * Simulator#DEFAULT_GRAPH_MEMORY_MAPPING_UNIT}).
   *
   * @param devices number of devices
   * @param deviceMemoryBytes memory size of each device
   * @param deviceName the name every device reports
   * @param seed the seed of deterministic scheduling, or empty for asynchronous streams
   * @param executionDelay how long each queued operation is held back in asynchronous mode
   * @param reusesHandleValues whether a destroyed object's handle value is handed out again
   */
  public SimulatorSettings(
      int devices,
      long deviceMemoryBytes,
      String deviceName,
      OptionalLong seed,
      Duration executionDelay,
      boolean reusesHandleValues) {
    this(
        devices,
        deviceMemoryBytes,
        deviceName,
        seed,
        executionDelay,
        reusesHandleValues,
        Simulator.DEFAULT_GRAPH_MEMORY_MAPPING_UNIT);
  }

  /** {@return whether scheduling is deterministic} */
  public boolean deterministic() {
    return seed.isPresent();
  }
}
