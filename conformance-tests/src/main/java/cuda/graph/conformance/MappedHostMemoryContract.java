// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 the cuda-graph authors
package cuda.graph.conformance;

import static org.apiguardian.api.API.Status.EXPERIMENTAL;
import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import cuda.graph.CudaGraph;
import cuda.graph.DeviceBuffer;
import cuda.graph.ElementType;
import cuda.graph.MappedHostBuffer;
import cuda.graph.Stream;
import cuda.graph.conformance.kernels.ConformanceKernels;
import cuda.graph.conformance.kernels.MappedKernels;
import cuda.graph.spi.DriverCall;
import cuda.graph.spi.HandleKind;
import cuda.graph.testkit.CallLog;
import java.time.Duration;
import java.util.Arrays;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.apiguardian.api.API;
import org.jspecify.annotations.Nullable;
import org.junit.jupiter.api.Test;

/**
 * Host memory mapped into the device's address space ({@code Device.allocateMapped}): a kernel
 * writes it through the buffer's device view, eagerly and in a captured graph, and the host reads
 * the result without a copy; a kernel publishes values one at a time and the host reads each with
 * acquire reads while the launch has not completed; the memory is freed exactly once, after the
 * last kernel or graph that uses it, also when the buffer is closed while a kernel still writes it;
 * a closed buffer's view is refused before any driver call. Each session's ledger proves that
 * nothing leaked and no freed memory was touched.
 *
 * @since 0.1.0
 */
@API(status = EXPERIMENTAL, since = "0.1.0")
public interface MappedHostMemoryContract extends ConformanceContract {

  /** Elements of each buffer: more than one block of the kit's kernels. */
  int N = 100;

  /** How long the publishing kernel waits for each answer of the host before it gives up. */
  Duration KERNEL_PATIENCE = Duration.ofSeconds(20);

  /** How long the host waits for each value the kernel publishes. */
  Duration HOST_PATIENCE = Duration.ofSeconds(20);

  private static int[] filled(int value) {
    int[] a = new int[N];
    Arrays.fill(a, value);
    return a;
  }

  /** Spins on acquire reads until {@code control[PUBLISHED]} reaches {@code count}. */
  private static void awaitPublished(MappedHostBuffer<Integer> control, int count) {
    long deadline = System.nanoTime() + HOST_PATIENCE.toNanos();
    while (control.getIntAcquire(MappedKernels.PUBLISHED) < count) {
      if (System.nanoTime() > deadline) {
        throw new AssertionError(
            "the kernel did not publish value "
                + (count - 1)
                + " within "
                + HOST_PATIENCE
                + " (published: "
                + control.getIntAcquire(MappedKernels.PUBLISHED)
                + ", timed out: "
                + control.getIntAcquire(MappedKernels.TIMED_OUT)
                + ")");
      }
      Thread.onSpinWait();
    }
  }

  /** An eager kernel increments the view; the host reads the result from the same memory. */
  @Test
  default void aKernelIncrementsMappedMemoryAndTheHostReadsItWithoutACopy() {
    try (ConformanceSession s = openSession()) {
      MappedHostBuffer<Integer> counter = s.own(s.device().allocateMapped(ElementType.I32, N));
      counter.write(filled(41));
      CallLog calls = s.driver().calls();
      long copiesBefore = calls.count(DriverCall.MEMCPY_DTOH_ASYNC);

      ConformanceKernels.inc(counter.deviceView()).syncOn(s.stream());

      assertArrayEquals(filled(42), counter.toIntArray());
      assertEquals(
          copiesBefore, calls.count(DriverCall.MEMCPY_DTOH_ASYNC), "read without any copy");
    }
  }

  /** A graph that captured a launch on the view writes the host's memory on every replay. */
  @Test
  default void aCapturedGraphIncrementsMappedMemoryOnEveryReplay() {
    try (ConformanceSession s = openSession()) {
      Stream stream = s.stream();
      MappedHostBuffer<Integer> counter = s.own(s.device().allocateMapped(ElementType.I32, N));
      counter.write(new int[N]);
      try (CudaGraph<@Nullable Void> graph =
          CudaGraph.capture(
              stream,
              ConformanceKernels.inc(counter.deviceView())
                  .andThen(ConformanceKernels.inc(counter.deviceView().slice(0, N / 2))))) {
        for (int replay = 1; replay <= 3; replay++) {
          graph.launch().syncOn(stream);
          assertEquals(2 * replay, counter.getIntAcquire(0), "replay " + replay);
          assertEquals(replay, counter.getIntAcquire(N - 1), "replay " + replay);
        }
      }
    }
  }

