package cuda.graph;

import org.jspecify.annotations.Nullable;

/**
 * Records graph nodes into the graph {@link CudaGraph#scope} is capturing.
 *
 * <p>{@link #record} accepts only {@link GraphNode}s, so allocating, freeing and staging ops are
 * rejected at compile time; the node's work is recorded, not run, and its result holds valid
 * handles whose data is computed when the graph is launched. Executing any op inside the scope
 * ({@code sync}, {@code syncOn}, {@code async}) fails with {@link ReentrantExecutionException}.
 * A scope belongs to the capturing thread and is dead once the capture ends.
 */
public final class Scope {

  private final Execution execution;
  private final Thread owner = Thread.currentThread();
  private boolean open = true;

  Scope(Execution execution) {
    this.execution = execution;
  }

  /** Records {@code node} into the graph and returns its (not yet computed) result. */
  public <T extends @Nullable Object> T record(GraphNode<T> node) {
    if (Thread.currentThread() != owner) {
      throw new IllegalStateException("a scope records only on the thread that captures (" + owner.getName() + ")");
    }
    if (!open) {
      throw new IllegalStateException("this scope's capture has ended; record into a new CudaGraph.scope");
    }
    return Executor.execute(java.util.Objects.requireNonNull(node, "node"), execution);
  }

  void close() {
    open = false;
  }
}
