// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 the cuda-graph authors
package cuda.graph;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import cuda.graph.internal.runtime.DeviceBufferImpl;
import cuda.graph.internal.runtime.StreamImpl;
import cuda.graph.simulator.Simulator;
import cuda.graph.spi.CuStream;
import cuda.graph.spi.HandleKind;
import cuda.graph.testkit.InstrumentedDriver;
import java.util.List;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicReference;
import org.jspecify.annotations.Nullable;
import org.junit.jupiter.api.Test;

/**
 * A foreign node: work another CUDA library enqueues on the raw stream, on buffers the node
 * declares and leases, eagerly and recorded into graphs. "Another library" here is the simulated
 * driver itself, called with the raw handle and the handed-out address.
 */
class ForeignNodeTests {

  private static GraphNode<@Nullable Void> setMiddleToSeven(
      InstrumentedDriver driver, DeviceBuffer<Integer> buffer, AtomicInteger calls) {
    return GraphNode.foreign(
        "setMiddleToSeven",
        List.of(buffer),
        s -> {
          calls.incrementAndGet();
          driver.memsetD32Async(s.address(buffer) + 8, 7, 2, new CuStream(s.handle()));
        });
  }

  @Test
  void foreignWorkGetsTheRawStreamItsDeviceAndTheDeclaredAddressesAndIsOrderedWithTheOp() {
    InstrumentedDriver driver = SimulatorPlatforms.instrumented(Simulator.create());
    try (CudaPlatform platform = SimulatorPlatforms.over(driver);
        Stream stream = platform.defaultDevice().newStream();
        DeviceBuffer<Integer> buffer = DeviceBuffer.zeros(ElementType.I32, 8).syncOn(stream)) {
      AtomicReference<Device> device = new AtomicReference<>();
      AtomicReference<Long> handle = new AtomicReference<>();
      AtomicReference<Long> address = new AtomicReference<>();
      AtomicReference<Boolean> capturing = new AtomicReference<>();
      AtomicInteger calls = new AtomicInteger();

      int[] result =
          buffer
              .fill(1)
              .andThen(
                  GraphNode.foreign(
                      "inspect",
                      List.of(buffer),
                      s -> {
                        device.set(s.device());
                        handle.set(s.handle());
                        address.set(s.address(buffer));
                        capturing.set(s.isCapturing());
                      }))
              .andThen(setMiddleToSeven(driver, buffer, calls))
              .andThen(buffer.toIntArray())
              .syncOn(stream);

      assertArrayEquals(new int[] {1, 1, 7, 7, 1, 1, 1, 1}, result);
      assertSame(platform.defaultDevice(), device.get());
      assertEquals(StreamImpl.of(stream).handle().address(), handle.get());
      assertEquals(DeviceBufferImpl.of(buffer).address(), address.get());
      assertFalse(capturing.get());
      assertEquals(1, calls.get());
    }
  }

  @Test
  void aCapturedForeignNodeIsRecordedOnceAndReplayedByEveryLaunch() {
    InstrumentedDriver driver = SimulatorPlatforms.instrumented(Simulator.create());
    try (CudaPlatform platform = SimulatorPlatforms.over(driver);
        Stream stream = platform.defaultDevice().newStream();
        DeviceBuffer<Integer> buffer = DeviceBuffer.zeros(ElementType.I32, 8).syncOn(stream)) {
      AtomicInteger calls = new AtomicInteger();
      AtomicReference<Boolean> capturing = new AtomicReference<>();
      GraphNode<@Nullable Void> probe =
          GraphNode.foreign("probe", List.of(), s -> capturing.set(s.isCapturing()));

      try (CudaGraph<@Nullable Void> graph =
          CudaGraph.capture(
              stream, GraphNode.sequence(probe, setMiddleToSeven(driver, buffer, calls)))) {
        for (int replay = 0; replay < 3; replay++) {
          buffer.fill(0).syncOn(stream);
          graph.launch().syncOn(stream);
          assertArrayEquals(
              new int[] {0, 0, 7, 7, 0, 0, 0, 0},
              buffer.toIntArray().syncOn(stream),
              "replay " + replay + " reran what the work enqueued");
        }
      }
      assertEquals(1, calls.get(), "the work ran once, when it was captured");
      assertTrue(capturing.get());
    }
  }

