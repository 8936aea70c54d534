// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 the cuda-graph authors
package cuda.graph.simulator;

import static org.apiguardian.api.API.Status.EXPERIMENTAL;

import cuda.graph.simulator.internal.SimDriver;
import java.time.Duration;
import java.util.Objects;
import java.util.OptionalLong;
import org.apiguardian.api.API;

/**
 * Entry point for building simulated drivers.
 *
 * <p>Each {@link SimulatedDriver} is independent: its own devices, memory, handles and sticky
 * errors. The defaults model one NVIDIA H200 with asynchronous streams.
 *
 * @since 0.1.0
 */
@API(status = EXPERIMENTAL, since = "0.1.0")
public final class Simulator {

  /** Default device memory size: 16 GiB (memory is only taken from the host as it is allocated). */
  public static final long DEFAULT_DEVICE_MEMORY = 16L << 30;

  /**
   * The unit graph memory is mapped in by default: 32 MiB, as measured on an H200 (one allocation
   * node of 64 KiB, 1 MiB or 3 MiB, uploaded, showed 32 MiB used and reserved).
   */
  public static final long DEFAULT_GRAPH_MEMORY_MAPPING_UNIT = 32L << 20;

  private Simulator() {}

  /** {@return a builder with the defaults: one device, 16 GiB, asynchronous streams} */
  public static Builder builder() {
    return new Builder();
  }

  /** {@return a simulator with the defaults} */
  public static SimulatedDriver create() {
    return builder().build();
  }

  /**
   * Settings of a simulator. Not thread-safe; {@link #build()} may be called more than once, each
   * call making an independent simulator.
   *
   * @since 0.1.0
   */
  public static final class Builder {
    private int devices = 1;
    private long deviceMemoryBytes = DEFAULT_DEVICE_MEMORY;
    private String deviceName = "CUDA simulator (NVIDIA H200 model)";
    private OptionalLong seed = OptionalLong.empty();
    private Duration executionDelay = Duration.ZERO;
    private boolean reuseHandleValues;
    private long graphMemoryMappingUnit = DEFAULT_GRAPH_MEMORY_MAPPING_UNIT;

    private Builder() {}

    /**
     * Sets the number of devices (at least 0; 0 models a machine whose driver sees no GPU).
     *
     * @param count the number of devices, with ordinals from 0; the default is 1
     * @return this builder
     * @throws IllegalArgumentException if {@code count} is negative
     */
    public Builder devices(int count) {
      if (count < 0) {
        throw new IllegalArgumentException("device count must be >= 0, got " + count);
      }
      this.devices = count;
      return this;
    }

    /**
     * Sets each device's memory size; allocations beyond it fail with CUDA_ERROR_OUT_OF_MEMORY.
     *
     * @param bytes what each device can allocate, and what {@code cuDeviceTotalMem_v2} reports; the
     *     default is {@link #DEFAULT_DEVICE_MEMORY}
     * @return this builder
     * @throws IllegalArgumentException if {@code bytes} is not positive
     */
    public Builder deviceMemoryBytes(long bytes) {
      if (bytes <= 0) {
        throw new IllegalArgumentException("device memory must be positive, got " + bytes);
      }
      this.deviceMemoryBytes = bytes;
      return this;
    }

    /**
     * Sets the name {@code cuDeviceGetName} reports.
     *
     * @param name the name of every device
     * @return this builder
     */
    public Builder deviceName(String name) {
      this.deviceName = Objects.requireNonNull(name, "name");
      return this;
    }

    /**
     * Makes scheduling deterministic: no simulator threads; queued work runs on the calling thread,
     * a seeded random amount at each driver call and all that is needed when the caller waits. With
     * one host thread, the same seed and the same calls give the same interleaving. Host functions
     * then run on the thread that made the driver call, and must not block on other host threads;
     * so must kernels: one that waits for the host's answer through mapped host memory waits on the
     * very thread that would answer (use the asynchronous default for such handshakes).
     *
     * @param seed chooses how much queued work runs at each driver call
     * @return this builder
     */
    public Builder deterministic(long seed) {
      this.seed = OptionalLong.of(seed);
      return this;
    }

    /**
     * Makes scheduling asynchronous (the default): each stream's work runs on simulator threads,
     * concurrently with the caller and with other streams.
     *
     * @return this builder
     */
    public Builder asynchronous() {
      this.seed = OptionalLong.empty();
      return this;
    }

    /**
     * In asynchronous mode, holds each queued operation back this long before it runs, so that a
     * caller that reads results without waiting for them sees stale data, as it would on a GPU.
     *
     * @param delay how long each operation waits before it runs; the default is zero; ignored in
     *     deterministic mode
     * @return this builder
     * @throws IllegalArgumentException if {@code delay} is negative
     */
    public Builder executionDelay(Duration delay) {
      if (delay.isNegative()) {
        throw new IllegalArgumentException("execution delay must not be negative, got " + delay);
      }
      this.executionDelay = delay;
      return this;
    }

    /**
     * Makes the simulator hand out a destroyed object's handle value again, as the real driver does
     * (its handles are addresses of freed and reallocated driver memory): the next object of the
     * same kind (stream, event, graph, exec, node, module, function, context) gets the value freed
     * most recently. This includes the graphs the driver makes itself, such as the one {@code
     * cuStreamBeginCapture} records into. A stale handle whose value was handed out again then
     * names the new object, as on the real driver, so a caller (or an instrument) that keys
     * anything on handle values and keeps it past a destroy is caught without a GPU. Values not
     * handed out again are still reported as use-after-destroy.
     *
     * @param reuse whether to reuse values; the default is false: every object gets a value never
     *     used before, so a stale handle is always reported
     * @return this builder
     */
    public Builder reuseHandleValues(boolean reuse) {
      this.reuseHandleValues = reuse;
      return this;
    }

    /**
     * Sets the unit in which each device maps memory for graph allocations ({@code
     * cuDeviceGetGraphMemAttribute} reports multiples of it): the measured H200's 32 MiB by
     * default. Another unit models another device, or a model that is wrong: the conformance kit's
     * {@code GraphMemoryContract} holds bounds only the measured unit meets, and a simulator built
     * with 2 MiB fails it.
     *
     * @param bytes the unit, a positive multiple of 2 MiB (the granularity of an allocation node)
     * @return this builder
     * @throws IllegalArgumentException if {@code bytes} is not a positive multiple of 2 MiB
     */
    public Builder graphMemoryMappingUnit(long bytes) {
      if (bytes <= 0 || bytes % (2L << 20) != 0) {
        throw new IllegalArgumentException(
            "Simulator.Builder.graphMemoryMappingUnit: "
                + bytes
                + " bytes is not a positive multiple of 2 MiB (2097152 bytes), the granularity"
                + " of an allocation node; the default is "
                + DEFAULT_GRAPH_MEMORY_MAPPING_UNIT);
      }
      this.graphMemoryMappingUnit = bytes;
      return this;
    }

    /** {@return a new simulated driver with these settings; call {@code init(0)} before use} */
    public SimulatedDriver build() {
      return new SimDriver(
          new SimulatorSettings(
              devices,
              deviceMemoryBytes,
              deviceName,
              seed,
              executionDelay,
              reuseHandleValues,
              graphMemoryMappingUnit));
    }
  }
}
