// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 the cuda-graph authors
/**
 * The cuda-graph conformance kit: the contracts a CUDA driver provider, and the cuda-graph API on
 * top of it, must pass, published as a normal jar.
 *
 * <p>A provider author writes one small test class per contract, {@code implements} it, and returns
 * a new driver of their provider from {@link
 * cuda.graph.conformance.ConformanceContract#openDriver()}. Each test wraps that driver in an
 * {@link cuda.graph.testkit.InstrumentedDriver} (live-handle ledger, use-after-destroy detection,
 * call log, fault injection), builds a platform over it with {@link
 * cuda.graph.CudaPlatform#forDriver}, and ends by proving that no handle is left alive.
 *
 * <p>Contracts are JUnit Jupiter {@code @Test} and jqwik {@code @Property} default methods, so the
 * test run needs both engines ({@code junit-jupiter-engine} and {@code jqwik-engine}) at test
 * scope.
 *
 * @uses cuda.graph.spi.CudaDriverProvider
 */
module cuda.graph.conformance {
  // Transitive: every exported type carries its @API status, so readers of this module need the
  // annotation when they compile (without it javac warns that it cannot find it).
  requires transitive org.apiguardian.api;
  requires transitive cuda.graph;
  requires transitive cuda.graph.spi;
  requires transitive cuda.graph.testkit;
  requires transitive org.junit.jupiter.api;
  requires transitive net.jqwik.api;
  requires static org.jspecify;

  exports cuda.graph.conformance;
  exports cuda.graph.conformance.arbitraries;
  exports cuda.graph.conformance.kernels;

  // Finds the provider under test by id, through the same ServiceLoader path applications use.
  uses cuda.graph.spi.CudaDriverProvider;
}
