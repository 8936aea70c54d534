// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 the cuda-graph authors
package cuda.graph.nccl.internal.simulated;

import cuda.graph.Device;
import cuda.graph.DeviceBuffer;
import cuda.graph.GraphNode;
import cuda.graph.Kernel;
import cuda.graph.LaunchConfig;
import cuda.graph.nccl.NcclUniqueId;
import cuda.graph.nccl.internal.collective.Backend;
import cuda.graph.nccl.internal.collective.Collective;
import java.security.SecureRandom;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.concurrent.ConcurrentHashMap;
import org.jspecify.annotations.Nullable;

/**
 * The simulator's collectives: communicators of this JVM meet in a {@link SimulatedClique}, whose
 * kernels run in stream order on the simulated devices and are captured into graphs like any
 * kernel. Ranks joining by id ({@code Nccl.join}) find each other through a table of this JVM, the
 * way NCCL's bootstrap finds processes. Multi-rank collectives need the simulator's asynchronous
 * engine (its default), where each stream runs on a thread of its own. The kernels are shared by
 * all communicators ({@link SimulatedKernels}); destroying a communicator's endpoints leaves its
 * clique, which goes when its last rank has left.
 */
public final class SimulatedBackend implements Backend {

  /**
   * {@return how long a rank waits for the others} System property {@code
   * cuda.graph.nccl.simulator.timeout} (milliseconds, default 30 s), read for each new
   * communicator.
   */
  static Duration timeout() {
    return Duration.ofMillis(Long.getLong("cuda.graph.nccl.simulator.timeout", 30_000));
  }

  /** The one instance: the model keeps no per-platform state. */
  public static final SimulatedBackend INSTANCE = new SimulatedBackend();

  private static final LaunchConfig ONE_THREAD = LaunchConfig.of(1, 1);

  private final Map<NcclUniqueId, Joining> joining = new ConcurrentHashMap<>();
  private final SecureRandom random = new SecureRandom();
  private final SimulatedKernels kernels = new SimulatedKernels();

  private SimulatedBackend() {}

  @Override
  public String version() {
    return "simulated";
  }

  @Override
  public NcclUniqueId newUniqueId() {
    byte[] bytes = new byte[NcclUniqueId.BYTES];
    random.nextBytes(bytes);
    return NcclUniqueId.of(bytes);
  }

  @Override
  public List<Endpoint> openAll(List<Device> devices) {
    SimulatedKernels.Membership clique =
        kernels.register(new SimulatedClique(devices.size(), timeout()));
    List<Endpoint> endpoints = new ArrayList<>(devices.size());
    for (int r = 0; r < devices.size(); r++) {
      endpoints.add(new SimulatedEndpoint(kernels, clique, r, devices.get(r)));
    }
    return endpoints;
  }

  @Override
  public Endpoint join(Device device, NcclUniqueId id, int rank, int size) {
    Joining j = joining.computeIfAbsent(id, ignored -> new Joining(kernels, size));
    SimulatedKernels.Membership clique = j.join(id, rank, size);
    joining.remove(id, j);
    return new SimulatedEndpoint(kernels, clique, rank, device);
  }

  @Override
  public void destroy(List<Endpoint> endpoints) {
    // Nothing native: each rank leaves its clique, and the last one drops it.
    for (Endpoint endpoint : endpoints) {
      ((SimulatedEndpoint) endpoint).clique().leave();
    }
  }

  /** {@return how many cliques are not yet dropped, for the tests} */
  int liveCliques() {
    return kernels.liveCliques();
  }

  /** Ranks that joined one id so far; the last to join completes it. */
  private static final class Joining {
    private final int size;
    private final boolean[] joined;
    private int count;
    private final SimulatedKernels kernels;
    private final Duration timeout = timeout();
    private SimulatedKernels.@Nullable Membership clique;

    Joining(SimulatedKernels kernels, int size) {
      this.size = size;
      this.joined = new boolean[size];
      this.kernels = kernels;
    }

    synchronized SimulatedKernels.Membership join(NcclUniqueId id, int rank, int theirSize) {
      if (theirSize != size) {
        throw new IllegalArgumentException(
            "rank "
                + rank
                + " joins "
                + id
                + " as one of "
                + theirSize
                + " ranks, but an earlier rank joined it as one of "
                + size);
      }
      if (joined[rank]) {
        throw new IllegalArgumentException("rank " + rank + " of " + id + " joined twice");
      }
      joined[rank] = true;
      count++;
      if (count == size) {
        // Registered only once complete: ranks that time out leave no clique behind.
        clique = kernels.register(new SimulatedClique(size, timeout));
      }
      notifyAll();
      long deadline = System.nanoTime() + timeout.toNanos();
      while (count < size) {
        long left = deadline - System.nanoTime();
        if (left <= 0) {
          throw new IllegalStateException(
              "simulated ncclCommInitRank: rank "
                  + rank
                  + " waited "
                  + timeout.toMillis()
                  + " ms for the other ranks of "
                  + id
                  + "; "
                  + count
                  + " of "
                  + size
                  + " joined (NCCL would wait for ever)");
        }
        try {
          wait(Math.max(1, left / 1_000_000));
        } catch (InterruptedException e) {
          Thread.currentThread().interrupt();
          throw new IllegalStateException("interrupted while joining " + id, e);
        }
      }
      return Objects.requireNonNull(clique);
    }
  }

  private record SimulatedEndpoint(
      SimulatedKernels kernels, SimulatedKernels.Membership clique, int rank, Device device)
      implements Endpoint {

    @Override
    public GraphNode<@Nullable Void> node(List<Collective> group, UsesHandle uses) {
      Kernel kernel = kernels.kernel(group.size());
      // Loaded now, so that a capture of the node loads no module.
      kernel.load(device);
      List<Object> arguments = new ArrayList<>(group.size() * 5 + 1);
      List<DeviceBuffer<?>> buffers = new ArrayList<>();
      for (Collective c : group) {
        SimulatedCollective s = SimulatedCollective.of(c);
        arguments.add(c.send());
        arguments.add(c.recv());
        arguments.add(c.count());
        arguments.add(s.packed());
        arguments.add(c.rankArgument());
        buffers.addAll(c.buffers());
      }
      arguments.add(rank);
      arguments.add(clique.id());
      // The same lifetime rule as NCCL's nodes: an execution, or a graph that captured one, holds
      // the communicator.
      GraphNode<@Nullable Void> hold =
          GraphNode.foreign(
              "hold communicator",
              List.of(),
              s -> {
                uses.acquire();
                s.onRelease(uses::release);
              });
      return GraphNode.sequence(hold, kernel.launch(ONE_THREAD, arguments.toArray()));
    }
  }
}
