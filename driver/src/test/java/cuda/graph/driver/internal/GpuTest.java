// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 the cuda-graph authors
package cuda.graph.driver.internal;

import cuda.graph.spi.CudaDriver;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Tag;

/**
 * The base of the GPU test classes: opens the real driver with device 0's primary context and the
 * test kernels once per class (skipping the class, with the provider's reason, where no GPU is
 * usable), binds the context before each test (JUnit may run it on another thread), and releases
 * everything after the class.
 */
@Tag("gpu")
abstract class GpuTest {

  static GpuFixture gpu;
  static CudaDriver driver;
  static TestKernels kernels;

  @BeforeAll
  static void openGpu() {
    gpu = GpuFixture.open();
    driver = gpu.driver;
    kernels = TestKernels.load(driver);
  }

  @AfterAll
  static void closeGpu() {
    if (gpu != null) {
      gpu.bind();
      kernels.close();
      gpu.close();
      gpu = null;
    }
  }

  @BeforeEach
  void bindGpu() {
    gpu.bind();
  }
}
