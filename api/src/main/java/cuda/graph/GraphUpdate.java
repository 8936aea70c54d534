// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 the cuda-graph authors
package cuda.graph;

/**
 * How {@link CudaGraph#recapture} applied a new capture to an instantiated graph: in place, or by
 * instantiating it anew because the driver could not update the existing one.
 *
 * @since 0.1.0
 */
public sealed interface GraphUpdate {

  /**
   * The new capture had the old one's topology: the instantiated graph took its parameters in place
   * ({@code cuGraphExecUpdate}), which is cheaper than instantiating it.
   *
   * @since 0.1.0
   */
  record InPlace() implements GraphUpdate {}

  /**
   * The driver refused an in-place update, so the new capture was instantiated and uploaded as a
   * new executable graph; launches already made replay the old one.
   *
   * @param reason why the update was refused, as the driver reported it (for example {@code
   *     "ERROR_TOPOLOGY_CHANGED"})
   * @since 0.1.0
   */
  record Reinstantiated(String reason) implements GraphUpdate {}

  /** {@return whether the graph was updated in place} */
  default boolean inPlace() {
    return this instanceof InPlace;
  }
}
