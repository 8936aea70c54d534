// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 the cuda-graph authors
package cuda.graph.nccl;

import static org.apiguardian.api.API.Status.EXPERIMENTAL;

import cuda.graph.CheckReturnValue;
import cuda.graph.Device;
import cuda.graph.DeviceBuffer;
import cuda.graph.GraphNode;
import cuda.graph.Stream;
import cuda.graph.nccl.internal.comm.CommunicatorImpl;
import java.util.function.Consumer;
import org.apiguardian.api.API;
import org.jspecify.annotations.Nullable;

/**
 * One rank of an NCCL communicator: its place among the ranks, its device, a stream of its own, and
 * the collectives as {@link GraphNode}s, so they compose with kernels and copies and are captured
 * into graphs like them.
 *
 * <p>Every rank must execute the same collectives in the same order (NCCL matches them by order); a
 * collective completes only when every rank has reached it, so the ranks of one process must run
 * their steps concurrently: {@link Communicators#run} and {@link Communicators#capture} do that.
 * The nodes check their buffers when they are made (device, element type, lengths) and lease them
 * like kernel arguments when they execute; a graph that captured a collective keeps its
 * communicator alive until the graph is destroyed. Thread-safe; NCCL wants each collective enqueued
 * from one thread at a time per communicator.
 *
 * @since 0.1.0
 */
@API(status = EXPERIMENTAL, since = "0.1.0")
public sealed interface Communicator extends AutoCloseable permits CommunicatorImpl {

  /** {@return this rank's number, from 0} */
  int rank();

  /** {@return the number of ranks} */
  int size();

  /** {@return the device this rank's collectives run on} */
  Device device();

  /** {@return a stream on {@link #device()} that this communicator owns and closes} */
  Stream stream();

  /**
   * {@return a node that all-reduces {@code send} into {@code recv}}
   *
   * @param <T> the element type
   * @param send this rank's contribution
   * @param recv the result, as long as {@code send}; every rank gets the same
   * @param op how elements combine
   * @throws IllegalArgumentException if a buffer is not on this rank's device, the types or lengths
   *     differ, or NCCL has no type for the elements
   * @see CollectiveGroup#allReduce
   */
  @CheckReturnValue
  <T> GraphNode<@Nullable Void> allReduce(DeviceBuffer<T> send, DeviceBuffer<T> recv, ReduceOp op);

  /**
   * {@return a node that all-reduces {@code buffer} in place}
   *
   * @param <T> the element type
   * @param buffer this rank's contribution, overwritten by the result
   * @param op how elements combine
   */
  @CheckReturnValue
  <T> GraphNode<@Nullable Void> allReduce(DeviceBuffer<T> buffer, ReduceOp op);

  /**
   * {@return a node that gathers every rank's {@code send} into {@code recv}, in rank order}
   *
   * @param <T> the element type
   * @param send this rank's part
   * @param recv {@link #size()} times as long as {@code send}
   * @see CollectiveGroup#allGather
   */
  @CheckReturnValue
  <T> GraphNode<@Nullable Void> allGather(DeviceBuffer<T> send, DeviceBuffer<T> recv);

  /**
   * {@return a node that reduces every rank's {@code send} and scatters the result}
   *
   * @param <T> the element type
   * @param send {@link #size()} times as long as {@code recv}
   * @param recv this rank's part of the reduction
   * @param op how elements combine
   * @see CollectiveGroup#reduceScatter
   */
  @CheckReturnValue
  <T> GraphNode<@Nullable Void> reduceScatter(
      DeviceBuffer<T> send, DeviceBuffer<T> recv, ReduceOp op);

  /**
   * {@return a node that copies rank {@code root}'s {@code buffer} into every rank's {@code
   * buffer}}
   *
   * @param <T> the element type
   * @param buffer the root's data, overwritten on the other ranks
   * @param root the rank that sends
   * @see CollectiveGroup#broadcast
   */
  @CheckReturnValue
  <T> GraphNode<@Nullable Void> broadcast(DeviceBuffer<T> buffer, int root);

  /**
   * {@return a node that sends {@code buffer} to {@code peer}}; pair it with the peer's {@link
   * #recv}, and group the two directions of an exchange with {@link #group}
   *
   * @param <T> the element type
   * @param buffer what is sent
   * @param peer the receiving rank
   */
  @CheckReturnValue
  <T> GraphNode<@Nullable Void> send(DeviceBuffer<T> buffer, int peer);

  /**
   * {@return a node that receives into {@code buffer} from {@code peer}}
   *
   * @param <T> the element type
   * @param buffer where the elements land
   * @param peer the sending rank
   */
  @CheckReturnValue
  <T> GraphNode<@Nullable Void> recv(DeviceBuffer<T> buffer, int peer);

  /**
   * {@return a node that issues the collectives {@code body} adds as one NCCL group} ({@code
   * ncclGroupStart} ... {@code ncclGroupEnd}), e.g. a send and a receive of an exchange
   *
   * @param body adds the collectives, called once, now
   * @throws IllegalArgumentException if {@code body} adds nothing, or what a collective's checks
   *     throw
   */
  @CheckReturnValue
  GraphNode<@Nullable Void> group(Consumer<? super CollectiveGroup> body);

  /**
   * Gives up this rank: its stream is closed, and the communicator is destroyed once no execution
   * and no graph uses it any more. For the ranks of a {@link Communicators}, close that instead.
   * Idempotent.
   */
  @Override
  void close();
}
