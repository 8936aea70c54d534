// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 the cuda-graph authors
package cuda.graph;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import cuda.graph.simulator.Simulator;
import cuda.graph.spi.HandleKind;
import cuda.graph.testkit.InstrumentedDriver;
import java.lang.ref.WeakReference;
import java.time.Duration;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * What the user drops without {@code close()}: a slice keeps its parent's memory, and streams and
 * events are released by the cleaner (docs/DESIGN.md, "Memory lifetime by leases"), checked on the
 * handle ledger.
 */
class DroppedHandleTests {

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
    stream.close();
    platform.close();
    assertTrue(driver.violations().isEmpty(), () -> "lifetime violations: " + driver.violations());
  }

  private long live(HandleKind kind) {
    return driver.ledger().live(kind);
  }

  /** Runs the collector until {@code condition} holds (at most {@code timeout}). */
  private static void collectUntil(java.util.function.BooleanSupplier condition, String what) {
    KernelFixtures.awaitTrue(
        () -> {
          System.gc();
          return condition.getAsBoolean();
        },
        Duration.ofSeconds(10),
        what);
  }

  // ---- slices

  /** {@return a slice of a buffer nobody else keeps} */
  private DeviceBuffer<Integer> sliceOfADroppedBuffer(
      WeakReference<?>[] parent, int from, int length) {
    DeviceBuffer<Integer> buffer = DeviceBuffer.fromArray(KernelFixtures.iota(8, 0)).syncOn(stream);
    parent[0] = new WeakReference<>(buffer);
    return buffer.slice(from, length);
  }

  @Test
  void aSliceKeepsTheMemoryOfAParentDroppedWithoutClose() throws InterruptedException {
    WeakReference<?>[] parent = new WeakReference<?>[1];
    DeviceBuffer<Integer> slice = sliceOfADroppedBuffer(parent, 2, 3);

    // Give the collector and the cleaner every chance to take the parent.
    for (int i = 0; i < 20 && !slice.isClosed(); i++) {
      System.gc();
      Thread.sleep(20);
    }

    assertFalse(slice.isClosed(), "the slice keeps its parent, so the cleaner left it alone");
    assertNotNull(parent[0].get(), "the parent is reachable through its slice");
    assertArrayEquals(new int[] {2, 3, 4}, slice.toIntArray().syncOn(stream));
    assertEquals(1, live(HandleKind.DEVICE_MEMORY));

    // A slice of a slice keeps the memory too; once every view is dropped, the cleaner frees it.
    DeviceBuffer<Integer> inner = slice.slice(1, 2);
    slice = null;
    System.gc();
    assertArrayEquals(new int[] {3, 4}, inner.toIntArray().syncOn(stream));
    inner = null;
    collectUntil(() -> live(HandleKind.DEVICE_MEMORY) == 0, "the cleaner freed the dropped buffer");
  }

  // ---- streams and events

  private void useAStreamAndDropIt() {
    Stream dropped = platform.defaultDevice().newStream();
    assertEquals(7, DeviceOp.value(7).syncOn(dropped));
  }

  private void useAnEventAndDropIt() {
    CudaEvent dropped = platform.defaultDevice().newEvent();
    dropped.record().syncOn(stream);
    dropped.synchronize();
  }

  @Test
  void aStreamDroppedWithoutCloseIsDestroyedByTheCleaner() {
    long before = live(HandleKind.STREAM);
    useAStreamAndDropIt();
    assertEquals(before + 1, live(HandleKind.STREAM));

    collectUntil(() -> live(HandleKind.STREAM) == before, "the cleaner destroyed the stream");
  }

  @Test
  void anEventDroppedWithoutCloseIsDestroyedByTheCleaner() {
    long before = live(HandleKind.EVENT);
    useAnEventAndDropIt();
    assertEquals(before + 1, live(HandleKind.EVENT));

    collectUntil(() -> live(HandleKind.EVENT) == before, "the cleaner destroyed the event");
  }

  @Test
  void aClosedStreamOrEventIsNotDestroyedTwiceByTheCleaner() {
    long streams = driver.ledger().destroyed(HandleKind.STREAM);
    long events = driver.ledger().destroyed(HandleKind.EVENT);
    closeAStreamAndAnEvent();
    assertEquals(streams + 1, driver.ledger().destroyed(HandleKind.STREAM));
    assertEquals(events + 1, driver.ledger().destroyed(HandleKind.EVENT));

    for (int i = 0; i < 5; i++) {
      System.gc();
    }
    // A second destroy would be a lifetime violation (checked after each test) and count twice.
    useAStreamAndDropIt(); // something the cleaner does release, to know it ran
    collectUntil(
        () -> driver.ledger().destroyed(HandleKind.STREAM) == streams + 2,
        "the cleaner destroyed the dropped stream");
    assertEquals(events + 1, driver.ledger().destroyed(HandleKind.EVENT));
  }

  private void closeAStreamAndAnEvent() {
    platform.defaultDevice().newStream().close();
    platform.defaultDevice().newEvent().close();
  }
}
