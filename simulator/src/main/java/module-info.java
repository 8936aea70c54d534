// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 the cuda-graph authors
/**
 * An in-process model of the CUDA driver, provider id {@code simulator}: the default where no GPU
 * is present, and the driver that CI and property tests run against.
 *
 * <p>Package {@code cuda.graph.simulator} is the test-facing surface: building a simulator with
 * chosen devices, memory and scheduling. Handle ledger, call log and fault injection come from
 * {@code cuda.graph.testkit.InstrumentedDriver} (the test kit), which decorates any driver.
 */
module cuda.graph.simulator {
  // Transitive: every exported type carries its @API status, so readers of this module need the
  // annotation when they compile (without it javac warns that it cannot find it).
  requires transitive org.apiguardian.api;
  requires transitive cuda.graph.spi; // SimulatedDriver, public here, is a CudaDriver
  requires static org.jspecify;

  exports cuda.graph.simulator;

  provides cuda.graph.spi.CudaDriverProvider with
      cuda.graph.simulator.internal.SimulatorProvider;
}
