// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 the cuda-graph authors
package cuda.graph;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertSame;

import cuda.graph.internal.runtime.DeviceBufferImpl;
import cuda.graph.internal.runtime.StreamImpl;
import cuda.graph.simulator.SimulatedDriver;
import cuda.graph.simulator.Simulator;
import cuda.graph.spi.CuStream;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * The escape hatch to other CUDA libraries ({@code withRawStream}) and host callbacks in stream
 * order.
 */
class RawStreamAndHostCallbackTests {

  private SimulatedDriver simulator;
  private CudaPlatform platform;
  private Stream stream;

  @BeforeEach
  void openPlatform() {
    simulator = Simulator.builder().executionDelay(Duration.ofMillis(10)).build();
    platform = SimulatorPlatforms.over(simulator);
    stream = platform.defaultDevice().newStream();
  }

  @AfterEach
  void closePlatform() {
    stream.close();
    platform.close();
  }

  @Test
  void withRawStreamReceivesTheRawStreamAndTheDeviceAndReturnsItsResult() {
    AtomicReference<Device> seen = new AtomicReference<>();

    long raw =
        DeviceOp.withRawStream(
                (s, device) -> {
                  seen.set(device);
                  return s;
                })
            .syncOn(stream);

    assertEquals(StreamImpl.of(stream).handle().address(), raw);
    assertSame(platform.defaultDevice(), seen.get());
  }

  @Test
  void workAnotherLibraryEnqueuesOnTheRawStreamIsOrderedWithTheOp() {
    try (DeviceBuffer<Integer> buffer = DeviceBuffer.zeros(ElementType.I32, 8).syncOn(stream)) {
      // "Another library": the driver itself, called with the raw handle, after a fill queued by
      // the op before it.
      int[] result =
          buffer
              .fill(1)
              .andThen(
                  DeviceOp.withRawStream(
                      (s, device) -> {
                        simulator.memsetD32Async(
                            DeviceBufferImpl.of(buffer).address() + 8, 7, 2, new CuStream(s));
                        return null;
                      }))
              .andThen(buffer.toIntArray())
              .syncOn(stream);

      assertArrayEquals(new int[] {1, 1, 7, 7, 1, 1, 1, 1}, result);
    }
  }

  @Test
  void opsAfterARawFunctionThatChangedTheCurrentContextStillWork() {
    try (DeviceBuffer<Integer> buffer = DeviceBuffer.zeros(ElementType.I32, 4).syncOn(stream)) {
      int[] result =
          DeviceOp.withRawStream(
                  (s, device) -> {
                    simulator.ctxSetCurrent(null); // foreign code that leaves no context current
                    return null;
                  })
              .andThen(buffer.fill(5))
              .andThen(buffer.toIntArray())
              .syncOn(stream);

      assertArrayEquals(new int[] {5, 5, 5, 5}, result);
    }
  }

  @Test
  void hostCallbacksRunInStreamOrderAfterTheWorkBeforeThem() {
    List<String> events = Collections.synchronizedList(new ArrayList<>());
    CountDownLatch gate = new CountDownLatch(1);
    try (HostBuffer<Integer> host = platform.defaultDevice().allocateHost(ElementType.I32, 4);
        DeviceBuffer<Integer> buffer = DeviceBuffer.zeros(ElementType.I32, 4).syncOn(stream)) {
      CompletableFuture<Void> future =
          GraphNode.sequence(
                  DeviceOp.hostCallback(() -> events.add("first")),
                  KernelFixtures.hold(gate),
                  buffer.fill(9),
                  buffer.copyTo(host),
                  // Runs only after the copy: it sees the copied data.
                  DeviceOp.hostCallback(() -> events.add("second saw " + host.get(3))),
                  DeviceOp.hostCallback(() -> events.add("third")))
              .asyncOn(stream);
      KernelFixtures.awaitTrue(
          () -> events.contains("first"), Duration.ofSeconds(10), "the first callback ran");
      assertEquals(
          List.of("first"), events, "the later callbacks wait for the work queued before them");

      gate.countDown();
      future.join();

      assertEquals(List.of("first", "second saw 9", "third"), events);
    }
  }

  @Test
  void aThrowingHostCallbackIsDroppedAndTheStreamGoesOn() {
    List<String> events = Collections.synchronizedList(new ArrayList<>());

    DeviceOp.hostCallback(
            () -> {
              throw new IllegalStateException("dropped, as the driver drops it");
            })
        .andThen(DeviceOp.hostCallback(() -> events.add("after")))
        .syncOn(stream);

    assertEquals(List.of("after"), events);
  }

  @Test
  void syncOnReturnsOnlyAfterItsHostCallbacksRan() {
    List<String> events = Collections.synchronizedList(new ArrayList<>());

    DeviceOp.hostCallback(() -> events.add("ran")).syncOn(stream);

    assertEquals(List.of("ran"), events);
  }
}
