package cuda.graph.nccl.internal.comm;

import cuda.graph.CudaGraph;
import cuda.graph.nccl.CapturedStep;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;

/** The graphs of one step, one per rank, launched together. */
public final class CapturedStepImpl<T> implements CapturedStep<T> {

  private final List<CudaGraph<T>> graphs;

  CapturedStepImpl(List<CudaGraph<T>> graphs) {
    this.graphs = List.copyOf(graphs);
  }

  @Override
  public List<CudaGraph<T>> graphs() {
    return graphs;
  }

  @Override
  public void replay() {
    replay(1);
  }

  @Override
  public void replay(int times) {
    if (times < 1) {
      throw new IllegalArgumentException("replay at least once, got " + times);
    }
    // Every rank's launches are queued before anything waits: a collective in one rank's graph
    // completes only when the others' graphs reach it.
    List<CompletableFuture<?>> done = new ArrayList<>(graphs.size() * times);
    for (int i = 0; i < times; i++) {
      for (CudaGraph<T> graph : graphs) {
        done.add(graph.launch().asyncOn(graph.stream()));
      }
    }
    RuntimeException failure = null;
    for (CompletableFuture<?> future : done) {
      try {
        future.join();
      } catch (RuntimeException e) {
        failure = Failures.add(failure, e.getCause() instanceof RuntimeException r ? r : e);
      }
    }
    Failures.throwIfAny(failure);
  }

  @Override
  public void close() {
    graphs.forEach(CudaGraph::close);
  }
}
