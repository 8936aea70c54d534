// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 the cuda-graph authors
/**
 * The cuda-graph test kit: instruments that prove a caller of any {@link cuda.graph.spi.CudaDriver}
 * correct, published apart from the SPI so that applications and providers never load them.
 *
 * <p>Tests and the conformance kit depend on it ({@code cuda-graph-testkit} at test scope); no
 * library or application code does, which the architecture tests check.
 */
module cuda.graph.testkit {
  // Transitive: every exported type carries its @API status, so readers of this module need the
  // annotation when they compile (without it javac warns that it cannot find it).
  requires transitive org.apiguardian.api;
  requires transitive cuda.graph
      .spi; // its decorators are CudaDrivers, its records name DriverCalls
  requires static org.jspecify;

  exports cuda.graph.testkit;
}
