// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 the cuda-graph authors
package cuda.graph;

import static org.apiguardian.api.API.Status.MAINTAINED;

import org.apiguardian.api.API;

/**
 * How {@link CudaGraph#recapture} applied a new capture to an instantiated graph: in place, or by
 * instantiating it anew because the driver could not update the existing one.
 *
 * @since 0.1.0
 */
@API(status = MAINTAINED, since = "0.1.0")
public sealed interface GraphUpdate {

  /**
   * The new capture had the old one's topology: the instantiated graph took its parameters in place
   * ({@code cuGraphExecUpdate}), which is cheaper than instantiating it.
   *
   * @since 0.1.0
   */
  record InPlace() implements GraphUpdate {}

  /**
   * The new capture was instantiated and uploaded as a new executable graph, because the driver
   * refused an in-place update or the library did not ask for one; launches already made replay the
   * old one.
   *
   * <p>The reason says whose decision it was by how it starts:
   *
   * <ul>
   *   <li>{@value #BY_DRIVER} and the result {@code cuGraphExecUpdate} reported, without its {@code
   *       CU_GRAPH_EXEC_UPDATE_} prefix (for example {@code ERROR_TOPOLOGY_CHANGED}, or {@code
   *       ERROR_NODE_TYPE_CHANGED} for a copy where there was a fill), and the node it named where
   *       it named one: the driver's refusal;
   *   <li>{@value #BY_LIBRARY} and the rule: the library's decision, made without asking the
   *       driver, where an in-place update would be wrong although the driver would take it (the
   *       graph or the new capture has temporaries, whose allocation nodes an update keeps as
   *       instantiated; a node was switched off with {@link CudaGraph#setEnabled}, a state an
   *       update keeps).
   * </ul>
   *
   * @param reason why the graph was instantiated anew, starting with {@value #BY_DRIVER} or {@value
   *     #BY_LIBRARY}
   * @since 0.1.0
   */
  record Reinstantiated(String reason) implements GraphUpdate {

    /** How a reason starts when the driver refused the update: {@value}. */
    public static final String BY_DRIVER = "cuGraphExecUpdate refused the new capture: ";

    /** How a reason starts when the library did not ask the driver: {@value}. */
    public static final String BY_LIBRARY = "not updated in place, by the library's rule: ";
  }

  /** {@return whether the graph was updated in place} */
  default boolean inPlace() {
    return this instanceof InPlace;
  }
}