  /** Copies and fills take the view as they take device memory, both ways. */
  @Test
  default void copiesAndFillsReachMappedMemoryThroughItsView() {
    try (ConformanceSession s = openSession()) {
      Stream stream = s.stream();
      MappedHostBuffer<Integer> mapped = s.own(s.device().allocateMapped(ElementType.I32, N));
      DeviceBuffer<Integer> device = s.own(DeviceBuffer.zeros(ElementType.I32, N).syncOn(stream));
      mapped.deviceView().fill(7).syncOn(stream);
      assertArrayEquals(filled(7), mapped.toIntArray());
      ConformanceKernels.inc(device).andThen(mapped.deviceView().copyFrom(device)).syncOn(stream);
      assertArrayEquals(filled(1), mapped.toIntArray());
      mapped.write(filled(9));
      device.copyFrom(mapped.deviceView()).syncOn(stream);
      assertArrayEquals(filled(9), device.toIntArray().syncOn(stream));
    }
  }

  /**
   * The kernel publishes each value after a system fence and waits for the host's answer, so it
   * cannot complete before the host has read every value: the host sees each one, with acquire
   * reads, while the launch is still running.
   *
   * @throws Exception if the launch fails or does not finish within the host's patience
   */
  @Test
  default void theHostReadsEachValueAKernelPublishesWhileTheKernelStillRuns() throws Exception {
    int n = 50;
    try (ConformanceSession s = openSession()) {
      MappedKernels.load(s.device());
      MappedHostBuffer<Integer> values = s.own(s.device().allocateMapped(ElementType.I32, n));
      MappedHostBuffer<Integer> control =
          s.own(s.device().allocateMapped(ElementType.I32, MappedKernels.CONTROL_LENGTH));
      control.write(new int[MappedKernels.CONTROL_LENGTH]);

      CompletableFuture<@Nullable Void> launch =
          MappedKernels.publishEach(values.deviceView(), control.deviceView(), KERNEL_PATIENCE)
              .asyncOn(s.stream());
      for (int i = 0; i < n; i++) {
        awaitPublished(control, i + 1);
        assertEquals(MappedKernels.published(i), values.getIntAcquire(i), "value " + i);
        assertFalse(launch.isDone(), "the launch completed before value " + i + " was answered");
        control.setIntRelease(MappedKernels.ACKNOWLEDGED, i + 1);
      }

      launch.get(HOST_PATIENCE.toSeconds(), TimeUnit.SECONDS);
      assertEquals(0, control.getIntAcquire(MappedKernels.TIMED_OUT), "the kernel never gave up");
      assertEquals(n, control.getIntAcquire(MappedKernels.PUBLISHED));
    }
  }

  /**
   * The buffer a running kernel writes is closed under it: the memory stays mapped until the kernel
   * is done, then is freed once. The session's instruments prove that nothing touched it after.
   *
   * @throws Exception if the launch fails or does not finish within the host's patience
   */
  @Test
  default void aBufferClosedWhileAKernelWritesItIsFreedOnlyAfterTheKernel() throws Exception {
    int n = 4;
    try (ConformanceSession s = openSession()) {
      MappedKernels.load(s.device());
      MappedHostBuffer<Integer> values = s.device().allocateMapped(ElementType.I32, n);
      MappedHostBuffer<Integer> control =
          s.own(s.device().allocateMapped(ElementType.I32, MappedKernels.CONTROL_LENGTH));
      control.write(new int[MappedKernels.CONTROL_LENGTH]);
      CallLog calls = s.driver().calls();
      long liveBefore = s.driver().ledger().live(HandleKind.HOST_MEMORY);
      long freesBefore = calls.count(DriverCall.MEM_FREE_HOST);

      DeviceBuffer<Integer> view = values.deviceView();
      CompletableFuture<@Nullable Void> launch =
          MappedKernels.publishEach(view, control.deviceView(), KERNEL_PATIENCE)
              .asyncOn(s.stream());
      awaitPublished(control, 1);
      values.close(); // the kernel is running, waiting for the host's first answer

      assertTrue(values.isClosed());
      assertTrue(view.isClosed(), "the view is closed with its buffer");
      assertEquals(liveBefore, s.driver().ledger().live(HandleKind.HOST_MEMORY), "still mapped");
      assertEquals(
          freesBefore, calls.count(DriverCall.MEM_FREE_HOST), "not freed under the kernel");
      for (int i = 0; i < n; i++) {
        awaitPublished(control, i + 1); // the kernel goes on writing the closed buffer's memory
        control.setIntRelease(MappedKernels.ACKNOWLEDGED, i + 1);
      }
      launch.get(HOST_PATIENCE.toSeconds(), TimeUnit.SECONDS);

      assertEquals(0, control.getIntAcquire(MappedKernels.TIMED_OUT));
      assertEquals(freesBefore + 1, calls.count(DriverCall.MEM_FREE_HOST), "freed once, after");
      assertEquals(liveBefore - 1, s.driver().ledger().live(HandleKind.HOST_MEMORY));
    }
  }

