// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 the cuda-graph authors
package cuda.graph;

import static org.apiguardian.api.API.Status.MAINTAINED;

import java.util.Objects;
import org.apiguardian.api.API;
import org.jspecify.annotations.Nullable;

/**
 * How a {@link Module} puts one input into the buffer its graph was captured reading: a graph node
 * that copies the input there, made for each {@code forward} call.
 *
 * @param <I> the input type
 * @since 0.1.0
 */
@FunctionalInterface
@API(status = MAINTAINED, since = "0.1.0")
public interface InputBinding<I> {

  /**
   * {@return the graph node that copies {@code input} into the graph's input buffer}; may write
   * host-side staging first (the previous forward has completed when this is called)
   *
   * @param input one {@code forward} call's input
   * @throws IllegalArgumentException if the input does not fit the graph's input
   */
  @CheckReturnValue
  GraphNode<@Nullable Void> copyIn(I input);

  /**
   * {@return a binding for float arrays of exactly {@code target.length()} elements}, staged
   * through the pinned {@code staging} buffer of the same length
   *
   * @param staging the pinned buffer each input is written into on the host, then copied from
   * @param target the device buffer the graph was captured reading
   * @throws IllegalArgumentException if {@code staging} and {@code target} differ in length
   */
  static InputBinding<float[]> floats(HostBuffer<Float> staging, DeviceBuffer<Float> target) {
    Objects.requireNonNull(staging, "staging");
    Objects.requireNonNull(target, "target");
    if (staging.length() != target.length()) {
      throw new IllegalArgumentException(
          "staging " + staging + " and input " + target + " must have the same length");
    }
    return input -> {
      if (input.length != target.length()) {
        throw new IllegalArgumentException(
            "the module takes " + target.length() + " floats per input, got " + input.length);
      }
      staging.write(input);
      return target.copyFrom(staging);
    };
  }

  /**
   * {@return a binding for device buffers of {@code target}'s type and length, copied device to
   * device}
   *
   * @param <T> the Java type of one element
   * @param target the device buffer the graph was captured reading
   */
  static <T> InputBinding<DeviceBuffer<T>> device(DeviceBuffer<T> target) {
    Objects.requireNonNull(target, "target");
    return target::copyFrom;
  }
}
