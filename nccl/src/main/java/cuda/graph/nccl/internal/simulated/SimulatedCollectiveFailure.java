// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 the cuda-graph authors
package cuda.graph.nccl.internal.simulated;

/**
 * The ranks of a simulated communicator disagreed or did not meet: what real NCCL would hang on or
 * silently corrupt memory for. Thrown from the collective's kernel, it fails the launch.
 */
final class SimulatedCollectiveFailure extends RuntimeException {

  private static final long serialVersionUID = 1L;

  SimulatedCollectiveFailure(String message) {
    super(message, null, false, false);
  }
}
