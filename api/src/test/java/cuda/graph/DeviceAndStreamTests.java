// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 the cuda-graph authors
package cuda.graph;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertNotSame;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import cuda.graph.internal.runtime.StreamImpl;
import cuda.graph.simulator.Simulator;
import cuda.graph.spi.DeviceAttribute;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.Test;

/**
 * Devices (identity, limits, several of them) and streams (closing, ownership by a device, the
 * current platform).
 */
class DeviceAndStreamTests {

  @Test
  void theSimulatedDeviceReportsItsNameComputeCapabilityAndMemory() {
    try (CudaPlatform platform = SimulatorPlatforms.simulator()) {
      Device device = platform.defaultDevice();

      assertEquals(0, device.ordinal());
      assertSame(platform, device.platform());
      assertEquals("CUDA simulator (NVIDIA H200 model)", device.name());
      assertEquals(new ComputeCapability(9, 0), device.computeCapability());
      assertEquals("9.0", device.computeCapability().toString());
      assertEquals("compute_90", device.computeCapability().virtualArchitecture());
      assertEquals(Simulator.DEFAULT_DEVICE_MEMORY, device.totalMemory());
      assertEquals(132, device.attribute(DeviceAttribute.MULTIPROCESSOR_COUNT));
      assertEquals(132, device.attribute(Device.Attribute.MULTIPROCESSOR_COUNT));
      assertEquals(1024, device.attribute(Device.Attribute.MAX_THREADS_PER_BLOCK));
      for (Device.Attribute a : Device.Attribute.values()) {
        assertEquals(device.attribute(a.cudaNumber()), device.attribute(a), a.name());
      }
      assertEquals("Device[0: CUDA simulator (NVIDIA H200 model), sm 9.0]", device.toString());
      assertEquals("simulator", platform.providerId());
      assertEquals(13000, platform.driverVersion(), "the simulator models a CUDA 13.0 driver");
      assertEquals(List.of(device), platform.devices());
    }
  }

  @Test
  void freeMemoryShrinksWithAnAllocationAndGrowsBackAfterItsFree() {
    long total = 64L << 20;
    try (CudaPlatform platform =
            SimulatorPlatforms.over(
                Simulator.builder().deviceMemoryBytes(total).deviceName("Test GPU").build());
        Stream stream = platform.defaultDevice().newStream()) {
      Device device = platform.defaultDevice();
      assertEquals("Test GPU", device.name());
      assertEquals(total, device.totalMemory());
      assertEquals(total, device.freeMemory());

      DeviceBuffer<Byte> buffer = DeviceBuffer.allocate(ElementType.I8, 1 << 20).syncOn(stream);
      assertEquals(total - (1 << 20), device.freeMemory());

      buffer.free().syncOn(stream);
      assertEquals(total, device.freeMemory());
    }
  }

  @Test
  void twoDevicesHaveTheirOwnOrdinalsStreamsAndBuffers() {
    try (CudaPlatform platform = SimulatorPlatforms.over(Simulator.builder().devices(2).build())) {
      assertEquals(2, platform.devices().size());
      Device first = platform.device(0);
      Device second = platform.device(1);
      assertNotSame(first, second);
      assertEquals(1, second.ordinal());
      assertSame(first, platform.defaultDevice());
      IllegalArgumentException none =
          assertThrows(IllegalArgumentException.class, () -> platform.device(2));
      assertTrue(none.getMessage().contains("sees 2 device(s)"), none.getMessage());

      try (Stream s0 = first.newStream();
          Stream s1 = second.newStream()) {
        assertSame(second, s1.device());
        DeviceBuffer<Integer> b0 = DeviceBuffer.fromArray(new int[] {1, 2}).syncOn(s0);
        DeviceBuffer<Integer> b1 = DeviceBuffer.fromArray(new int[] {3, 4}).syncOn(s1);
        assertSame(first, b0.device());
        assertSame(second, b1.device());
        KernelFixtures.ADD_ONE.launch(LaunchConfig.of(1, 2), 2, b1).syncOn(s1);
        assertArrayEquals(new int[] {1, 2}, b0.toIntArray().syncOn(s0));
        assertArrayEquals(new int[] {4, 5}, b1.toIntArray().syncOn(s1));
        b0.close();
        b1.close();
      }
    }
  }

  @Test
  void anOpOnAStreamOfAnotherDeviceWithABufferOfDevice0IsRejected() {
    try (CudaPlatform platform = SimulatorPlatforms.over(Simulator.builder().devices(2).build());
        Stream s0 = platform.device(0).newStream();
        Stream s1 = platform.device(1).newStream();
        DeviceBuffer<Integer> onDevice0 = DeviceBuffer.zeros(ElementType.I32, 4).syncOn(s0);
        CudaEvent eventOfDevice0 = platform.device(0).newEvent()) {
      for (DeviceOp<?> op :
          List.<DeviceOp<?>>of(
              onDevice0.fill(1),
              onDevice0.toIntArray(),
              onDevice0.duplicate(),
              KernelFixtures.ADD_ONE.launch(LaunchConfig.of(1, 4), 4, onDevice0))) {
        IllegalArgumentException e =
            assertThrows(IllegalArgumentException.class, () -> op.syncOn(s1), op::toString);
        assertTrue(
            e.getMessage().contains("lives on device 0 but the op executes on"), e.getMessage());
        assertTrue(
            e.getMessage()
                .contains("copy it to this device first or execute on a stream of its device"),
            e.getMessage());
      }
      IllegalArgumentException event =
          assertThrows(IllegalArgumentException.class, () -> eventOfDevice0.record().syncOn(s1));
      assertTrue(
          event.getMessage().contains("use it on a stream of its own device"), event.getMessage());

      // Nothing was written to the buffer, and on its own device it works.
      assertArrayEquals(new int[4], onDevice0.toIntArray().syncOn(s0));
    }
  }

