package cuda.graph;

import cuda.graph.internal.graph.ScopeImpl;
import org.jspecify.annotations.Nullable;

/**
 * Records graph nodes into the graph {@link CudaGraph#scope} is capturing.
 *
 * <p>{@link #record} accepts only {@link GraphNode}s, so allocating, freeing and staging ops are
 * rejected at compile time; the node's work is recorded, not run, and its result holds valid
 * handles whose data is computed when the graph is launched. Executing any op inside the scope
 * ({@code sync}, {@code syncOn}, {@code async}) fails with {@link ReentrantExecutionException}. A
 * scope belongs to the capturing thread and is dead once the capture ends.
 */
public sealed interface Scope permits ScopeImpl {

  /**
   * Records {@code node} into the graph and returns its (not yet computed) result.
   *
   * @param <T> the type of the node's result
   * @param node the node whose work is recorded, not run
   * @return the node's result: valid handles whose data is computed when the graph is launched
   * @throws IllegalStateException if called off the capturing thread or after the capture ended
   */
  <T extends @Nullable Object> T record(GraphNode<T> node);
}
