// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 the cuda-graph authors
package cuda.graph.conformance.arbitraries;

import static org.apiguardian.api.API.Status.EXPERIMENTAL;

import org.apiguardian.api.API;

/**
 * One step of a lifetime script: what a program does to graphs, launches and buffers. Indices
 * choose among the objects made so far (taken modulo their number; a step with nothing to act on
 * does nothing).
 *
 * @since 0.1.0
 */
@API(status = EXPERIMENTAL, since = "0.1.0")
public sealed interface LifetimeStep {

  /**
   * Captures a graph that runs {@code inc} on buffer {@code buffer} (a closed buffer makes the
   * capture fail).
   *
   * @param buffer which of the {@value LifetimeScripts#BUFFERS} counters the graph increments
   * @since 0.1.0
   */
  record Capture(int buffer) implements LifetimeStep {}

  /**
   * Makes a launch of graph {@code graph} (a closed graph refuses).
   *
   * @param graph chooses among the graphs captured so far
   * @since 0.1.0
   */
  record MakeLaunch(int graph) implements LifetimeStep {}

  /**
   * Executes launch {@code launch} with {@code syncOn} (a launch runs once: again, it refuses).
   *
   * @param launch chooses among the launches made so far
   * @since 0.1.0
   */
  record ExecuteLaunch(int launch) implements LifetimeStep {}

  /**
   * Closes graph {@code graph} (idempotent); launches handed out stay valid.
   *
   * @param graph chooses among the graphs captured so far
   * @since 0.1.0
   */
  record CloseGraph(int graph) implements LifetimeStep {}

  /**
   * Closes buffer {@code buffer} (idempotent); graphs that captured it keep it alive.
   *
   * @param buffer which of the {@value LifetimeScripts#BUFFERS} counters to close
   * @since 0.1.0
   */
  record CloseBuffer(int buffer) implements LifetimeStep {}

  /**
   * Drops the program's reference to launch {@code launch} without executing it.
   *
   * @param launch chooses among the launches made so far
   * @since 0.1.0
   */
  record DropLaunch(int launch) implements LifetimeStep {}

  /**
   * Drops the program's reference to buffer {@code buffer} without closing it.
   *
   * @param buffer which of the {@value LifetimeScripts#BUFFERS} counters to drop
   * @since 0.1.0
   */
  record DropBuffer(int buffer) implements LifetimeStep {}

  /**
   * Collects garbage and waits for the cleaners of what was dropped.
   *
   * @since 0.1.0
   */
  record Collect() implements LifetimeStep {}
}
