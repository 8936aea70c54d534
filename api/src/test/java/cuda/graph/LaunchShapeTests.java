// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 the cuda-graph authors
package cuda.graph;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import cuda.graph.simulator.Simulator;
import cuda.graph.spi.DeviceAttribute;
import cuda.graph.spi.DriverCall;
import cuda.graph.spi.HandleKind;
import cuda.graph.spi.support.ForwardingCudaDriver;
import cuda.graph.testkit.InstrumentedDriver;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * Launch shapes: {@link LaunchConfig}'s factories refuse what does not fit, and a shape the device
 * cannot run is refused against the device's own limits before the driver sees it, with one message
 * naming the limit and the value, on every provider (the real driver answers only
 * "CUDA_ERROR_INVALID_VALUE (1): invalid argument").
 */
class LaunchShapeTests {

  private InstrumentedDriver driver;
  private CudaPlatform platform;
  private Stream stream;

  @BeforeEach
  void openPlatform() {
    driver = SimulatorPlatforms.instrumented(Simulator.create());
    platform = SimulatorPlatforms.over(driver);
    stream = platform.defaultDevice().newStream();
  }

  @AfterEach
  void closePlatform() {
    assertEquals(
        0,
        driver.ledger().live(HandleKind.DEVICE_MEMORY),
        () -> driver.ledger().describeLive().toString());
    stream.close();
    platform.close();
    assertTrue(driver.violations().isEmpty(), () -> "lifetime violations: " + driver.violations());
  }

  // ---- defect 4: LaunchConfig.covering

  @Test
  void coveringRefusesAGridThatDoesNotFitInsteadOfOverflowing() {
    for (long[] bad :
        new long[][] {
          {Long.MAX_VALUE, 256},
          {Long.MAX_VALUE, Integer.MAX_VALUE},
          {Long.MAX_VALUE - 1, 1},
          {(long) Integer.MAX_VALUE * 256 + 1, 256},
          {(long) Integer.MAX_VALUE + 1, 1}
        }) {
      IllegalArgumentException e =
          assertThrows(
              IllegalArgumentException.class,
              () -> LaunchConfig.covering(bad[0], (int) bad[1]),
              () -> "covering(" + bad[0] + ", " + bad[1] + ")");
      assertTrue(e.getMessage().contains(String.valueOf(bad[0])), e.getMessage());
      assertTrue(e.getMessage().contains("bigger blocks"), e.getMessage());
    }
    assertEquals(
        Dim3.of(Integer.MAX_VALUE),
        LaunchConfig.covering((long) Integer.MAX_VALUE * 256, 256).grid(),
        "the largest grid still fits");
    assertEquals(Dim3.of(1), LaunchConfig.covering(1, 256).grid());
    assertEquals(Dim3.of(1), LaunchConfig.covering(256, 256).grid());
    assertEquals(Dim3.of(2), LaunchConfig.covering(257, 256).grid());
    assertEquals(Dim3.of(Integer.MAX_VALUE), LaunchConfig.covering(Integer.MAX_VALUE, 1).grid());
    assertThrows(IllegalArgumentException.class, () -> LaunchConfig.covering(0, 1));
    assertThrows(IllegalArgumentException.class, () -> LaunchConfig.covering(1, 0));
    assertThrows(IllegalArgumentException.class, () -> LaunchConfig.covering(-1, 1));
  }

  @Test
  void theOtherFactoriesRefuseBadShapesNamingThem() {
    IllegalArgumentException e =
        assertThrows(IllegalArgumentException.class, () -> LaunchConfig.of(0, 32));
    assertTrue(e.getMessage().contains("(0, 1, 1)"), e.getMessage());
    assertThrows(IllegalArgumentException.class, () -> LaunchConfig.of(1, -1));
    assertThrows(IllegalArgumentException.class, () -> LaunchConfig.of(1, 1).withSharedMemory(-1));
    NullPointerException n =
        assertThrows(NullPointerException.class, () -> LaunchConfig.of(null, Dim3.of(1)));
    assertEquals("grid", n.getMessage());
    n = assertThrows(NullPointerException.class, () -> LaunchConfig.of(Dim3.of(1), null));
    assertEquals("block", n.getMessage());
    n =
        assertThrows(
            NullPointerException.class, () -> KernelFixtures.ADD_ONE.launch(null, 1, null));
    assertEquals("config", n.getMessage());
  }

  // ---- defect 9: shapes the device cannot run

  private static final int N = 4;

  private void assertRefusedBeforeTheDriver(LaunchConfig config, String... phrases) {
    try (DeviceBuffer<Integer> data = DeviceBuffer.zeros(ElementType.I32, N).syncOn(stream)) {
      long launches = driver.calls().count(DriverCall.LAUNCH_KERNEL);
      IllegalArgumentException e =
          assertThrows(
              IllegalArgumentException.class,
              () -> KernelFixtures.ADD_ONE.launch(config, N, data).syncOn(stream),
              config::toString);
      for (String phrase : phrases) {
        assertTrue(e.getMessage().contains(phrase), () -> "'" + phrase + "' in: " + e.getMessage());
      }
      assertEquals(
          launches, driver.calls().count(DriverCall.LAUNCH_KERNEL), "no launch reached the driver");
      // The device goes on working.
      KernelFixtures.ADD_ONE.launch(LaunchConfig.of(1, N), N, data).syncOn(stream);
      assertArrayEquals(new int[] {1, 1, 1, 1}, data.toIntArray().syncOn(stream));
    }
  }

  @Test
  void aBlockOfMoreThreadsThanTheDeviceRunsIsRefused() {
    assertRefusedBeforeTheDriver(
        LaunchConfig.of(Dim3.of(1), Dim3.of(512, 4)),
        "block (512, 4, 1)",
        "2048 threads",
        "1024",
        "MAX_THREADS_PER_BLOCK");
  }

