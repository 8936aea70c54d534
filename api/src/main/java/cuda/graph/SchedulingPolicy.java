// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 the cuda-graph authors
package cuda.graph;

import static org.apiguardian.api.API.Status.MAINTAINED;

import cuda.graph.internal.runtime.RoundRobinPolicy;
import org.apiguardian.api.API;

/**
 * Chooses the stream on which {@link DeviceOp#sync()} and {@link DeviceOp#async()} run an op.
 *
 * <p>Only the choice of stream is the policy's: ordering holds within a stream, never across
 * streams, so ops that depend on each other's results must be composed into one op (or run on one
 * stream). Implementations must be thread-safe.
 *
 * @since 0.1.0
 */
@FunctionalInterface
@API(status = MAINTAINED, since = "0.1.0")
public interface SchedulingPolicy {

  /**
   * {@return the stream for the next op on {@code device}}
   *
   * @param device the device the op runs on; the stream must belong to it
   */
  Stream nextStream(Device device);

  /**
   * {@return a policy that cycles through {@code streamsPerDevice} streams of each device, created
   * on first use and kept for the life of the platform}
   *
   * @param streamsPerDevice how many streams of each device the policy cycles through, at least 1
   * @throws IllegalArgumentException if {@code streamsPerDevice} is below 1
   */
  static SchedulingPolicy roundRobin(int streamsPerDevice) {
    if (streamsPerDevice < 1) {
      throw new IllegalArgumentException(
          "a round-robin policy needs at least one stream per device, got " + streamsPerDevice);
    }
    return new RoundRobinPolicy(streamsPerDevice);
  }
}
