// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 the cuda-graph authors
/**
 * The CUDA driver contract of cuda-graph, in CUDA's own terms.
 *
 * <p>A provider implements {@link cuda.graph.spi.CudaDriverProvider} and registers it with {@code
 * provides cuda.graph.spi.CudaDriverProvider with ...} (and a {@code META-INF/services} entry for
 * class-path users). The public API module {@code cuda.graph} finds providers with {@link
 * java.util.ServiceLoader} and talks to them only through {@link cuda.graph.spi.CudaDriver}.
 * Application code never needs this module.
 */
module cuda.graph.spi {
  // Transitive: every exported type carries its @API status, so readers of this module need the
  // annotation when they compile (without it javac warns that it cannot find it).
  requires transitive org.apiguardian.api;
  // Transitive: the exported types carry its annotations, so readers of this module need them at
  // compile time; static: nothing needs them at run time.
  requires static transitive org.jspecify;

  exports cuda.graph.spi;
  exports cuda.graph.spi.support;
}