  @Test
  @SuppressWarnings("try") // the platform is closed early on purpose, to count what it freed
  void aGraphKeepsTheForeignNodesBuffersAliveUntilItIsClosed() {
    InstrumentedDriver driver = SimulatorPlatforms.instrumented(Simulator.create());
    try (CudaPlatform platform = SimulatorPlatforms.over(driver);
        Stream stream = platform.defaultDevice().newStream()) {
      DeviceBuffer<Integer> buffer = DeviceBuffer.zeros(ElementType.I32, 8).syncOn(stream);
      CudaGraph<@Nullable Void> graph =
          CudaGraph.capture(stream, setMiddleToSeven(driver, buffer, new AtomicInteger()));
      buffer.close();

      graph.launch().syncOn(stream);
      assertEquals(1, driver.ledger().live(HandleKind.DEVICE_MEMORY), "the graph leases it");

      graph.close();
      stream.synchronize();
      platform.close();
      assertEquals(0, driver.ledger().live(HandleKind.DEVICE_MEMORY), "freed with the graph");
    }
  }

  @Test
  void aReleaseActionRunsWhenTheEagerWorkIsDoneOrWhenTheGraphIsDestroyed() {
    try (CudaPlatform platform = SimulatorPlatforms.simulator();
        Stream stream = platform.defaultDevice().newStream()) {
      AtomicInteger eagerReleases = new AtomicInteger();
      AtomicInteger graphReleases = new AtomicInteger();

      GraphNode.foreign("eager", List.of(), s -> s.onRelease(eagerReleases::incrementAndGet))
          .syncOn(stream);
      CudaGraph<@Nullable Void> graph =
          CudaGraph.capture(
              stream,
              GraphNode.foreign(
                  "captured", List.of(), s -> s.onRelease(graphReleases::incrementAndGet)));
      graph.launch().syncOn(stream);
      graph.launch().syncOn(stream);
      int beforeClose = graphReleases.get();
      graph.close();

      assertEquals(1, eagerReleases.get(), "released once its work was done");
      assertEquals(0, beforeClose, "a graph holds what its capture's node holds");
      assertEquals(1, graphReleases.get(), "released once, with the graph");
    }
  }

  @Test
  void anUndeclaredBufferHasNoAddressAndTheViewDiesWithTheCall() {
    try (CudaPlatform platform = SimulatorPlatforms.simulator();
        Stream stream = platform.defaultDevice().newStream();
        DeviceBuffer<Integer> declared = DeviceBuffer.zeros(ElementType.I32, 4).syncOn(stream);
        DeviceBuffer<Integer> other = DeviceBuffer.zeros(ElementType.I32, 4).syncOn(stream)) {
      AtomicReference<ForeignStream> kept = new AtomicReference<>();

      IllegalArgumentException undeclared =
          assertThrows(
              IllegalArgumentException.class,
              () ->
                  GraphNode.foreign("reader", List.of(declared), s -> s.address(other))
                      .syncOn(stream));
      GraphNode.foreign("keeper", List.of(declared), kept::set).syncOn(stream);

      assertTrue(
          undeclared.getMessage().contains("is not one of the buffers reader declared"),
          undeclared.getMessage());
      IllegalStateException late =
          assertThrows(IllegalStateException.class, () -> kept.get().address(declared));
      assertTrue(late.getMessage().contains("valid only during"), late.getMessage());
    }
  }

  @Test
  void aBufferOfAnotherDeviceIsRefusedBeforeTheWorkRuns() {
    try (CudaPlatform platform = SimulatorPlatforms.over(Simulator.builder().devices(2).build());
        Stream first = platform.device(0).newStream();
        Stream second = platform.device(1).newStream();
        DeviceBuffer<Integer> onSecond = DeviceBuffer.zeros(ElementType.I32, 4).syncOn(second)) {
      AtomicInteger calls = new AtomicInteger();

      IllegalArgumentException refused =
          assertThrows(
              IllegalArgumentException.class,
              () ->
                  GraphNode.foreign("work", List.of(onSecond), s -> calls.incrementAndGet())
                      .syncOn(first));

      assertEquals(0, calls.get());
      assertTrue(refused.getMessage().contains("lives on device 1"), refused.getMessage());
    }
  }

  @Test
  void aForeignNodeNeedsAName() {
    assertThrows(IllegalArgumentException.class, () -> GraphNode.foreign(" ", List.of(), s -> {}));
  }
}
