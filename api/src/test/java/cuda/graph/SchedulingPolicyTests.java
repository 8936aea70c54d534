// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 the cuda-graph authors
package cuda.graph;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import cuda.graph.simulator.Simulator;
import cuda.graph.spi.DriverCall;
import cuda.graph.testkit.InstrumentedDriver;
import java.util.function.Function;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * A scheduling policy that answers badly (no stream, a stream of another device or platform, a
 * closed stream) makes {@code sync()} and {@code async()} fail with a message that names the
 * policy, before any work is enqueued.
 */
class SchedulingPolicyTests {

  private InstrumentedDriver driver;
  private CudaPlatform platform;

  @BeforeEach
  void openPlatform() {
    driver = SimulatorPlatforms.instrumented(Simulator.builder().devices(2).build());
    platform = SimulatorPlatforms.over(driver);
  }

  @AfterEach
  void closePlatform() {
    platform.close();
  }

  /** A policy that answers {@code pick(device)}, with a name. */
  private static SchedulingPolicy policy(String name, Function<Device, Stream> pick) {
    return new SchedulingPolicy() {
      @Override
      public Stream nextStream(Device device) {
        return pick.apply(device);
      }

      @Override
      public String toString() {
        return name;
      }
    };
  }

  private void assertSyncAndAsyncRefused(SchedulingPolicy policy, String... phrases) {
    platform.setSchedulingPolicy(policy);
    long memsets = driver.calls().count(DriverCall.MEMSET_D32_ASYNC);
    for (Function<DeviceOp<?>, Object> run :
        java.util.List.<Function<DeviceOp<?>, Object>>of(DeviceOp::sync, DeviceOp::async)) {
      IllegalStateException e =
          assertThrows(
              IllegalStateException.class,
              () ->
                  platform.runAsCurrent(
                      () -> run.apply(DeviceBuffer.filled(ElementType.I32, 4, 1))));
      assertTrue(e.getMessage().contains("scheduling policy " + policy), e.getMessage());
      for (String phrase : phrases) {
        assertTrue(e.getMessage().contains(phrase), () -> "'" + phrase + "' in " + e.getMessage());
      }
    }
    assertEquals(memsets, driver.calls().count(DriverCall.MEMSET_D32_ASYNC), "nothing ran");
  }

  @Test
  void aPolicyThatReturnsNoStreamIsNamed() {
    assertSyncAndAsyncRefused(policy("nullPolicy", d -> null), "returned null", "device 0");
  }

  @Test
  void aPolicyThatReturnsAStreamOfAnotherDeviceIsNamed() {
    try (Stream onDevice1 = platform.device(1).newStream()) {
      assertSyncAndAsyncRefused(
          policy("wrongDevice", d -> onDevice1), onDevice1.toString(), "device 1", "device 0");
    }
  }

  @Test
  void aPolicyThatReturnsAStreamOfAnotherPlatformIsNamed() {
    try (CudaPlatform other = SimulatorPlatforms.simulator();
        Stream foreign = other.defaultDevice().newStream()) {
      assertSyncAndAsyncRefused(policy("foreign", d -> foreign), "another platform");
    }
  }

  @Test
  void aPolicyThatReturnsAClosedStreamIsNamed() {
    Stream closed = platform.defaultDevice().newStream();
    closed.close();
    assertSyncAndAsyncRefused(policy("closedStreams", d -> closed), "closed");
  }

  @Test
  void aGoodPolicyStillWorksAfterABadOne() {
    assertSyncAndAsyncRefused(policy("nullPolicy", d -> null));
    try (Stream mine = platform.defaultDevice().newStream()) {
      platform.setSchedulingPolicy(policy("mine", d -> mine));
      int[] read =
          platform.callAsCurrent(
              () ->
                  DeviceBuffer.filled(ElementType.I32, 2, 3)
                      .then(b -> b.toIntArray().zip(b.free(), (a, x) -> a))
                      .sync());
      assertEquals(3, read[1]);
    }
  }
}
