// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 the cuda-graph authors
package cuda.graph;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertDoesNotThrow;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import cuda.graph.internal.runtime.CudaPlatformImpl;
import cuda.graph.internal.runtime.DeviceBufferImpl;
import cuda.graph.internal.runtime.RefCount;
import cuda.graph.simulator.Simulator;
import cuda.graph.spi.CuResult;
import cuda.graph.spi.DriverCall;
import cuda.graph.spi.HandleKind;
import cuda.graph.testkit.InstrumentedDriver;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.lang.ref.WeakReference;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicReference;
import org.jspecify.annotations.Nullable;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.function.Executable;

/**
 * Host memory mapped into the device's address space ({@link Device#allocateMapped}): kernels write
 * it through its device view while they run and Java reads it at the same time, with acquire reads;
 * the view owns nothing, leases the buffer's memory like any buffer, and is refused once the buffer
 * is closed; the memory is freed exactly once, after its last use.
 */
class MappedHostBufferTests {

  private static final int N = 32;
  private static final LaunchConfig ONE_THREAD = LaunchConfig.of(1, 1);

  private InstrumentedDriver simulator;
  private CudaPlatform platform;
  private Device device;
  private Stream stream;

  @BeforeEach
  void openPlatform() {
    simulator = SimulatorPlatforms.instrumented(Simulator.create());
    platform = SimulatorPlatforms.over(simulator);
    device = platform.defaultDevice();
    stream = device.newStream();
    KernelFixtures.ADD_ONE.load(device);
    KernelFixtures.PUBLISH.load(device);
  }

  @AfterEach
  void closePlatform() {
    stream.close();
    platform.close();
    assertTrue(simulator.violations().isEmpty(), () -> simulator.violations().toString());
  }

  private long liveHostMemory() {
    return simulator.ledger().live(HandleKind.HOST_MEMORY);
  }

  @Test
  void aKernelWritesTheDeviceViewAndJavaReadsTheResultWithoutACopy() {
    try (MappedHostBuffer<Integer> mapped = device.allocateMapped(ElementType.I32, N)) {
      mapped.write(KernelFixtures.iota(N, 10));

      KernelFixtures.ADD_ONE.launch(ONE_THREAD, N, mapped.deviceView()).syncOn(stream);

      assertArrayEquals(KernelFixtures.iota(N, 11), mapped.toIntArray());
      assertEquals(0, simulator.calls().count(DriverCall.MEMCPY_DTOH_ASYNC), "no copy was made");
    }
  }

  @Test
  void theDeviceViewIsOneBufferOfTheSameElementsOnTheAllocatingDevice() {
    try (MappedHostBuffer<Long> mapped = device.allocateMapped(ElementType.I64, N)) {
      DeviceBuffer<Long> view = mapped.deviceView();
      assertSame(view, mapped.deviceView(), "one view per buffer");
      assertEquals(ElementType.I64, view.elementType());
      assertEquals(N, view.length());
      assertEquals(8L * N, view.byteSize());
      assertSame(device, view.device());
      assertSame(device, mapped.device());
      assertTrue(view.toString().contains("mapped"), view.toString());
    }
  }

  @Test
  void aCapturedGraphWritesTheDeviceViewOnEveryReplay() {
    try (MappedHostBuffer<Integer> mapped = device.allocateMapped(ElementType.I32, N)) {
      mapped.write(new int[N]);
      try (CudaGraph<@Nullable Void> graph =
          CudaGraph.capture(
              stream, KernelFixtures.ADD_ONE.launch(ONE_THREAD, N, mapped.deviceView()))) {
        for (int replay = 1; replay <= 3; replay++) {
          graph.launch().syncOn(stream);
          assertEquals(replay, mapped.getIntAcquire(N - 1), "after replay " + replay);
        }
      }
    }
  }