  @Test
  void aBlockOverAPerDimensionLimitIsRefused() {
    assertRefusedBeforeTheDriver(
        LaunchConfig.of(Dim3.of(1), Dim3.of(2048)),
        "block (2048, 1, 1)",
        "2048",
        "1024",
        "MAX_BLOCK_DIM_X");
    assertRefusedBeforeTheDriver(
        LaunchConfig.of(Dim3.of(1), Dim3.of(1, 1, 65)),
        "block (1, 1, 65)",
        "65",
        "64",
        "MAX_BLOCK_DIM_Z");
    assertRefusedBeforeTheDriver(
        LaunchConfig.of(Dim3.of(1), Dim3.of(1, 1025)), "1025", "1024", "MAX_BLOCK_DIM_Y");
  }

  @Test
  void aGridOverTheYOrZLimitIsRefused() {
    assertRefusedBeforeTheDriver(
        LaunchConfig.of(Dim3.of(1, 65536), Dim3.of(32)),
        "grid (1, 65536, 1)",
        "65536",
        "65535",
        "MAX_GRID_DIM_Y");
    assertRefusedBeforeTheDriver(
        LaunchConfig.of(Dim3.of(1, 1, 70000), Dim3.of(32)),
        "grid (1, 1, 70000)",
        "70000",
        "65535",
        "MAX_GRID_DIM_Z");
  }

  @Test
  void moreDynamicSharedMemoryThanTheDeviceGivesABlockThatOptsInIsRefused() {
    assertRefusedBeforeTheDriver(
        LaunchConfig.of(1, N).withSharedMemory(232449),
        "232449 bytes",
        "232448",
        "MAX_SHARED_MEMORY_PER_BLOCK_OPTIN");
  }

  /** A kernel that takes no buffer, so nothing tells where it will run until it executes. */
  private static final Kernel NO_POINTERS =
      KernelImage.ptx(
              """
              .version 9.0
              .target sm_90
              .address_size 64
              .visible .entry noPointers(.param .u32 n) { ret; }
              """)
          .withReference("noPointers", call -> {})
          .kernel("noPointers", KernelParam.I32);

  @Test
  void aLaunchWithoutBufferArgumentsIsCheckedWhenItExecutes() {
    GraphNode<?> launch = NO_POINTERS.launch(LaunchConfig.of(1, 2048), 1);
    long launches = driver.calls().count(DriverCall.LAUNCH_KERNEL);
    IllegalArgumentException e =
        assertThrows(IllegalArgumentException.class, () -> launch.syncOn(stream));
    assertTrue(e.getMessage().contains("2048"), e.getMessage());
    assertTrue(e.getMessage().contains("MAX_BLOCK_DIM_X"), e.getMessage());
    assertEquals(launches, driver.calls().count(DriverCall.LAUNCH_KERNEL));
    NO_POINTERS.launch(LaunchConfig.of(1, 1024), 1).syncOn(stream);
  }

  @Test
  void theLargestShapesTheDeviceRunsStillLaunch() {
    try (DeviceBuffer<Integer> data = DeviceBuffer.zeros(ElementType.I32, N).syncOn(stream)) {
      KernelFixtures.ADD_ONE
          .launch(LaunchConfig.of(Dim3.of(1), Dim3.of(1024)), N, data)
          .syncOn(stream);
      KernelFixtures.ADD_ONE
          .launch(LaunchConfig.of(Dim3.of(1), Dim3.of(1, 16, 64)), N, data)
          .syncOn(stream);
      KernelFixtures.ADD_ONE
          .launch(LaunchConfig.of(Dim3.of(1, 65535, 65535), Dim3.of(1)), N, data)
          .syncOn(stream);
      KernelFixtures.ADD_ONE
          .launch(LaunchConfig.of(1, N).withSharedMemory(49152), N, data)
          .syncOn(stream);
      assertArrayEquals(new int[] {4, 4, 4, 4}, data.toIntArray().syncOn(stream));
    }
  }

  @Test
  void theLimitsAreTheDevicesOwnReadOnce() {
    // A provider whose device runs at most 256 threads per block.
    InstrumentedDriver small = SimulatorPlatforms.instrumented(Simulator.create());
    ForwardingCudaDriver smallBlocks =
        new ForwardingCudaDriver(small) {
          @Override
          public int deviceGetAttribute(int attribute, int device) {
            return attribute == DeviceAttribute.MAX_THREADS_PER_BLOCK
                ? 256
                : super.deviceGetAttribute(attribute, device);
          }
        };
    try (CudaPlatform other = SimulatorPlatforms.over(smallBlocks);
        Stream s = other.defaultDevice().newStream();
        DeviceBuffer<Integer> data = DeviceBuffer.zeros(ElementType.I32, N).syncOn(s)) {
      KernelFixtures.ADD_ONE.launch(LaunchConfig.of(1, 256), N, data).syncOn(s);
      long reads = small.calls().count(DriverCall.DEVICE_GET_ATTRIBUTE);
      IllegalArgumentException e =
          assertThrows(
              IllegalArgumentException.class,
              () -> KernelFixtures.ADD_ONE.launch(LaunchConfig.of(1, 512), N, data));
      assertTrue(e.getMessage().contains("512 threads"), e.getMessage());
      assertTrue(e.getMessage().contains("256"), e.getMessage());
      KernelFixtures.ADD_ONE.launch(LaunchConfig.of(1, 128), N, data).syncOn(s);
      assertEquals(
          reads, small.calls().count(DriverCall.DEVICE_GET_ATTRIBUTE), "read once per device");
      assertArrayEquals(new int[] {2, 2, 2, 2}, data.toIntArray().syncOn(s));
    }
  }
}
