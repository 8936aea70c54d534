// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 the cuda-graph authors
package cuda.graph.nccl;

import static org.apiguardian.api.API.Status.EXPERIMENTAL;

import cuda.graph.DeviceBuffer;
import cuda.graph.nccl.internal.comm.CollectiveGroupImpl;
import org.apiguardian.api.API;

/**
 * The collectives of one {@link Communicator#group} call, issued together between {@code
 * ncclGroupStart} and {@code ncclGroupEnd}: they progress together, so a rank may, for example,
 * receive from a peer before it sends to that peer without waiting for itself.
 *
 * <p>Each method checks its arguments at once, as the {@link Communicator} methods of the same name
 * do, and adds the collective to the group in call order. Valid only during the {@code group} call,
 * on its thread.
 *
 * @since 0.1.0
 */
@API(status = EXPERIMENTAL, since = "0.1.0")
public sealed interface CollectiveGroup permits CollectiveGroupImpl {

  /**
   * Adds an all-reduce: every rank's {@code recv} gets the element-wise reduction of every rank's
   * {@code send}.
   *
   * @param <T> the element type
   * @param send this rank's contribution
   * @param recv the result, as long as {@code send} (it may be {@code send} itself)
   * @param op how elements combine
   */
  <T> void allReduce(DeviceBuffer<T> send, DeviceBuffer<T> recv, ReduceOp op);

  /**
   * Adds an all-gather: every rank's {@code recv} gets every rank's {@code send}, in rank order.
   *
   * @param <T> the element type
   * @param send this rank's part
   * @param recv the parts of all ranks: {@code size()} times as long as {@code send}
   */
  <T> void allGather(DeviceBuffer<T> send, DeviceBuffer<T> recv);

  /**
   * Adds a reduce-scatter: rank {@code r}'s {@code recv} gets part {@code r} of the element-wise
   * reduction of every rank's {@code send}.
   *
   * @param <T> the element type
   * @param send this rank's contribution: {@code size()} times as long as {@code recv}
   * @param recv this rank's part of the reduction
   * @param op how elements combine
   */
  <T> void reduceScatter(DeviceBuffer<T> send, DeviceBuffer<T> recv, ReduceOp op);

  /**
   * Adds a broadcast: every rank's {@code recv} gets rank {@code root}'s {@code send}.
   *
   * @param <T> the element type
   * @param send what the root sends (read on the root only)
   * @param recv the copy, as long as {@code send} (it may be {@code send} itself)
   * @param root the rank that sends
   */
  <T> void broadcast(DeviceBuffer<T> send, DeviceBuffer<T> recv, int root);

  /**
   * Adds a send of {@code buffer} to rank {@code peer}, which must add a matching {@link #recv}.
   *
   * @param <T> the element type
   * @param buffer what is sent
   * @param peer the receiving rank
   */
  <T> void send(DeviceBuffer<T> buffer, int peer);

  /**
   * Adds a receive into {@code buffer} from rank {@code peer}, which must add a matching {@link
   * #send} of as many elements of the same type.
   *
   * @param <T> the element type
   * @param buffer where the elements land
   * @param peer the sending rank
   */
  <T> void recv(DeviceBuffer<T> buffer, int peer);
}