  @Test
  void copiesAndFillsUseTheDeviceViewLikeAnyDeviceBuffer() {
    try (MappedHostBuffer<Integer> mapped = device.allocateMapped(ElementType.I32, N);
        DeviceBuffer<Integer> source =
            DeviceBuffer.fromArray(KernelFixtures.iota(N, 3)).syncOn(stream)) {
      mapped.deviceView().copyFrom(source).syncOn(stream);
      assertArrayEquals(KernelFixtures.iota(N, 3), mapped.toIntArray());

      mapped.deviceView().slice(4, 2).fill(-1).syncOn(stream);
      assertEquals(-1, mapped.get(4L));
      assertEquals(-1, mapped.get(5L));
      assertEquals(9, mapped.get(6L));

      mapped.set(0L, 77);
      assertEquals(77, mapped.deviceView().toIntArray().syncOn(stream)[0]);
    }
  }

  /**
   * The kernel publishes one value at a time and waits for the host to acknowledge each, so it
   * cannot finish before the host has read every value: each read happens while the launch runs,
   * and sees the value because the kernel's writes reach the host's memory as it makes them.
   */
  @Test
  void theHostReadsEachValueAKernelPublishesWhileTheLaunchIsStillRunning() throws Exception {
    int n = 20;
    try (MappedHostBuffer<Integer> values = device.allocateMapped(ElementType.I32, n);
        MappedHostBuffer<Integer> control = device.allocateMapped(ElementType.I32, 4)) {
      control.write(new int[4]);
      CompletableFuture<@Nullable Void> launch =
          KernelFixtures.PUBLISH
              .launch(
                  ONE_THREAD,
                  n,
                  values.deviceView(),
                  control.deviceView(),
                  TimeUnit.SECONDS.toNanos(10))
              .asyncOn(stream);

      for (int i = 0; i < n; i++) {
        int count = i + 1;
        KernelFixtures.awaitTrue(
            () -> control.getIntAcquire(0) >= count,
            Duration.ofSeconds(10),
            "the kernel published value " + i);
        assertEquals(KernelFixtures.published(i), values.getIntAcquire(i), "value " + i);
        assertFalse(launch.isDone(), "the launch is still running when value " + i + " is read");
        control.setIntRelease(1, count);
      }

      launch.get(10, TimeUnit.SECONDS);
      assertEquals(0, control.getIntAcquire(2), "the kernel never timed out waiting for the host");
    }
  }

  @Test
  void longCountersArePublishedAndAcknowledgedThroughLongAccessors() {
    try (MappedHostBuffer<Long> words = device.allocateMapped(ElementType.I64, 2)) {
      words.setLongRelease(0, Long.MIN_VALUE + 5);
      assertEquals(Long.MIN_VALUE + 5, words.getLongAcquire(0));
      assertEquals(Long.MIN_VALUE + 5, words.get(0L));
    }
  }

  @Test
  void closingTheBufferRefusesNewWorkOnItsViewWithAClearMessage() {
    MappedHostBuffer<Integer> mapped = device.allocateMapped(ElementType.I32, N);
    DeviceBuffer<Integer> view = mapped.deviceView();
    DeviceBuffer<Integer> slice = view.slice(1, 3);
    mapped.close();

    assertTrue(mapped.isClosed());
    assertTrue(view.isClosed(), "the view is closed with the buffer it views");
    assertTrue(slice.isClosed());
    IllegalStateException launch =
        assertThrows(
            IllegalStateException.class,
            () -> KernelFixtures.ADD_ONE.launch(ONE_THREAD, N, view).syncOn(stream));
    assertTrue(launch.getMessage().contains("closed"), launch.getMessage());
    assertTrue(launch.getMessage().contains("MappedHostBuffer"), launch.getMessage());
    IllegalStateException fill = assertThrows(IllegalStateException.class, () -> slice.fill(1));
    assertTrue(fill.getMessage().contains("MappedHostBuffer"), fill.getMessage());
    IllegalStateException read =
        assertThrows(IllegalStateException.class, () -> mapped.getIntAcquire(0));
    assertTrue(read.getMessage().contains("allocateMapped"), read.getMessage());
    assertThrows(IllegalStateException.class, () -> mapped.setIntRelease(0, 1));
    assertThrows(IllegalStateException.class, mapped::deviceView);
    assertEquals(1, simulator.calls().count(DriverCall.MEM_FREE_HOST), "freed at the close");
  }

