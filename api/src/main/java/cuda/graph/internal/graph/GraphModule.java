// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 the cuda-graph authors
package cuda.graph.internal.graph;

import cuda.graph.CudaGraph;
import cuda.graph.InputBinding;
import cuda.graph.Module;
import java.util.function.Function;
import org.jspecify.annotations.Nullable;

/** A module backed by one captured graph. */
public final class GraphModule<I, C extends @Nullable Object, O extends @Nullable Object>
    implements Module<I, O> {

  private final CudaGraph<C> graph;
  private final InputBinding<I> input;
  private final C captured;
  private final Function<? super C, ? extends O> output;

  public GraphModule(
      CudaGraph<C> graph,
      InputBinding<I> input,
      C captured,
      Function<? super C, ? extends O> output) {
    this.graph = graph;
    this.input = input;
    this.captured = captured;
    this.output = output;
  }

  @Override
  public synchronized O forward(I value) {
    if (graph.isClosed()) {
      throw new IllegalStateException(this + " is closed");
    }
    // The copy and the replay are one synchronized execution: whatever fails in either is
    // reported by this call, and nothing of it is left running.
    input.copyIn(value).then(ignored -> graph.launch()).syncOn(graph.stream());
    return output.apply(captured);
  }

  @Override
  public synchronized void close() {
    graph.close();
  }

  @Override
  public String toString() {
    return "Module[" + graph + "]";
  }
}
