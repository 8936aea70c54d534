// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 the cuda-graph authors
package cuda.graph.nccl.internal.comm;

import cuda.graph.DeviceBuffer;
import cuda.graph.nccl.CollectiveGroup;
import cuda.graph.nccl.ReduceOp;
import cuda.graph.nccl.internal.collective.Collective;
import cuda.graph.nccl.internal.collective.CollectiveKind;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;

/** Collects the checked collectives of one group call, in call order. */
public final class CollectiveGroupImpl implements CollectiveGroup {

  private final CollectiveChecks checks;
  private final List<Collective> collectives = new ArrayList<>();
  private final Thread owner = Thread.currentThread();
  private boolean open = true;

  CollectiveGroupImpl(CollectiveChecks checks) {
    this.checks = checks;
  }

  @Override
  public <T> void allReduce(DeviceBuffer<T> send, DeviceBuffer<T> recv, ReduceOp op) {
    add(checks.allReduce(send, recv, Objects.requireNonNull(op, "op")));
  }

  @Override
  public <T> void allGather(DeviceBuffer<T> send, DeviceBuffer<T> recv) {
    add(checks.allGather(send, recv));
  }

  @Override
  public <T> void reduceScatter(DeviceBuffer<T> send, DeviceBuffer<T> recv, ReduceOp op) {
    add(checks.reduceScatter(send, recv, Objects.requireNonNull(op, "op")));
  }

  @Override
  public <T> void broadcast(DeviceBuffer<T> send, DeviceBuffer<T> recv, int root) {
    add(checks.broadcast(send, recv, root));
  }

  @Override
  public <T> void send(DeviceBuffer<T> buffer, int peer) {
    add(checks.pointToPoint(CollectiveKind.SEND, Objects.requireNonNull(buffer, "buffer"), peer));
  }

  @Override
  public <T> void recv(DeviceBuffer<T> buffer, int peer) {
    add(checks.pointToPoint(CollectiveKind.RECV, Objects.requireNonNull(buffer, "buffer"), peer));
  }

  private void add(Collective collective) {
    if (!open || Thread.currentThread() != owner) {
      throw new IllegalStateException(
          "a CollectiveGroup takes collectives only during its group call, on its thread");
    }
    collectives.add(collective);
  }

  /** Ends the group call, whether its body returned or threw. */
  void end() {
    open = false;
  }

  /**
   * {@return the collectives the group call added}; asked only once the body returned, so that a
   * body that threw (a collective refused by its checks) reports its own failure
   */
  List<Collective> collectives() {
    if (collectives.isEmpty()) {
      throw new IllegalArgumentException("the group's body added no collective");
    }
    return List.copyOf(collectives);
  }
}
