// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 the cuda-graph authors
/**
 * cuda-graph: compose lazy GPU work, run it on CUDA streams, capture it into CUDA graphs.
 *
 * <p>The module finds a CUDA driver provider with {@link java.util.ServiceLoader}: the {@code cuda}
 * provider (module {@code cuda.graph.driver}) where an NVIDIA driver and GPU are present, the
 * {@code simulator} (module {@code cuda.graph.simulator}) elsewhere, or the one forced with {@code
 * -Dcuda.graph.provider=<id>}.
 *
 * @uses cuda.graph.spi.CudaDriverProvider
 */
module cuda.graph {
  // Transitive: every exported type carries its @API status, so readers of this module need the
  // annotation when they compile (without it javac warns that it cannot find it).
  requires transitive org.apiguardian.api;
  requires cuda.graph.spi;
  requires jdk.jfr;
  requires transitive org.jspecify;

  exports cuda.graph;

  uses cuda.graph.spi.CudaDriverProvider;
}
