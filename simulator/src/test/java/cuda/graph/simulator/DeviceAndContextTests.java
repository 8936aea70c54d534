// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 the cuda-graph authors
package cuda.graph.simulator;

import static cuda.graph.simulator.SimFixture.assertStatus;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;

import cuda.graph.spi.CuContext;
import cuda.graph.spi.DeviceAttribute;
import cuda.graph.spi.ModuleImage;
import cuda.graph.spi.StreamFlags;
import java.util.function.Consumer;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/** Spec §2.3 (devices, contexts), §5.1 (H200 attributes) and §7 (contexts are bound per thread). */
@Timeout(20)
class DeviceAndContextTests {

  private static void withDriver(Simulator.Builder builder, Consumer<SimulatedDriver> test) {
    SimulatedDriver driver = builder.build();
    try {
      driver.init(0);
      test.accept(driver);
    } finally {
      driver.close();
    }
  }

  private static void withDriver(Consumer<SimulatedDriver> test) {
    withDriver(Simulator.builder(), test);
  }

  @Test
  void deviceCountIsTheConfiguredNumberOfDevices() {
    withDriver(Simulator.builder().devices(3), d -> assertEquals(3, d.deviceGetCount()));
    withDriver(d -> assertEquals(1, d.deviceGetCount()));
  }

  @Test
  void deviceGetOutOfRangeReturnsInvalidDevice() {
    withDriver(
        d -> {
          assertStatus(101, () -> d.deviceGet(99));
          assertStatus(101, () -> d.deviceGet(-1));
          assertStatus(101, () -> d.deviceGet(1));
        });
  }

  @Test
  void deviceNameIsTheConfiguredName() {
    withDriver(
        Simulator.builder().deviceName("Test GPU"),
        d -> assertEquals("Test GPU", d.deviceGetName(d.deviceGet(0))));
  }

  @ParameterizedTest(name = "attribute {0} = {1}")
  @CsvSource({
    DeviceAttribute.MAX_THREADS_PER_BLOCK + ", 1024",
    DeviceAttribute.MAX_BLOCK_DIM_X + ", 1024",
    DeviceAttribute.MAX_BLOCK_DIM_Y + ", 1024",
    DeviceAttribute.MAX_BLOCK_DIM_Z + ", 64",
    DeviceAttribute.MAX_GRID_DIM_X + ", 2147483647",
    DeviceAttribute.MAX_GRID_DIM_Y + ", 65535",
    DeviceAttribute.MAX_GRID_DIM_Z + ", 65535",
    DeviceAttribute.MAX_SHARED_MEMORY_PER_BLOCK + ", 49152",
    DeviceAttribute.WARP_SIZE + ", 32",
    DeviceAttribute.MULTIPROCESSOR_COUNT + ", 132",
    DeviceAttribute.CONCURRENT_KERNELS + ", 1",
    DeviceAttribute.ASYNC_ENGINE_COUNT + ", 3",
    DeviceAttribute.UNIFIED_ADDRESSING + ", 1",
    DeviceAttribute.COMPUTE_CAPABILITY_MAJOR + ", 9",
    DeviceAttribute.COMPUTE_CAPABILITY_MINOR + ", 0",
    DeviceAttribute.MAX_SHARED_MEMORY_PER_BLOCK_OPTIN + ", 232448",
    DeviceAttribute.MEMORY_POOLS_SUPPORTED + ", 1",
  })
  void deviceAttributesAreThoseMeasuredOnTheH200(int attribute, int expected) {
    withDriver(d -> assertEquals(expected, d.deviceGetAttribute(attribute, d.deviceGet(0))));
  }

  @Test
  void unknownDeviceAttributeReturnsInvalidValue() {
    withDriver(d -> assertStatus(1, () -> d.deviceGetAttribute(100000, d.deviceGet(0))));
  }

  @Test
  void deviceTotalMemIsTheConfiguredMemorySize() {
    withDriver(
        Simulator.builder().deviceMemoryBytes(64L << 20),
        d -> assertEquals(64L << 20, d.deviceTotalMem(d.deviceGet(0))));
  }

  @Test
  void primaryCtxRetainTwiceReturnsTheSameHandleAndDoesNotMakeItCurrent() {
    withDriver(
        d -> {
          CuContext first = d.devicePrimaryCtxRetain(d.deviceGet(0));
          CuContext second = d.devicePrimaryCtxRetain(d.deviceGet(0));
          assertEquals(first, second);
          assertNull(d.ctxGetCurrent());
        });
  }

  @Test
  void primaryCtxRetainOfInvalidDeviceReturnsInvalidDevice() {
    withDriver(d -> assertStatus(101, () -> d.devicePrimaryCtxRetain(7)));
  }

  @Test
  void primaryCtxReleaseBeforeAnyRetainReturnsInvalidContext() {
    withDriver(d -> assertStatus(201, () -> d.devicePrimaryCtxRelease(d.deviceGet(0))));
  }

  @Test
  void ctxGetCurrentWithNothingBoundIsNull() {
    withDriver(d -> assertNull(d.ctxGetCurrent()));
  }

  @Test
  void ctxSetCurrentBindsTheContextToTheCallingThreadOnly() {
    withDriver(
        d -> {
          CuContext ctx = d.devicePrimaryCtxRetain(d.deviceGet(0));
          d.ctxSetCurrent(ctx);
          assertEquals(ctx, d.ctxGetCurrent());
          Object[] seen = new Object[1];
          Thread other = Thread.ofPlatform().start(() -> seen[0] = d.ctxGetCurrent());
          try {
            other.join(5000);
          } catch (InterruptedException e) {
            throw new AssertionError(e);
          }
          assertNull(seen[0], "another thread has no current context");
          assertNotNull(d.ctxGetCurrent());
        });
  }

  @Test
  void ctxSetCurrentNullUnbinds() {
    withDriver(
        d -> {
          CuContext ctx = d.devicePrimaryCtxRetain(d.deviceGet(0));
          d.ctxSetCurrent(ctx);
          d.ctxSetCurrent(null);
          assertNull(d.ctxGetCurrent());
          assertStatus(201, () -> d.streamCreate(StreamFlags.NON_BLOCKING));
        });
  }

  @Test
  void callsThatNeedACurrentContextReturnInvalidContextWithoutOne() {
    withDriver(
        d -> {
          d.devicePrimaryCtxRetain(d.deviceGet(0)); // retained but not current
          assertStatus(201, () -> d.streamCreate(StreamFlags.NON_BLOCKING));
          assertStatus(201, () -> d.memAlloc(256));
          assertStatus(201, () -> d.eventCreate(0));
          assertStatus(201, () -> d.moduleLoadData(ModuleImage.ptx(SimFixture.ptx("k"))));
          assertStatus(201, () -> d.memAllocHost(64));
          assertStatus(201, d::memGetInfo);
        });
  }
}
