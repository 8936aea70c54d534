// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 the cuda-graph authors
package cuda.graph.nccl.internal.collective;

import cuda.graph.Device;
import cuda.graph.GraphNode;
import cuda.graph.nccl.NcclUniqueId;
import java.util.List;
import org.jspecify.annotations.Nullable;

/** What runs the collectives of one platform: NCCL, or the simulator's model of it. */
public interface Backend {

  /** {@return the version to report, e.g. {@code 2.27.3} or {@code simulated}} */
  String version();

  /** {@return a new id for ranks in several processes to share} */
  NcclUniqueId newUniqueId();

  /** {@return one endpoint per device, rank i on devices.get(i)} */
  List<Endpoint> openAll(List<Device> devices);

  /** {@return the endpoint of rank {@code rank} of {@code size}; blocks until all have joined} */
  Endpoint join(Device device, NcclUniqueId id, int rank, int size);

  /**
   * Destroys the endpoints of one communicator together (NCCL's finalize is collective); called
   * once, when nothing uses them any more, on a thread of its own.
   */
  void destroy(List<Endpoint> endpoints);

  /** One rank's native side. */
  interface Endpoint {

    /**
     * {@return the node that issues {@code group} on this rank}; its execution takes a reference
     * from {@code uses} and releases it when the execution lets go
     */
    GraphNode<@Nullable Void> node(List<Collective> group, UsesHandle uses);
  }

  /** The references an endpoint's nodes take on their communicator. */
  interface UsesHandle {
    /** Takes a reference; fails if the communicator was closed. */
    void acquire();

    /** Releases a reference taken by {@link #acquire()}. */
    void release();
  }
}
