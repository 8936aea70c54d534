// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 the cuda-graph authors
package cuda.graph.simulator;

import static cuda.graph.simulator.SimFixture.assertStatus;
import static org.junit.jupiter.api.Assertions.assertDoesNotThrow;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;

import cuda.graph.spi.CaptureMode;
import cuda.graph.spi.CudaDriverException;
import cuda.graph.spi.DriverCall;
import cuda.graph.spi.StreamFlags;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/** Spec §2.3 first rows: what works before {@code cuInit}, and {@code cuInit}'s own rules. */
@Timeout(20)
class InitializationTests {

  private final SimulatedDriver driver = Simulator.create();

  @AfterEach
  void close() {
    driver.close();
  }

  @Test
  void callsBeforeInitReturnNotInitialized() {
    assertStatus(3, driver::deviceGetCount);
    assertStatus(3, () -> driver.deviceGet(0));
    assertStatus(3, () -> driver.devicePrimaryCtxRetain(0));
    assertStatus(3, driver::ctxGetCurrent);
    assertStatus(3, () -> driver.streamCreate(StreamFlags.NON_BLOCKING));
    assertStatus(3, () -> driver.memAlloc(256));
    assertStatus(3, () -> driver.threadExchangeStreamCaptureMode(CaptureMode.RELAXED));
  }

  @Test
  void notInitializedFailureNamesTheCall() {
    CudaDriverException e = assertStatus(3, driver::deviceGetCount);
    assertEquals(DriverCall.DEVICE_GET_COUNT, e.call());
  }

  @Test
  void driverGetVersionWorksBeforeInitAndReports13000() {
    assertEquals(13000, driver.driverGetVersion());
  }

  @Test
  void errorNameAndStringWorkBeforeInit() {
    assertEquals("CUDA_ERROR_INVALID_VALUE", driver.getErrorName(1).orElseThrow());
    assertEquals("invalid argument", driver.getErrorString(1).orElseThrow());
  }

  @Test
  void initWithNonZeroFlagsReturnsInvalidValue() {
    assertStatus(1, () -> driver.init(1));
  }

  @Test
  void initTwiceSucceedsBothTimes() {
    assertDoesNotThrow(() -> driver.init(0));
    assertDoesNotThrow(() -> driver.init(0));
    assertEquals(1, driver.deviceGetCount());
  }

  @Test
  void afterInitNoContextIsCurrent() {
    driver.init(0);
    assertNull(driver.ctxGetCurrent());
  }

  @Test
  void closeIsIdempotent() {
    driver.init(0);
    driver.close();
    assertDoesNotThrow(driver::close);
  }
}
