// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 the cuda-graph authors
package cuda.graph.nccl.internal.comm;

import cuda.graph.Device;
import cuda.graph.DeviceBuffer;
import cuda.graph.GraphNode;
import cuda.graph.Stream;
import cuda.graph.nccl.CollectiveGroup;
import cuda.graph.nccl.Communicator;
import cuda.graph.nccl.NcclUniqueId;
import cuda.graph.nccl.ReduceOp;
import cuda.graph.nccl.internal.collective.Backend;
import cuda.graph.nccl.internal.collective.Collective;
import cuda.graph.nccl.internal.collective.CollectiveKind;
import java.util.List;
import java.util.Objects;
import java.util.function.Consumer;
import org.jspecify.annotations.Nullable;

/**
 * One rank: its checks, its endpoint and stream, and the uses that keep the communicator it belongs
 * to alive (shared by every rank of a {@link CommunicatorsImpl}).
 */
public final class CommunicatorImpl implements Communicator {

  private final int rank;
  private final int size;
  private final Device device;
  private final Stream stream;
  private final Backend.Endpoint endpoint;
  private final Uses uses;
  private final CollectiveChecks checks;
  private final boolean standalone;
  private volatile boolean closed;

  CommunicatorImpl(
      int rank, int size, Device device, Backend.Endpoint endpoint, Uses uses, boolean standalone) {
    this.rank = rank;
    this.size = size;
    this.device = device;
    this.endpoint = endpoint;
    this.uses = uses;
    this.standalone = standalone;
    this.checks = new CollectiveChecks(toString(), rank, size, device);
    this.stream = device.newStream();
  }

  /** Joins rank {@code rank} of the communicator {@code id} names; see {@code Nccl.join}. */
  public static Communicator join(Device device, NcclUniqueId id, int rank, int size) {
    if (size < 1) {
      throw new IllegalArgumentException("a communicator has at least 1 rank, got size " + size);
    }
    if (rank < 0 || rank >= size) {
      throw new IllegalArgumentException(
          "rank "
              + rank
              + " is outside a communicator of "
              + size
              + " ranks (0 to "
              + (size - 1)
              + ")");
    }
    Backend backend = Backends.of(device.platform());
    Backend.Endpoint endpoint = backend.join(device, id, rank, size);
    Backend.Endpoint[] holder = {endpoint};
    Uses uses =
        new Uses(
            "communicator rank " + rank + " of " + size,
            () -> Destroyer.destroy(backend, List.of(holder[0])));
    return new CommunicatorImpl(rank, size, device, endpoint, uses, true);
  }

  @Override
  public int rank() {
    return rank;
  }

  @Override
  public int size() {
    return size;
  }

  @Override
  public Device device() {
    return device;
  }

  @Override
  public Stream stream() {
    return stream;
  }

  @Override
  public <T> GraphNode<@Nullable Void> allReduce(
      DeviceBuffer<T> send, DeviceBuffer<T> recv, ReduceOp op) {
    return node(checks.allReduce(send, recv, Objects.requireNonNull(op, "op")));
  }

  @Override
  public <T> GraphNode<@Nullable Void> allReduce(DeviceBuffer<T> buffer, ReduceOp op) {
    return allReduce(buffer, buffer, op);
  }

  @Override
  public <T> GraphNode<@Nullable Void> allGather(DeviceBuffer<T> send, DeviceBuffer<T> recv) {
    return node(checks.allGather(send, recv));
  }

  @Override
  public <T> GraphNode<@Nullable Void> reduceScatter(
      DeviceBuffer<T> send, DeviceBuffer<T> recv, ReduceOp op) {
    return node(checks.reduceScatter(send, recv, Objects.requireNonNull(op, "op")));
  }

  @Override
  public <T> GraphNode<@Nullable Void> broadcast(DeviceBuffer<T> buffer, int root) {
    return node(checks.broadcast(buffer, buffer, root));
  }

  @Override
  public <T> GraphNode<@Nullable Void> send(DeviceBuffer<T> buffer, int peer) {
    return node(
        checks.pointToPoint(CollectiveKind.SEND, Objects.requireNonNull(buffer, "buffer"), peer));
  }

  @Override
  public <T> GraphNode<@Nullable Void> recv(DeviceBuffer<T> buffer, int peer) {
    return node(
        checks.pointToPoint(CollectiveKind.RECV, Objects.requireNonNull(buffer, "buffer"), peer));
  }

  @Override
  public GraphNode<@Nullable Void> group(Consumer<? super CollectiveGroup> body) {
    Objects.requireNonNull(body, "body");
    CollectiveGroupImpl group = new CollectiveGroupImpl(checks);
    try {
      body.accept(group);
    } finally {
      group.end();
    }
    return nodeOf(group.collectives());
  }

  private GraphNode<@Nullable Void> node(Collective collective) {
    return nodeOf(List.of(collective));
  }

  private GraphNode<@Nullable Void> nodeOf(List<Collective> collectives) {
    if (uses.isClosed() || closed) {
      throw new IllegalStateException(this + " is closed; make its collectives before closing it");
    }
    return endpoint.node(collectives, uses);
  }

  @Override
  public void close() {
    if (closed) {
      return;
    }
    closed = true;
    stream.close();
    if (standalone) {
      uses.closeOwner();
    }
  }

  /** Closes the rank's own part (its stream); the set closes the shared uses. */
  void closeRank() {
    if (!closed) {
      closed = true;
      stream.close();
    }
  }

  @Override
  public String toString() {
    return "communicator rank " + rank + " of " + size + " on device " + device.ordinal();
  }
}
