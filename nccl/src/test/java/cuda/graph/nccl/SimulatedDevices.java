// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 the cuda-graph authors
package cuda.graph.nccl;

import cuda.graph.CudaPlatform;
import cuda.graph.simulator.Simulator;

/** Platforms over a simulator of several devices, as the collective tests need them. */
final class SimulatedDevices {

  private SimulatedDevices() {}

  /** {@return a platform over a fresh asynchronous simulator with {@code devices} devices} */
  static CudaPlatform platform(int devices) {
    return CudaPlatform.forDriver(Simulator.builder().devices(devices).build(), "simulator");
  }
}
