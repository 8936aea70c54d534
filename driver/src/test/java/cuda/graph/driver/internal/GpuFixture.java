// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 the cuda-graph authors
package cuda.graph.driver.internal;

import static org.junit.jupiter.api.Assumptions.assumeTrue;

import cuda.graph.spi.Availability;
import cuda.graph.spi.CuContext;
import cuda.graph.spi.CudaDriver;

/**
 * The real driver for one GPU test class: device 0's primary context, retained and bound to the
 * test thread. Where no GPU is usable the class is skipped, with the provider's one-line reason.
 *
 * <p>Open it in {@code @BeforeAll}, call {@link #bind()} in {@code @BeforeEach} (JUnit may run a
 * test on another thread than the one that opened it), close it in {@code @AfterAll}.
 */
final class GpuFixture implements AutoCloseable {

  final CudaDriver driver;
  final int device;
  final CuContext context;

  private GpuFixture(CudaDriver driver, int device, CuContext context) {
    this.driver = driver;
    this.device = device;
    this.context = context;
  }

  /** Opens the fixture, or skips the calling test class with the provider's reason. */
  static GpuFixture open() {
    CudaProvider provider = new CudaProvider();
    Availability availability = provider.availability();
    assumeTrue(availability.available(), "no usable GPU: " + availability.reason());
    CudaDriver driver = provider.open();
    driver.init(0);
    int device = driver.deviceGet(0);
    CuContext context = driver.devicePrimaryCtxRetain(device);
    driver.ctxSetCurrent(context);
    return new GpuFixture(driver, device, context);
  }

  /** Makes the primary context current on the calling thread. */
  void bind() {
    driver.ctxSetCurrent(context);
  }

  @Override
  public void close() {
    driver.ctxSetCurrent(null);
    driver.devicePrimaryCtxRelease(device);
    driver.close();
  }
}
