// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 the cuda-graph authors
package cuda.graph.nccl.internal.comm;

import cuda.graph.CudaGraph;
import cuda.graph.GraphLaunch;
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
    // Every launch is made before any is queued: a rank whose launch is refused would leave the
    // collectives of the ranks launched before it waiting for it for ever.
    for (int rank = 0; rank < graphs.size(); rank++) {
      CudaGraph<T> graph = graphs.get(rank);
      if (graph.isClosed()) {
        throw new IllegalStateException(
            "CapturedStep.replay: rank "
                + rank
                + "'s graph is closed, so no rank's graph was launched; close the step as a"
                + " whole (CapturedStep.close) rather than one rank's graph");
      }
      if (graph.stream().isClosed()) {
        throw new IllegalStateException(
            "CapturedStep.replay: rank "
                + rank
                + "'s stream is closed (its communicator was closed), so no rank's graph was"
                + " launched; replay a step only while its Communicators is open");
      }
    }
    List<GraphLaunch> launches = new ArrayList<>(graphs.size() * times);
    for (int i = 0; i < times; i++) {
      for (CudaGraph<T> graph : graphs) {
        launches.add(graph.launch());
      }
    }
    // Every rank's launches are queued before anything waits: a collective in one rank's graph
    // completes only when the others' graphs reach it.
    List<CompletableFuture<?>> done = new ArrayList<>(launches.size());
    for (int i = 0; i < launches.size(); i++) {
      done.add(launches.get(i).asyncOn(graphs.get(i % graphs.size()).stream()));
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
