// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 the cuda-graph authors
package cuda.graph.nccl;

import static org.apiguardian.api.API.Status.EXPERIMENTAL;

import cuda.graph.DeviceOp;
import cuda.graph.nccl.internal.comm.CommunicatorsImpl;
import java.util.List;
import java.util.function.Function;
import org.apiguardian.api.API;

/**
 * The ranks of one communicator whose devices all belong to this process ({@code ncclCommInitAll}):
 * rank {@code i} on the {@code i}-th device given to {@link Nccl#open}.
 *
 * <p>A collective completes only when every rank reaches it, so one thread cannot run the ranks'
 * steps one after the other. {@link #run} runs each rank's op on a thread of its own (which this
 * object owns) and {@link #capture} captures each rank's graph the same way; the graphs of a {@link
 * CapturedStep} are then launched from one thread, since a launch does not wait. Closing destroys
 * the communicator once no execution and no graph uses it any more. Thread-safe.
 *
 * @since 0.1.0
 */
@API(status = EXPERIMENTAL, since = "0.1.0")
public sealed interface Communicators extends AutoCloseable permits CommunicatorsImpl {

  /** {@return the number of ranks} */
  int size();

  /** {@return the ranks, in rank order} */
  List<Communicator> ranks();

  /**
   * {@return rank {@code rank}}
   *
   * @param rank from 0 to {@link #size()} - 1
   */
  Communicator rank(int rank);

  /**
   * Runs one step on every rank at once: {@code step}'s op for each rank is executed with {@code
   * syncOn} on the rank's {@link Communicator#stream()}, each on its own thread.
   *
   * <p>Every rank's op is made before any runs: if {@code step} throws for any rank (a collective
   * refused by its checks, say a buffer of another rank's device), no rank's op runs and the
   * failure is thrown at once, instead of the other ranks waiting in their collectives for the one
   * that never comes. Collectives made while an op runs (inside {@link DeviceOp#then}) are checked
   * only then; make them in {@code step} to have them checked before any rank starts.
   *
   * @param <T> the ops' result type
   * @param step makes the rank's op; called on the rank's thread, for every rank before any op runs
   * @return the results, in rank order
   * @throws RuntimeException what the first failing rank threw (the other ranks' failures are
   *     suppressed in it); every rank has finished or failed when this returns
   */
  <T> List<T> run(Function<? super Communicator, ? extends DeviceOp<T>> step);

  /**
   * Captures one step on every rank at once: {@code step}'s op for each rank is captured into a
   * graph on the rank's stream, each on its own thread, so that collectives spanning ranks are
   * captured together. Run the step's collectives once with {@link #run} first: NCCL connects its
   * ranks on a collective's first use, which must not happen inside a capture.
   *
   * <p>As in {@link #run}, every rank's op is made before any is captured, and if {@code step}
   * throws for any rank, no rank's op is captured.
   *
   * @param <T> the ops' result type
   * @param step makes the rank's op; called on the rank's thread, for every rank before any capture
   * @return the graphs, which {@link CapturedStep#replay()} launches together
   * @throws RuntimeException what the first failing rank threw; no graph is left open then
   */
  <T> CapturedStep<T> capture(Function<? super Communicator, ? extends DeviceOp<T>> step);

  /** Closes every rank, see {@link Communicator#close()}; idempotent. */
  @Override
  void close();
}