  /** A graph that captured the view keeps the memory after the buffer's close, until it closes. */
  @Test
  default void aGraphThatCapturedTheViewKeepsTheMemoryUntilTheGraphIsClosed() {
    try (ConformanceSession s = openSession()) {
      Stream stream = s.stream();
      MappedHostBuffer<Integer> counter = s.device().allocateMapped(ElementType.I32, N);
      counter.write(new int[N]);
      CallLog calls = s.driver().calls();
      long freesBefore = calls.count(DriverCall.MEM_FREE_HOST);
      CudaGraph<@Nullable Void> graph =
          CudaGraph.capture(stream, ConformanceKernels.inc(counter.deviceView()));
      counter.close();

      graph.launch().syncOn(stream);
      graph.launch().syncOn(stream);
      assertEquals(freesBefore, calls.count(DriverCall.MEM_FREE_HOST), "the graph holds it");

      graph.close();
      assertEquals(freesBefore + 1, calls.count(DriverCall.MEM_FREE_HOST), "freed with the graph");
    }
  }

  /**
   * Once the buffer is closed, ops on its view (or a slice of it) and its host accessors are
   * refused, saying what was closed: ops built on the view before any driver call, a launch that
   * names it before the launch reaches the driver.
   */
  @Test
  default void aClosedBuffersViewIsRefusedWithAMessageNamingTheClosedBuffer() {
    try (ConformanceSession s = openSession()) {
      MappedHostBuffer<Integer> counter = s.device().allocateMapped(ElementType.I32, N);
      DeviceBuffer<Integer> view = counter.deviceView();
      DeviceBuffer<Integer> slice = view.slice(10, 10);
      counter.close();
      assertTrue(view.isClosed(), "the view is closed with its buffer");
      CallLog calls = s.driver().calls();
      int callsBefore = calls.records().size();

      IllegalStateException fill = assertThrows(IllegalStateException.class, () -> slice.fill(1));
      assertTrue(fill.getMessage().contains("MappedHostBuffer"), fill.getMessage());
      assertThrows(IllegalStateException.class, view::toIntArray);
      assertThrows(IllegalStateException.class, () -> counter.getIntAcquire(0));
      assertThrows(IllegalStateException.class, counter::deviceView);
      assertEquals(callsBefore, calls.records().size(), "no driver call was made");

      long launchesBefore = calls.count(DriverCall.LAUNCH_KERNEL);
      IllegalStateException launch =
          assertThrows(
              IllegalStateException.class, () -> ConformanceKernels.inc(view).syncOn(s.stream()));
      assertTrue(launch.getMessage().contains("MappedHostBuffer"), launch.getMessage());
      assertEquals(launchesBefore, calls.count(DriverCall.LAUNCH_KERNEL), "nothing launched");
    }
  }

  /**
   * A buffer left open is freed by the platform's close (the session's ledger would report it
   * otherwise), and refused from then on instead of reading memory its context took with it.
   */
  @Test
  default void aBufferLeftOpenIsFreedByThePlatformsCloseAndRefusedAfter() {
    MappedHostBuffer<Integer> leftOpen;
    try (ConformanceSession s = openSession()) {
      leftOpen = s.device().allocateMapped(ElementType.I32, N);
      leftOpen.write(new int[N]);
      ConformanceKernels.inc(leftOpen.deviceView()).syncOn(s.stream());
      assertEquals(1, leftOpen.getIntAcquire(N - 1));
    }
    MappedHostBuffer<Integer> closedWithItsPlatform = leftOpen;
    assertFalse(closedWithItsPlatform.isClosed(), "the object stays as it was");
    IllegalStateException e =
        assertThrows(IllegalStateException.class, () -> closedWithItsPlatform.getIntAcquire(0));
    assertTrue(e.getMessage().contains("closed"), e.getMessage());
    assertThrows(IllegalStateException.class, closedWithItsPlatform::toIntArray);
    closedWithItsPlatform.close(); // nothing left to free, and no driver call on a closed platform
  }

  /** One allocation, one device pointer query and one free per buffer, however often closed. */
  @Test
  default void mappedMemoryIsAllocatedOnceAndFreedExactlyOnce() {
    try (ConformanceSession s = openSession()) {
      CallLog calls = s.driver().calls();
      long liveBefore = s.driver().ledger().live(HandleKind.HOST_MEMORY);
      long allocsBefore = calls.count(DriverCall.MEM_HOST_ALLOC);
      long queriesBefore = calls.count(DriverCall.MEM_HOST_GET_DEVICE_POINTER);
      long freesBefore = calls.count(DriverCall.MEM_FREE_HOST);

      MappedHostBuffer<Long> words = s.device().allocateMapped(ElementType.I64, 3);
      assertEquals(liveBefore + 1, s.driver().ledger().live(HandleKind.HOST_MEMORY));
      words.setLongRelease(2, Long.MAX_VALUE);
      assertEquals(Long.MAX_VALUE, words.getLongAcquire(2));
      words.close();
      words.close();

      assertEquals(allocsBefore + 1, calls.count(DriverCall.MEM_HOST_ALLOC));
      assertEquals(queriesBefore + 1, calls.count(DriverCall.MEM_HOST_GET_DEVICE_POINTER));
      assertEquals(freesBefore + 1, calls.count(DriverCall.MEM_FREE_HOST));
      assertEquals(liveBefore, s.driver().ledger().live(HandleKind.HOST_MEMORY));
    }
  }
}
