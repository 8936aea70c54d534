// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 the cuda-graph authors
package cuda.graph.nccl;

import static org.apiguardian.api.API.Status.EXPERIMENTAL;

import cuda.graph.CudaGraph;
import cuda.graph.nccl.internal.comm.CapturedStepImpl;
import java.util.List;
import org.apiguardian.api.API;

/**
 * One step captured on every rank of a {@link Communicators}: a graph per rank, each on its rank's
 * stream, replayed together.
 *
 * <p>A replay launches every rank's graph before it waits for any, so the ranks' collectives meet.
 * Replays of one step are ordered on each rank's stream. Closing the step closes the graphs. Not
 * for concurrent use by several threads.
 *
 * @param <T> the result of each rank's captured op
 * @since 0.1.0
 */
@API(status = EXPERIMENTAL, since = "0.1.0")
public sealed interface CapturedStep<T> extends AutoCloseable permits CapturedStepImpl {

  /** {@return each rank's graph, in rank order} */
  List<CudaGraph<T>> graphs();

  /**
   * Replays the step once on every rank and waits until every rank's replay is done.
   *
   * @throws IllegalStateException if a rank's graph or stream is closed; no rank's graph is
   *     launched then
   */
  void replay();

  /**
   * Replays the step {@code times} times on every rank (queued on each rank's stream without
   * waiting in between) and waits until all are done.
   *
   * @param times how many replays, at least 1
   * @throws IllegalArgumentException if {@code times} is less than 1
   * @throws IllegalStateException if a rank's graph or stream is closed; no rank's graph is
   *     launched then
   */
  void replay(int times);

  /** Closes every rank's graph; idempotent. */
  @Override
  void close();
}
