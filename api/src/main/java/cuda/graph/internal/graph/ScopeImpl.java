package cuda.graph.internal.graph;

import cuda.graph.GraphNode;
import cuda.graph.Scope;
import cuda.graph.internal.exec.Executor;
import cuda.graph.internal.runtime.Execution;
import org.jspecify.annotations.Nullable;

/** The implementation of {@link Scope}. */
public final class ScopeImpl implements Scope {

  private final Execution execution;
  private final Thread owner = Thread.currentThread();
  private boolean open = true;

  public ScopeImpl(Execution execution) {
    this.execution = execution;
  }

  /** Records {@code node} into the graph and returns its (not yet computed) result. */
  @Override
  public <T extends @Nullable Object> T record(GraphNode<T> node) {
    if (Thread.currentThread() != owner) {
      throw new IllegalStateException(
          "a scope records only on the thread that captures (" + owner.getName() + ")");
    }
    if (!open) {
      throw new IllegalStateException(
          "this scope's capture has ended; record into a new CudaGraph.scope");
    }
    return Executor.execute(java.util.Objects.requireNonNull(node, "node"), execution);
  }

  public void close() {
    open = false;
  }
}
