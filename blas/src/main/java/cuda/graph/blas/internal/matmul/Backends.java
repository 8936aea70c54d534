// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 the cuda-graph authors
package cuda.graph.blas.internal.matmul;

import cuda.graph.Device;
import cuda.graph.blas.BlasUnavailableException;
import cuda.graph.blas.internal.binding.CublasLtBackend;
import cuda.graph.blas.internal.plan.MatmulBackend;
import cuda.graph.blas.internal.simulated.SimulatedMatmulBackend;

/**
 * Picks the backend for a device by its platform's provider: cuBLASLt for {@code cuda}, the Java
 * model on the {@code simulator}.
 */
public final class Backends {

  private Backends() {}

  /** {@return a new backend that runs matmuls on {@code device}} */
  public static MatmulBackend open(Device device) {
    String provider = device.platform().providerId();
    return switch (provider) {
      case "cuda" -> CublasLtBackend.open(device);
      case "simulator" -> SimulatedMatmulBackend.open(device);
      default ->
          throw new BlasUnavailableException(
              "Blas.open: the platform's provider '"
                  + provider
                  + "' has no matrix products: cuda.graph.blas runs cuBLASLt on the 'cuda'"
                  + " provider and a model of it on the 'simulator' provider",
              null);
    };
  }
}
