// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 the cuda-graph authors
package cuda.graph.nccl.internal.comm;

import cuda.graph.Device;
import cuda.graph.DeviceBuffer;
import cuda.graph.nccl.ReduceOp;
import cuda.graph.nccl.internal.binding.NcclDataTypes;
import cuda.graph.nccl.internal.collective.Collective;
import cuda.graph.nccl.internal.collective.CollectiveKind;
import java.util.Objects;
import org.jspecify.annotations.Nullable;

/**
 * The checks of a collective's arguments, made when the node is made and the same on every
 * provider: NCCL itself checks little, and what it does not check corrupts memory or hangs.
 */
final class CollectiveChecks {

  private final String rankName;
  private final int rank;
  private final int size;
  private final Device device;

  CollectiveChecks(String rankName, int rank, int size, Device device) {
    this.rankName = rankName;
    this.rank = rank;
    this.size = size;
    this.device = device;
  }

  Collective allReduce(DeviceBuffer<?> send, DeviceBuffer<?> recv, ReduceOp op) {
    String what = CollectiveKind.ALL_REDUCE.function;
    check(what, send, recv, op);
    sameLength(what, send, recv, 1, 1);
    return new Collective(
        CollectiveKind.ALL_REDUCE, send, recv, send.length(), send.elementType(), op, -1);
  }

  Collective allGather(DeviceBuffer<?> send, DeviceBuffer<?> recv) {
    String what = CollectiveKind.ALL_GATHER.function;
    check(what, send, recv, null);
    sameLength(what, send, recv, size, 1);
    return new Collective(
        CollectiveKind.ALL_GATHER, send, recv, send.length(), send.elementType(), null, -1);
  }

  Collective reduceScatter(DeviceBuffer<?> send, DeviceBuffer<?> recv, ReduceOp op) {
    String what = CollectiveKind.REDUCE_SCATTER.function;
    check(what, send, recv, op);
    sameLength(what, send, recv, 1, size);
    return new Collective(
        CollectiveKind.REDUCE_SCATTER, send, recv, recv.length(), send.elementType(), op, -1);
  }

  Collective broadcast(DeviceBuffer<?> send, DeviceBuffer<?> recv, int root) {
    String what = CollectiveKind.BROADCAST.function;
    check(what, send, recv, null);
    sameLength(what, send, recv, 1, 1);
    rankInRange(what, "root", root);
    return new Collective(
        CollectiveKind.BROADCAST, send, recv, send.length(), send.elementType(), null, root);
  }

  Collective pointToPoint(CollectiveKind kind, DeviceBuffer<?> buffer, int peer) {
    check(kind.function, buffer, buffer, null);
    rankInRange(kind.function, "peer", peer);
    return new Collective(kind, buffer, buffer, buffer.length(), buffer.elementType(), null, peer);
  }

  private void check(
      String what, DeviceBuffer<?> send, DeviceBuffer<?> recv, @Nullable ReduceOp op) {
    Objects.requireNonNull(send, "send");
    Objects.requireNonNull(recv, "recv");
    for (DeviceBuffer<?> buffer : new DeviceBuffer<?>[] {send, recv}) {
      if (buffer.device() != device) {
        throw new IllegalArgumentException(
            what
                + ": "
                + buffer
                + " lives on device "
                + buffer.device().ordinal()
                + (buffer.device().platform() == device.platform() ? "" : " of another platform")
                + " but "
                + rankName
                + " runs on device "
                + device.ordinal()
                + "; each rank's collectives use buffers of its own device");
      }
    }
    if (send.elementType() != recv.elementType()) {
      throw new IllegalArgumentException(
          what
              + ": the send buffer holds "
              + send.elementType()
              + " but the receive buffer "
              + recv.elementType()
              + "; NCCL moves elements of one type");
    }
    try {
      NcclDataTypes.of(send.elementType());
    } catch (IllegalArgumentException e) {
      throw new IllegalArgumentException(what + ": " + e.getMessage(), e);
    }
    if (op == null
        && (what.equals(CollectiveKind.ALL_REDUCE.function)
            || what.equals(CollectiveKind.REDUCE_SCATTER.function))) {
      throw new NullPointerException("op");
    }
  }

  private void sameLength(
      String what, DeviceBuffer<?> send, DeviceBuffer<?> recv, long recvTimes, long sendTimes) {
    if (send.length() * recvTimes != recv.length() * sendTimes) {
      String expected =
          recvTimes > 1
              ? "the receive buffer must hold size (" + size + ") times the send buffer's elements"
              : sendTimes > 1
                  ? "the send buffer must hold size ("
                      + size
                      + ") times the receive buffer's"
                      + " elements"
                  : "both buffers must hold as many elements";
      throw new IllegalArgumentException(
          what
              + ": the send buffer holds "
              + send.length()
              + " elements and the receive buffer "
              + recv.length()
              + "; "
              + expected);
    }
    if (send.length() == 0) {
      throw new IllegalArgumentException(what + ": the buffers are empty");
    }
  }

  private void rankInRange(String what, String role, int value) {
    if (value < 0 || value >= size) {
      throw new IllegalArgumentException(
          what
              + ": "
              + role
              + " "
              + value
              + " is no rank of this communicator, whose ranks are 0 to "
              + (size - 1));
    }
    if (role.equals("peer") && value == rank) {
      throw new IllegalArgumentException(
          what + ": peer " + value + " is this rank itself; copy the buffer instead");
    }
  }
}
