// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 the cuda-graph authors
package cuda.graph.nccl.internal.collective;

import cuda.graph.DeviceBuffer;
import cuda.graph.ElementType;
import cuda.graph.nccl.ReduceOp;
import java.util.ArrayList;
import java.util.List;
import org.jspecify.annotations.Nullable;

/**
 * One checked collective of a group: what NCCL is asked to do, in its own terms.
 *
 * @param kind which collective
 * @param send what this rank contributes (for a receive: its buffer)
 * @param recv where the result lands (for a send: its buffer)
 * @param count NCCL's element count: the whole buffer for all-reduce, broadcast, send and receive,
 *     the send buffer for all-gather, the receive buffer for reduce-scatter
 * @param type the element type of both buffers
 * @param op the reduction, for all-reduce and reduce-scatter
 * @param rankArgument the root of a broadcast, the peer of a send or receive, else -1
 */
public record Collective(
    CollectiveKind kind,
    DeviceBuffer<?> send,
    DeviceBuffer<?> recv,
    long count,
    ElementType<?> type,
    @Nullable ReduceOp op,
    int rankArgument) {

  /** {@return the distinct buffers the collective touches} */
  public List<DeviceBuffer<?>> buffers() {
    List<DeviceBuffer<?>> buffers = new ArrayList<>(2);
    buffers.add(send);
    if (recv != send) {
      buffers.add(recv);
    }
    return buffers;
  }

  /** {@return the collective as messages show it, e.g. {@code ncclAllReduce(SUM, 1024 x f32)}} */
  public String describe() {
    return describe(kind, op, count, type, rankArgument);
  }

  /** {@return a collective as messages show it} */
  public static String describe(
      CollectiveKind kind,
      @Nullable ReduceOp op,
      long count,
      ElementType<?> type,
      int rankArgument) {
    StringBuilder text = new StringBuilder(kind.function).append('(');
    if (op != null) {
      text.append(op).append(", ");
    }
    text.append(count).append(" x ").append(type);
    switch (kind) {
      case BROADCAST -> text.append(", root ").append(rankArgument);
      case SEND -> text.append(" to rank ").append(rankArgument);
      case RECV -> text.append(" from rank ").append(rankArgument);
      default -> {}
    }
    return text.append(')').toString();
  }
}
