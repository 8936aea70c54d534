// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 the cuda-graph authors
/**
 * The {@code cuda} provider: the CUDA driver ({@code libcuda.so.1}) through the Foreign Function
 * and Memory API, plus NVRTC ({@code libnvrtc.so.*}) when it can be found.
 *
 * <p>The module exports nothing; it is reached only as a {@link cuda.graph.spi.CudaDriverProvider}
 * through {@link java.util.ServiceLoader}. It calls native code, so the JVM must grant it native
 * access: {@code --enable-native-access=cuda.graph.driver} on the module path, or {@code
 * --enable-native-access=ALL-UNNAMED} on the class path. System properties: {@code
 * cuda.graph.driver.library} (the driver library to load instead of {@code libcuda.so.1}) and
 * {@code cuda.graph.nvrtc.library} (the NVRTC library to load).
 *
 * @provides cuda.graph.spi.CudaDriverProvider
 */
module cuda.graph.driver {
  requires static org.jspecify;
  requires cuda.graph.spi;

  provides cuda.graph.spi.CudaDriverProvider with
      cuda.graph.driver.internal.CudaProvider;
}
