package cuda.graph.conformance.arbitraries;

/**
 * One step of a lifetime script: what a program does to graphs, launches and buffers. Indices
 * choose among the objects made so far (taken modulo their number; a step with nothing to act on
 * does nothing).
 */
public sealed interface LifetimeStep {

  /**
   * Captures a graph that runs {@code inc} on buffer {@code buffer} (a closed buffer makes the
   * capture fail).
   */
  record Capture(int buffer) implements LifetimeStep {}

  /** Makes a launch of graph {@code graph} (a closed graph refuses). */
  record MakeLaunch(int graph) implements LifetimeStep {}

  /** Executes launch {@code launch} with {@code syncOn} (a launch runs once: again, it refuses). */
  record ExecuteLaunch(int launch) implements LifetimeStep {}

  /** Closes graph {@code graph} (idempotent); launches handed out stay valid. */
  record CloseGraph(int graph) implements LifetimeStep {}

  /** Closes buffer {@code buffer} (idempotent); graphs that captured it keep it alive. */
  record CloseBuffer(int buffer) implements LifetimeStep {}

  /** Drops the program's reference to launch {@code launch} without executing it. */
  record DropLaunch(int launch) implements LifetimeStep {}

  /** Drops the program's reference to buffer {@code buffer} without closing it. */
  record DropBuffer(int buffer) implements LifetimeStep {}

  /** Collects garbage and waits for the cleaners of what was dropped. */
  record Collect() implements LifetimeStep {}
}
