// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 the cuda-graph authors
package cuda.graph.nccl;

import static org.apiguardian.api.API.Status.EXPERIMENTAL;

import cuda.graph.CudaPlatform;
import cuda.graph.Device;
import cuda.graph.nccl.internal.comm.Backends;
import cuda.graph.nccl.internal.comm.CommunicatorImpl;
import cuda.graph.nccl.internal.comm.CommunicatorsImpl;
import java.util.List;
import java.util.Objects;
import org.apiguardian.api.API;

/**
 * Where communicators come from. On the {@code cuda} provider the calls are NCCL's; on the {@code
 * simulator} provider they are a model of them that runs on the simulated devices, with the same
 * checks and messages. Thread-safe.
 *
 * @since 0.1.0
 */
@API(status = EXPERIMENTAL, since = "0.1.0")
public final class Nccl {

  private Nccl() {}

  /**
   * {@return a communicator over {@code devices}, one rank per device, rank {@code i} on {@code
   * devices.get(i)}} ({@code ncclCommInitAll})
   *
   * @param devices at least one device, all of one platform, none twice
   * @throws IllegalArgumentException if {@code devices} is empty, repeats a device or mixes
   *     platforms
   * @throws NcclUnavailableException if the platform's provider has no NCCL
   * @throws NcclException if NCCL fails to make the communicator
   */
  public static Communicators open(List<Device> devices) {
    return CommunicatorsImpl.open(List.copyOf(Objects.requireNonNull(devices, "devices")));
  }

  /**
   * {@return a new id for the ranks of a communicator spanning processes to share} ({@code
   * ncclGetUniqueId})
   *
   * @param platform the platform whose provider makes it
   */
  public static NcclUniqueId newUniqueId(CudaPlatform platform) {
    return Backends.of(Objects.requireNonNull(platform, "platform")).newUniqueId();
  }

  /**
   * {@return this process's rank {@code rank} of the communicator of {@code size} ranks that {@code
   * id} names} ({@code ncclCommInitRank}); blocks until all {@code size} ranks have joined
   *
   * @param device the rank's device
   * @param id the id every rank got from the one {@link #newUniqueId} call
   * @param rank from 0 to {@code size - 1}, different on every rank
   * @param size the number of ranks, at least 1
   * @throws IllegalArgumentException if {@code rank} or {@code size} is out of range
   */
  public static Communicator join(Device device, NcclUniqueId id, int rank, int size) {
    return CommunicatorImpl.join(
        Objects.requireNonNull(device, "device"), Objects.requireNonNull(id, "id"), rank, size);
  }

  /**
   * {@return the NCCL version the platform's provider uses, e.g. {@code "2.27.3"}, or {@code
   * "simulated"} on the simulator}
   *
   * @param platform the platform to ask
   */
  public static String version(CudaPlatform platform) {
    return Backends.of(Objects.requireNonNull(platform, "platform")).version();
  }
}
