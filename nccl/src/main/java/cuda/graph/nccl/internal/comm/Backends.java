// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 the cuda-graph authors
package cuda.graph.nccl.internal.comm;

import cuda.graph.CudaPlatform;
import cuda.graph.nccl.NcclUnavailableException;
import cuda.graph.nccl.internal.collective.Backend;
import cuda.graph.nccl.internal.simulated.SimulatedBackend;

/** Picks the backend for a platform by its provider: NCCL for {@code cuda}, the model elsewhere. */
public final class Backends {

  private Backends() {}

  /** {@return the backend that runs collectives on {@code platform}'s devices} */
  public static Backend of(CudaPlatform platform) {
    return switch (platform.providerId()) {
      case "cuda" -> NcclBackend.instance();
      case "simulator" -> SimulatedBackend.INSTANCE;
      default ->
          throw new NcclUnavailableException(
              "the platform's provider '"
                  + platform.providerId()
                  + "' has no collectives: cuda.graph.nccl runs NCCL on the 'cuda' provider and a"
                  + " model of it on the 'simulator' provider",
              null);
    };
  }
}
