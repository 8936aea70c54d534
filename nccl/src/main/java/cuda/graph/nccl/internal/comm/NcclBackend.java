// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 the cuda-graph authors
package cuda.graph.nccl.internal.comm;

import cuda.graph.Device;
import cuda.graph.DeviceOp;
import cuda.graph.ForeignStream;
import cuda.graph.GraphNode;
import cuda.graph.nccl.NcclUniqueId;
import cuda.graph.nccl.ReduceOp;
import cuda.graph.nccl.internal.binding.NcclDataTypes;
import cuda.graph.nccl.internal.binding.NcclLibrary;
import cuda.graph.nccl.internal.collective.Backend;
import cuda.graph.nccl.internal.collective.Collective;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import org.jspecify.annotations.Nullable;

/** Collectives by NCCL: each group is one foreign node that issues NCCL's calls on the stream. */
final class NcclBackend implements Backend {

  private static volatile @Nullable NcclBackend instance;

  private final NcclLibrary nccl;

  NcclBackend(NcclLibrary nccl) {
    this.nccl = nccl;
  }

  static NcclBackend instance() {
    NcclBackend backend = instance;
    if (backend == null) {
      synchronized (NcclBackend.class) {
        backend = instance;
        if (backend == null) {
          backend = new NcclBackend(NcclLibrary.load());
          instance = backend;
        }
      }
    }
    return backend;
  }

  @Override
  public String version() {
    return nccl.versionString();
  }

  @Override
  public NcclUniqueId newUniqueId() {
    return NcclUniqueId.of(nccl.uniqueId());
  }

  @Override
  public List<Endpoint> openAll(List<Device> devices) {
    int[] ordinals = devices.stream().mapToInt(Device::ordinal).toArray();
    // Inside an op on the first device's stream: NCCL switches the thread's current device, and
    // the op binds the library's context again afterwards.
    long[] comms = onDevice(devices.getFirst(), () -> nccl.commInitAll(ordinals));
    List<Endpoint> endpoints = new ArrayList<>(comms.length);
    for (long comm : comms) {
      endpoints.add(new NcclEndpoint(comm));
    }
    return endpoints;
  }

  @Override
  public Endpoint join(Device device, NcclUniqueId id, int rank, int size) {
    // ncclCommInitRank takes the device that is current on the calling thread.
    return new NcclEndpoint(onDevice(device, () -> nccl.commInitRank(size, id.bytes(), rank)));
  }

  private static <R> R onDevice(Device device, java.util.function.Supplier<R> call) {
    try (var stream = device.newStream()) {
      return DeviceOp.withRawStream((s, d) -> call.get()).syncOn(stream);
    }
  }

  @Override
  public void destroy(List<Endpoint> endpoints) {
    RuntimeException failure = null;
    if (endpoints.size() > 1) {
      // Finalizing is collective: the ranks of one thread finalize inside one group.
      try {
        nccl.groupStart();
        try {
          for (Endpoint e : endpoints) {
            nccl.commFinalize(((NcclEndpoint) e).comm);
          }
        } finally {
          nccl.groupEnd();
        }
      } catch (RuntimeException e) {
        failure = e;
      }
    } else {
      try {
        nccl.commFinalize(((NcclEndpoint) endpoints.getFirst()).comm);
      } catch (RuntimeException e) {
        failure = e;
      }
    }
    for (Endpoint e : endpoints) {
      try {
        nccl.commDestroy(((NcclEndpoint) e).comm);
      } catch (RuntimeException destroyFailure) {
        failure = Failures.add(failure, destroyFailure);
      }
    }
    Failures.throwIfAny(failure);
  }

  private final class NcclEndpoint implements Endpoint {
    final long comm;

    NcclEndpoint(long comm) {
      this.comm = comm;
    }

    @Override
    public GraphNode<@Nullable Void> node(List<Collective> group, UsesHandle uses) {
      List<cuda.graph.DeviceBuffer<?>> buffers = new ArrayList<>();
      for (Collective c : group) {
        for (var b : c.buffers()) {
          if (!buffers.contains(b)) {
            buffers.add(b);
          }
        }
      }
      String name =
          group.size() == 1
              ? group.getFirst().describe()
              : "ncclGroup(" + group.size() + " collectives)";
      return GraphNode.foreign(
          name,
          buffers,
          s -> {
            uses.acquire();
            s.onRelease(uses::release);
            if (group.size() == 1) {
              issue(group.getFirst(), s);
              return;
            }
            nccl.groupStart();
            RuntimeException failure = null;
            try {
              for (Collective c : group) {
                issue(c, s);
              }
            } catch (RuntimeException e) {
              failure = e;
            } finally {
              try {
                nccl.groupEnd();
              } catch (RuntimeException e) {
                failure = Failures.add(failure, e);
              }
            }
            Failures.throwIfAny(failure);
          });
    }

    private void issue(Collective c, ForeignStream s) {
      long send = s.address(c.send());
      long recv = s.address(c.recv());
      int type = NcclDataTypes.of(c.type());
      long stream = s.handle();
      switch (c.kind()) {
        case ALL_REDUCE -> nccl.allReduce(send, recv, c.count(), type, op(c), comm, stream);
        case ALL_GATHER -> nccl.allGather(send, recv, c.count(), type, comm, stream);
        case REDUCE_SCATTER -> nccl.reduceScatter(send, recv, c.count(), type, op(c), comm, stream);
        case BROADCAST ->
            nccl.broadcast(send, recv, c.count(), type, c.rankArgument(), comm, stream);
        case SEND -> nccl.send(send, c.count(), type, c.rankArgument(), comm, stream);
        case RECV -> nccl.recv(recv, c.count(), type, c.rankArgument(), comm, stream);
      }
    }

    private static int op(Collective c) {
      ReduceOp op = Objects.requireNonNull(c.op(), "op");
      return op.code();
    }
  }
}