  @Test
  void theViewOwnsNothingClosingItDoesNothingAndItCannotBeFreed() {
    try (MappedHostBuffer<Integer> mapped = device.allocateMapped(ElementType.I32, N)) {
      DeviceBuffer<Integer> view = mapped.deviceView();
      view.close();
      assertFalse(view.isClosed(), "closing a view leaves the buffer's memory to the buffer");
      assertFalse(mapped.isClosed());
      IllegalArgumentException free = assertThrows(IllegalArgumentException.class, view::free);
      assertTrue(free.getMessage().contains("MappedHostBuffer"), free.getMessage());
      assertDoesNotThrow(() -> KernelFixtures.ADD_ONE.launch(ONE_THREAD, N, view).syncOn(stream));
    }
  }

  @Test
  void aBufferClosedWhileAKernelWritesItIsFreedOnlyAfterTheKernel() throws Exception {
    CountDownLatch gate = new CountDownLatch(1);
    try (DeviceBuffer<Integer> source =
        DeviceBuffer.fromArray(KernelFixtures.iota(N, 5)).syncOn(stream)) {
      long before = liveHostMemory(); // staging memory included
      MappedHostBuffer<Integer> mapped = device.allocateMapped(ElementType.I32, N);
      CompletableFuture<@Nullable Void> future =
          KernelFixtures.gatedCopy(gate, () -> {})
              .launch(ONE_THREAD, N, source, mapped.deviceView())
              .asyncOn(stream);
      mapped.close();

      assertEquals(before + 1, liveHostMemory(), "still mapped for the kernel that writes it");
      assertEquals(0, simulator.calls().count(DriverCall.MEM_FREE_HOST));

      gate.countDown();
      future.get(10, TimeUnit.SECONDS); // a write into freed memory would fail the stream
      assertEquals(before, liveHostMemory(), "freed once the kernel was done");
      assertEquals(1, simulator.calls().count(DriverCall.MEM_FREE_HOST), "freed exactly once");
    }
  }

  @Test
  void aGraphThatCapturedTheViewKeepsTheMemoryUntilTheGraphIsClosed() {
    MappedHostBuffer<Integer> mapped = device.allocateMapped(ElementType.I32, N);
    mapped.write(new int[N]);
    CudaGraph<@Nullable Void> graph =
        CudaGraph.capture(
            stream, KernelFixtures.ADD_ONE.launch(ONE_THREAD, N, mapped.deviceView()));
    mapped.close();

    graph.launch().syncOn(stream); // the graph's lease keeps the memory mapped
    assertEquals(0, simulator.calls().count(DriverCall.MEM_FREE_HOST));

    graph.close();
    assertEquals(1, simulator.calls().count(DriverCall.MEM_FREE_HOST), "freed with the graph");
  }

  @Test
  void allocationAndFreeAreEachOneDriverCallCountedInTheLedger() {
    long before = liveHostMemory();
    MappedHostBuffer<Integer> mapped = device.allocateMapped(ElementType.I32, N);
    assertEquals(before + 1, liveHostMemory());
    assertEquals(1, simulator.calls().count(DriverCall.MEM_HOST_ALLOC));
    assertEquals(1, simulator.calls().count(DriverCall.MEM_HOST_GET_DEVICE_POINTER));

    mapped.close();
    mapped.close();

    assertEquals(before, liveHostMemory());
    assertEquals(
        1, simulator.calls().count(DriverCall.MEM_FREE_HOST), "one free, however often closed");
  }

  @Test
  void aFailedFreeIsLoggedCountedAndNotRetried() {
    long before = liveHostMemory();
    long failedBefore = CudaPlatformImpl.of(platform).releases().failures();
    MappedHostBuffer<Integer> mapped = device.allocateMapped(ElementType.I32, N);
    simulator.faults().failNth(DriverCall.MEM_FREE_HOST, 1, CuResult.INVALID_VALUE);

    mapped.close();

    assertEquals(failedBefore + 1, CudaPlatformImpl.of(platform).releases().failures());
    assertEquals(1, simulator.calls().count(DriverCall.MEM_FREE_HOST), "tried once, never again");
    assertEquals(before + 1, liveHostMemory(), "given up, as every failed release is");
  }

