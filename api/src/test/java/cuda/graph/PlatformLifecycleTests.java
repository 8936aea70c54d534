// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 the cuda-graph authors
package cuda.graph;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import cuda.graph.simulator.SimulatedDriver;
import cuda.graph.simulator.Simulator;
import cuda.graph.spi.CuResult;
import cuda.graph.spi.DriverCall;
import cuda.graph.spi.HandleKind;
import cuda.graph.testkit.InstrumentedDriver;
import cuda.graph.testkit.LoggedCall;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import org.junit.jupiter.api.Test;

/**
 * What a platform owns is released: nothing a test opened and closed stays alive in the simulator's
 * handle ledger, and the platform's {@code close()} releases the contexts, modules and memory it
 * holds itself.
 */
class PlatformLifecycleTests {

  /** Uses every kind of object the API makes, closing each one. */
  private static void exerciseEverything(CudaPlatform platform) {
    Device device = platform.defaultDevice();
    try (Stream stream = device.newStream();
        Stream other = device.newStream();
        CudaEvent event = device.newEvent();
        HostBuffer<Integer> host = device.allocateHost(ElementType.I32, 64)) {
      DeviceBuffer<Integer> buffer =
          DeviceBuffer.fromArray(KernelFixtures.iota(64, 0)).syncOn(stream);
      DeviceOp<DeviceBuffer<Integer>> shared = buffer.duplicate().shared();
      KernelFixtures.ADD_ONE
          .launch(LaunchConfig.of(1, 64), 64, buffer)
          .andThen(event.record())
          .syncOn(stream);
      List<CompletableFuture<?>> futures = new ArrayList<>();
      futures.add(shared.then(b -> b.copyTo(host)).asyncOn(other));
      futures.add(event.waitFor().andThen(shared.then(DeviceBuffer::free)).asyncOn(other));
      futures.forEach(CompletableFuture::join);
      platform.runAsCurrent(
          () -> DeviceBuffer.zeros(ElementType.F64, 8).then(DeviceBuffer::free).sync());
      buffer.free().syncOn(stream);
      assertArrayEquals(
          KernelFixtures.iota(64, 1),
          host.toIntArray(),
          "the shared duplicate ran after the kernel");
    }
  }

  @Test
  void afterClosingEverythingAndThePlatformNoHandleIsLive() {
    InstrumentedDriver simulator = SimulatorPlatforms.instrumented(Simulator.create());
    CudaPlatform platform = SimulatorPlatforms.over(simulator);

    exerciseEverything(platform);
    assertEquals(
        0,
        simulator.ledger().live(HandleKind.DEVICE_MEMORY),
        "every buffer was freed before the platform closed");

    platform.close();
    platform.close(); // idempotent

    assertEquals(Map.of(), simulator.ledger().liveCounts());
    assertEquals(
        simulator.calls().count(DriverCall.DEVICE_PRIMARY_CTX_RETAIN),
        simulator.calls().count(DriverCall.DEVICE_PRIMARY_CTX_RELEASE));
    assertEquals(
        simulator.calls().count(DriverCall.MODULE_LOAD_DATA),
        simulator.calls().count(DriverCall.MODULE_UNLOAD),
        "modules are unloaded, not left to the context");
    assertEquals(
        simulator.calls().count(DriverCall.MEM_ALLOC_HOST),
        simulator.calls().count(DriverCall.MEM_FREE_HOST),
        "pinned memory, staging included, is freed: the context does not own it");
  }

  @Test
  void twoDevicesBothReleaseTheirContexts() {
    InstrumentedDriver simulator =
        SimulatorPlatforms.instrumented(Simulator.builder().devices(2).build());
    try (CudaPlatform platform = SimulatorPlatforms.over(simulator)) {
      for (Device device : platform.devices()) {
        try (Stream s = device.newStream()) {
          DeviceBuffer.fromArray(new int[] {1}).then(DeviceBuffer::free).syncOn(s);
        }
      }
      assertEquals(2, simulator.ledger().live(HandleKind.CONTEXT));
    }
    assertEquals(Map.of(), simulator.ledger().liveCounts());
  }

  @Test
  void releasingObjectsAfterThePlatformClosedCallsNoDriverEntry() {
    InstrumentedDriver simulator = SimulatorPlatforms.instrumented(Simulator.create());
    CudaPlatform platform = SimulatorPlatforms.over(simulator);
    Device device = platform.defaultDevice();
    Stream stream = device.newStream();
    CudaEvent event = device.newEvent();
    HostBuffer<Integer> host = device.allocateHost(ElementType.I32, 4);
    DeviceBuffer<Integer> buffer = DeviceBuffer.zeros(ElementType.I32, 4).syncOn(stream);
    platform.close();
    List<LoggedCall> atClose = simulator.calls().records();

    // The platform's close took everything down with the context; closing the objects now must not
    // bring a
    // context back to life (a re-retained primary context would be leaked for good on a real GPU).
    buffer.close();
    host.close();
    event.close();
    stream.close();

    assertEquals(atClose, simulator.calls().records());
  }

  @Test
  void aPlatformWhoseDeviceHitAStickyErrorStillClosesAndReleasesItsContext() {
    InstrumentedDriver simulator = SimulatorPlatforms.instrumented(Simulator.create());
    CudaPlatform platform = SimulatorPlatforms.over(simulator);
    Stream stream = platform.defaultDevice().newStream();
    DeviceBuffer<Integer> freed = DeviceBuffer.zeros(ElementType.I32, 4).syncOn(stream);
    freed.free().syncOn(stream); // the device now has a release stream
    DeviceBuffer<Integer> small = DeviceBuffer.zeros(ElementType.I32, 4).syncOn(stream);
    CudaDriverError sticky =
        assertThrows(
            CudaDriverError.class,
            () -> KernelFixtures.OUT_OF_BOUNDS.launch(LaunchConfig.of(1, 1), small).syncOn(stream));
    assertEquals(CuResult.ILLEGAL_ADDRESS, sticky.code());
    small.close();
    stream.close();

    platform.close();

    assertEquals(0, simulator.ledger().live(HandleKind.CONTEXT), "the context was released");
    assertEquals(0, simulator.ledger().live(HandleKind.HOST_MEMORY), "staging memory was freed");
  }

  @Test
  void closingTheSystemPlatformAtTheEndOfATryWithResourcesLeavesItWorking() {
    try (CudaPlatform system = CudaPlatform.system()) {
      assertEquals("simulator", system.providerId(), "the test module path holds the simulator");
    }
    CudaPlatform system = CudaPlatform.system();
    try (Stream stream = system.defaultDevice().newStream();
        DeviceBuffer<Integer> three = DeviceBuffer.filled(ElementType.I32, 1, 3).syncOn(stream)) {
      assertEquals(3, three.toIntArray().syncOn(stream)[0], "the platform still runs work");
    }
  }

  @Test
  void aFutureSubmittedToAClosedPlatformFails() {
    SimulatedDriver simulator = Simulator.builder().executionDelay(Duration.ofMillis(1)).build();
    CudaPlatform platform = SimulatorPlatforms.over(simulator);
    Stream stream = platform.defaultDevice().newStream();
    platform.close();

    CompletionException e =
        assertThrows(CompletionException.class, () -> DeviceOp.value(1).asyncOn(stream).join());
    assertInstanceOf(RuntimeException.class, e.getCause());
    assertTrue(e.getCause().getMessage() != null && !e.getCause().getMessage().isBlank());
  }
}