  @Test
  void aClosedStreamIsRejectedWithAMessageNamingTheFix() {
    try (CudaPlatform platform = SimulatorPlatforms.simulator()) {
      Stream stream = platform.defaultDevice().newStream();
      assertFalse(stream.isClosed());

      stream.close();
      stream.close(); // idempotent

      assertTrue(stream.isClosed());
      assertTrue(stream.toString().endsWith(", closed]"), stream.toString());
      IllegalStateException e =
          assertThrows(IllegalStateException.class, () -> DeviceOp.value(1).syncOn(stream));
      assertTrue(
          e.getMessage()
              .contains("is closed; create a new one, or close it only after its last use"),
          e.getMessage());
      CompletionException async =
          assertThrows(CompletionException.class, () -> DeviceOp.value(1).asyncOn(stream).join());
      assertInstanceOf(IllegalStateException.class, async.getCause());
      assertThrows(IllegalStateException.class, stream::synchronize);
      assertThrows(IllegalStateException.class, stream::isIdle);
      assertFalse(DeviceOp.isExecuting(), "the failed execution released the lock");
    }
  }

  @Test
  void aDriverWithoutDevicesHasNoDefaultDevice() {
    try (CudaPlatform platform = SimulatorPlatforms.over(Simulator.builder().devices(0).build())) {
      assertEquals(List.of(), platform.devices());
      IllegalStateException e = assertThrows(IllegalStateException.class, platform::defaultDevice);
      assertTrue(e.getMessage().contains("sees no CUDA device"), e.getMessage());
    }
  }

  @Test
  void syncAndAsyncUseTheCurrentPlatform() {
    try (CudaPlatform platform = SimulatorPlatforms.simulator()) {
      AtomicReference<DeviceBuffer<Integer>> made = new AtomicReference<>();
      platform.runAsCurrent(
          () -> {
            assertSame(platform, CudaPlatform.current());
            made.set(DeviceBuffer.fromArray(new int[] {1, 2, 3}).sync());
            assertArrayEquals(new int[] {1, 2, 3}, made.get().toIntArray().sync());
          });
      assertSame(platform, made.get().device().platform());

      int[] viaFuture = platform.callAsCurrent(() -> made.get().toIntArray().async()).join();
      assertArrayEquals(new int[] {1, 2, 3}, viaFuture);
      made.get().close();
    }
  }

  @Test
  void syncUsesTheStreamTheSchedulingPolicyPicks() {
    try (CudaPlatform platform = SimulatorPlatforms.simulator();
        Stream mine = platform.defaultDevice().newStream()) {
      AtomicInteger picks = new AtomicInteger();
      platform.setSchedulingPolicy(
          device -> {
            picks.incrementAndGet();
            return mine;
          });
      AtomicReference<Long> rawStream = new AtomicReference<>();

      platform.runAsCurrent(
          () ->
              DeviceOp.withRawStream(
                      (raw, device) -> {
                        rawStream.set(raw);
                        return null;
                      })
                  .sync());

      assertEquals(1, picks.get());
      assertEquals(StreamImpl.of(mine).handle().address(), rawStream.get());
      assertThrows(IllegalArgumentException.class, () -> SchedulingPolicy.roundRobin(0));
    }
  }

  @Test
  void theDefaultPolicyCyclesThroughFourStreamsPerDevice() {
    try (CudaPlatform platform = SimulatorPlatforms.simulator()) {
      Device device = platform.defaultDevice();
      SchedulingPolicy policy = platform.schedulingPolicy();
      List<Stream> picked =
          List.of(
              policy.nextStream(device),
              policy.nextStream(device),
              policy.nextStream(device),
              policy.nextStream(device),
              policy.nextStream(device));
      assertEquals(4, picked.stream().distinct().count());
      assertSame(picked.get(0), picked.get(4));
    }
  }

  @Test
  void aStreamIsBusyWhileItsWorkIsQueuedAndIdleAfterSynchronize() {
    try (CudaPlatform platform = SimulatorPlatforms.delayed(Duration.ofMillis(20));
        Stream stream = platform.defaultDevice().newStream();
        DeviceBuffer<Integer> buffer = DeviceBuffer.zeros(ElementType.I32, 4).syncOn(stream)) {
      assertTrue(stream.isIdle());

      java.util.concurrent.CountDownLatch gate = new java.util.concurrent.CountDownLatch(1);
      CompletableFuture<Void> future =
          KernelFixtures.hold(gate).andThen(buffer.fill(3)).asyncOn(stream);
      assertFalse(stream.isIdle());
      gate.countDown();

      stream.synchronize();
      assertTrue(stream.isIdle());
      future.join();
      assertArrayEquals(new int[] {3, 3, 3, 3}, buffer.toIntArray().syncOn(stream));
    }
  }
}