  @Test
  void aFailedDevicePointerQueryFreesTheMemoryAndNamesTheCall() {
    long before = liveHostMemory();
    simulator.faults().failNth(DriverCall.MEM_HOST_GET_DEVICE_POINTER, 1, CuResult.INVALID_VALUE);

    CudaDriverError e =
        assertThrows(CudaDriverError.class, () -> device.allocateMapped(ElementType.I32, N));

    assertEquals("cuMemHostGetDevicePointer_v2", e.call());
    assertEquals(CuResult.INVALID_VALUE, e.code());
    assertTrue(e.getMessage().contains("allocateHost"), e.getMessage());
    assertEquals(before, liveHostMemory(), "the memory without a device pointer was freed");
  }

  @Test
  void aFailedAllocationSaysItWasHostMemory() {
    simulator.faults().failNth(DriverCall.MEM_HOST_ALLOC, 1, CuResult.OUT_OF_MEMORY);

    CudaDriverError e =
        assertThrows(CudaDriverError.class, () -> device.allocateMapped(ElementType.F32, N));

    assertEquals("cuMemHostAlloc", e.call());
    assertTrue(e.getMessage().contains("page-locked host memory"), e.getMessage());
    assertTrue(e.getMessage().contains(String.valueOf(4L * N)), e.getMessage());
  }

  @Test
  void acquireAndReleaseAccessorsCheckTheElementTypeAndTheIndex() {
    try (MappedHostBuffer<Float> floats = device.allocateMapped(ElementType.F32, N);
        MappedHostBuffer<Integer> ints = device.allocateMapped(ElementType.I32, N)) {
      IllegalArgumentException type =
          assertThrows(IllegalArgumentException.class, () -> floats.getIntAcquire(0));
      assertTrue(type.getMessage().contains("f32"), type.getMessage());
      assertThrows(IllegalArgumentException.class, () -> ints.getLongAcquire(0));
      assertThrows(IllegalArgumentException.class, () -> ints.setLongRelease(0, 1));
      IndexOutOfBoundsException index =
          assertThrows(IndexOutOfBoundsException.class, () -> ints.getIntAcquire(N));
      assertTrue(index.getMessage().contains(String.valueOf(N - 1)), index.getMessage());
      assertThrows(IndexOutOfBoundsException.class, () -> ints.setIntRelease(-1, 0));
    }
  }

  @Test
  void badLengthsAreRefusedBeforeAnyDriverCall() {
    assertThrows(NullPointerException.class, () -> device.allocateMapped(null, 4));
    IllegalArgumentException zero =
        assertThrows(
            IllegalArgumentException.class, () -> device.allocateMapped(ElementType.I32, 0));
    assertTrue(zero.getMessage().contains("at least one"), zero.getMessage());
    assertThrows(IllegalArgumentException.class, () -> device.allocateMapped(ElementType.I32, -3));
    IllegalArgumentException huge =
        assertThrows(
            IllegalArgumentException.class,
            () -> device.allocateMapped(ElementType.F64, Long.MAX_VALUE / 4));
    assertTrue(huge.getMessage().contains(String.valueOf(Long.MAX_VALUE / 4)), huge.getMessage());
    assertEquals(0, simulator.calls().count(DriverCall.MEM_HOST_ALLOC));
  }

  @Test
  void theViewIsRefusedOnAnotherDevicesStream() {
    InstrumentedDriver twoDevices =
        SimulatorPlatforms.instrumented(Simulator.builder().devices(2).build());
    try (CudaPlatform two = SimulatorPlatforms.over(twoDevices);
        Stream other = two.device(1).newStream();
        MappedHostBuffer<Integer> mapped = two.device(0).allocateMapped(ElementType.I32, N)) {
      KernelFixtures.ADD_ONE.load(two.device(1));
      IllegalArgumentException e =
          assertThrows(
              IllegalArgumentException.class,
              () ->
                  KernelFixtures.ADD_ONE.launch(ONE_THREAD, N, mapped.deviceView()).syncOn(other));
      assertTrue(e.getMessage().contains("device 0"), e.getMessage());
    }
  }

  @Test
  void aViewKeepsItsBufferReachableSoTheCleanerDoesNotFreeMemoryItStillViews() {
    AtomicReference<WeakReference<MappedHostBuffer<Integer>>> weak = new AtomicReference<>();
    DeviceBuffer<Integer> view = viewOfABufferNobodyKeeps(weak);
    RefCount lifetime = DeviceBufferImpl.of(view).lifetime();
    for (int i = 0; i < 5; i++) {
      System.gc();
    }

    MappedHostBuffer<Integer> buffer = weak.get().get();
    assertTrue(buffer != null, "the view holds the buffer, so the cleaner cannot close it");
    assertFalse(lifetime.isClosed());
    view.fill(3).syncOn(stream);
    assertEquals(3, buffer.getIntAcquire(N - 1));
    buffer.close();
  }

  /** Allocates a mapped buffer and returns its view only. */
  private DeviceBuffer<Integer> viewOfABufferNobodyKeeps(
      AtomicReference<WeakReference<MappedHostBuffer<Integer>>> weak) {
    MappedHostBuffer<Integer> mapped = device.allocateMapped(ElementType.I32, N);
    weak.set(new WeakReference<>(mapped));
    return mapped.deviceView();
  }

  @Test
  void aBufferLeftOpenIsFreedWhenThePlatformClosesAndRefusedFromThenOn() {
    InstrumentedDriver own = SimulatorPlatforms.instrumented(Simulator.create());
    CudaPlatform closing = SimulatorPlatforms.over(own);
    MappedHostBuffer<Integer> leftOpen = closing.defaultDevice().allocateMapped(ElementType.I32, N);
    MemorySegment segment = leftOpen.segment();

    closing.close();

    assertEquals(
        0, own.ledger().live(HandleKind.HOST_MEMORY), own.ledger().describeLive()::toString);
    assertEquals(1, own.calls().count(DriverCall.MEM_FREE_HOST), "freed by the close");
    IllegalStateException read =
        assertThrows(IllegalStateException.class, () -> leftOpen.getIntAcquire(0));
    assertTrue(read.getMessage().contains("platform"), read.getMessage());
    assertThrows(IllegalStateException.class, () -> segment.get(ValueLayout.JAVA_INT, 0));
    assertThrows(IllegalStateException.class, leftOpen::deviceView);
    leftOpen.close(); // later: nothing is freed twice
    assertEquals(1, own.calls().count(DriverCall.MEM_FREE_HOST));
    assertTrue(own.violations().isEmpty(), () -> own.violations().toString());
  }

  @Test
  void everyAccessorAfterThePlatformClosedIsRefusedNamingTheCallAndWhatToDo() {
    InstrumentedDriver own = SimulatorPlatforms.instrumented(Simulator.create());
    CudaPlatform closing = SimulatorPlatforms.over(own);
    MappedHostBuffer<Integer> leftOpen = closing.defaultDevice().allocateMapped(ElementType.I32, N);
    closing.close();

    Map<String, Executable> accessors = new LinkedHashMap<>();
    accessors.put("segment()", leftOpen::segment);
    accessors.put("get(long)", () -> leftOpen.get(0));
    accessors.put("set(long, T)", () -> leftOpen.set(0, 1));
    accessors.put("write(int[])", () -> leftOpen.write(new int[N]));
    accessors.put("toIntArray()", leftOpen::toIntArray);
    accessors.put("getIntAcquire(long)", () -> leftOpen.getIntAcquire(0));
    accessors.put("deviceView()", leftOpen::deviceView);
    accessors.forEach(
        (call, accessor) -> {
          String message = assertThrows(IllegalStateException.class, accessor).getMessage();
          assertTrue(message.startsWith(leftOpen + "." + call + ": "), () -> call + ": " + message);
          assertTrue(message.contains(closing + " is closed"), () -> call + ": " + message);
          assertTrue(
              message.contains("use a mapped buffer only before closing its platform"),
              () -> call + ": " + message);
        });
    assertTrue(own.violations().isEmpty(), () -> own.violations().toString());
  }

  @Test
  void aMappedBufferIsAHostBufferForCopies() {
    try (MappedHostBuffer<Integer> mapped = device.allocateMapped(ElementType.I32, N);
        DeviceBuffer<Integer> target = DeviceBuffer.zeros(ElementType.I32, N).syncOn(stream)) {
      HostBuffer<Integer> host = mapped; // copies take it where they take a pinned buffer
      host.write(KernelFixtures.iota(N, 2));
      target.copyFrom(host).syncOn(stream);
      assertArrayEquals(KernelFixtures.iota(N, 2), target.toIntArray().syncOn(stream));
    }
  }
}
