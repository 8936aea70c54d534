// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 the cuda-graph authors
package cuda.graph;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import cuda.graph.internal.runtime.DeviceBufferImpl;
import cuda.graph.internal.runtime.RefCount;
import cuda.graph.simulator.Simulator;
import cuda.graph.spi.DriverCall;
import cuda.graph.spi.HandleKind;
import cuda.graph.testkit.InstrumentedDriver;
import cuda.graph.testkit.LoggedCall;
import java.lang.ref.WeakReference;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * Memory stays allocated while queued work uses it, however the buffer is released: {@code
 * close()}, the {@code free()} op, or the cleaner. The Rust crate freed on another stream without
 * ordering (inventory §7.3.7), so a kernel still queued could touch freed memory; the simulator
 * turns such an access into CUDA_ERROR_ILLEGAL_ADDRESS.
 *
 * <p>Streams lag by 20 ms, and the kernels here wait for a gate the test opens, so "still queued"
 * is certain rather than a matter of timing.
 */
class BufferLifetimeTests {

  private static final int N = 64;
  private static final LaunchConfig CONFIG = LaunchConfig.of(1, N);

  private InstrumentedDriver simulator;
  private CudaPlatform platform;
  private Stream stream;
  private final CountDownLatch gate = new CountDownLatch(1);
  private final CountDownLatch finished = new CountDownLatch(1);

  /**
   * The size of the call log when the gated kernel finished: the calls before it happened before
   * it.
   */
  private final AtomicInteger callsWhenKernelFinished = new AtomicInteger(-1);

  private Kernel gatedCopy;

  @BeforeEach
  void openPlatform() {
    simulator =
        SimulatorPlatforms.instrumented(
            Simulator.builder().executionDelay(Duration.ofMillis(20)).build());
    platform = SimulatorPlatforms.over(simulator);
    stream = platform.defaultDevice().newStream();
    gatedCopy =
        KernelFixtures.gatedCopy(
            gate,
            () -> {
              callsWhenKernelFinished.set(simulator.calls().records().size());
              finished.countDown();
            });
  }

  @AfterEach
  void closePlatform() {
    gate.countDown();
    stream.close();
    platform.close();
  }

  private long liveDeviceMemory() {
    return simulator.ledger().live(HandleKind.DEVICE_MEMORY);
  }

  /** {@return the position of the first {@code call} in the log, or -1} */
  private int firstIndexOf(DriverCall call) {
    List<LoggedCall> records = simulator.calls().records();
    for (int i = 0; i < records.size(); i++) {
      if (records.get(i).call() == call) {
        return i;
      }
    }
    return -1;
  }

  @Test
  void aBufferClosedWhileAQueuedKernelUsesItIsReleasedOnlyAfterTheKernelRan() throws Exception {
    DeviceBuffer<Integer> input =
        DeviceBuffer.fromArray(KernelFixtures.iota(N, 100)).syncOn(stream);
    DeviceBuffer<Integer> output = DeviceBuffer.zeros(ElementType.I32, N).syncOn(stream);
    assertEquals(2, liveDeviceMemory());
    simulator.calls().clear();

    CompletableFuture<Void> future = gatedCopy.launch(CONFIG, N, input, output).asyncOn(stream);
    input.close();

    assertTrue(input.isClosed());
    assertEquals(1, finished.getCount(), "the kernel has not run yet");
    assertEquals(2, liveDeviceMemory(), "closing did not free memory a queued kernel uses");
    assertEquals(-1, firstIndexOf(DriverCall.MEM_FREE_ASYNC));

    gate.countDown();
    future.get(10, TimeUnit.SECONDS);

    assertTrue(finished.await(10, TimeUnit.SECONDS));
    assertEquals(1, liveDeviceMemory(), "freed once the kernel completed");
    int free = firstIndexOf(DriverCall.MEM_FREE_ASYNC);
    assertTrue(
        free >= callsWhenKernelFinished.get(),
        "cuMemFreeAsync (call "
            + free
            + ") came after the kernel finished ("
            + callsWhenKernelFinished.get()
            + " calls)");
    // The kernel read valid memory: no illegal address, the output is right, the device still
    // works.
    assertArrayEquals(KernelFixtures.iota(N, 100), output.toIntArray().syncOn(stream));
    output.close();
  }

  @Test
  void aBufferClosedWhileAQueuedCopyReadsItIsReleasedOnlyAfterTheCopy() throws Exception {
    DeviceBuffer<Integer> source = DeviceBuffer.fromArray(KernelFixtures.iota(N, 7)).syncOn(stream);
    try (DeviceBuffer<Integer> target = DeviceBuffer.zeros(ElementType.I32, N).syncOn(stream)) {
      // The gated kernel holds the stream back; the copy is queued behind it.
      try (DeviceBuffer<Integer> scratch = DeviceBuffer.zeros(ElementType.I32, N).syncOn(stream)) {
        CompletableFuture<Void> future =
            gatedCopy
                .launch(CONFIG, N, scratch, scratch)
                .andThen(target.copyFrom(source))
                .asyncOn(stream);
        source.close();
        assertEquals(3, liveDeviceMemory());

        gate.countDown();
        future.get(10, TimeUnit.SECONDS);
      }
      KernelFixtures.awaitTrue(
          () -> liveDeviceMemory() == 1, Duration.ofSeconds(5), "source and scratch are freed");
      assertArrayEquals(KernelFixtures.iota(N, 7), target.toIntArray().syncOn(stream));
    }
  }

  @Test
  void aHostBufferClosedWhileAQueuedCopyWritesItIsFreedOnlyAfterTheCopy() throws Exception {
    try (DeviceBuffer<Integer> scratch = DeviceBuffer.zeros(ElementType.I32, N).syncOn(stream);
        DeviceBuffer<Integer> source =
            DeviceBuffer.fromArray(KernelFixtures.iota(N, 1)).syncOn(stream)) {
      long pinnedBefore =
          simulator.ledger().live(HandleKind.HOST_MEMORY); // including staging memory
      HostBuffer<Integer> host = platform.defaultDevice().allocateHost(ElementType.I32, N);
      CompletableFuture<Void> future =
          gatedCopy
              .launch(CONFIG, N, scratch, scratch)
              .andThen(source.copyTo(host))
              .asyncOn(stream);
      host.close();

      assertThrows(IllegalStateException.class, host::toIntArray, "the host may no longer read it");
      assertEquals(
          pinnedBefore + 1,
          simulator.ledger().live(HandleKind.HOST_MEMORY),
          "still pinned for the queued copy");

      gate.countDown();
      future.get(10, TimeUnit.SECONDS); // a copy into freed host memory would fail the stream
      assertEquals(pinnedBefore, simulator.ledger().live(HandleKind.HOST_MEMORY));
    }
  }

  @Test
  void theFreeOpReleasesTheBufferInStreamOrder() throws Exception {
    DeviceBuffer<Integer> input = DeviceBuffer.fromArray(KernelFixtures.iota(N, 3)).syncOn(stream);
    DeviceBuffer<Integer> output = DeviceBuffer.zeros(ElementType.I32, N).syncOn(stream);

    CompletableFuture<Void> future =
        gatedCopy.launch(CONFIG, N, input, output).andThen(input.free()).asyncOn(stream);

    assertTrue(input.isClosed(), "free() closed the buffer when it was submitted");
    assertEquals(
        2, liveDeviceMemory(), "but the memory waits for the kernel queued before the free");
    try (Stream other = platform.defaultDevice().newStream()) {
      assertThrows(
          IllegalStateException.class,
          () -> input.fill(0).syncOn(other),
          "a closed buffer takes no new work");
    }

    gate.countDown();
    future.get(10, TimeUnit.SECONDS);

    assertEquals(1, liveDeviceMemory());
    assertTrue(firstIndexOf(DriverCall.MEM_FREE_ASYNC) >= callsWhenKernelFinished.get());
    assertArrayEquals(KernelFixtures.iota(N, 3), output.toIntArray().syncOn(stream));
    assertThrows(
        IllegalStateException.class, () -> input.free().syncOn(stream), "freeing twice is refused");
    output.free().syncOn(stream);
    assertEquals(0, liveDeviceMemory());
  }

  @Test
  void aBufferDroppedWithoutCloseIsFreedByTheCleanerOnlyAfterItsQueuedWork() throws Exception {
    AtomicReference<WeakReference<DeviceBuffer<Integer>>> weak = new AtomicReference<>();
    AtomicReference<RefCount> lifetime = new AtomicReference<>();
    try (HostBuffer<Integer> host = platform.defaultDevice().allocateHost(ElementType.I32, N);
        DeviceBuffer<Integer> scratch = DeviceBuffer.zeros(ElementType.I32, N).syncOn(stream)) {
      CompletableFuture<Void> future =
          submitWorkOnABufferNobodyKeeps(weak, lifetime, scratch, host);
      assertEquals(2, liveDeviceMemory());

      // The buffer is unreachable: the cleaner closes it while its copy is still queued.
      KernelFixtures.awaitTrue(
          () -> {
            System.gc();
            return weak.get().get() == null && lifetime.get().isClosed();
          },
          Duration.ofSeconds(10),
          "the cleaner has closed the dropped buffer");
      assertEquals(1, finished.getCount(), "the queued work has not run");
      assertFalse(lifetime.get().isDestroyed());
      assertEquals(2, liveDeviceMemory(), "the cleaner did not free memory queued work uses");

      gate.countDown();
      future.get(10, TimeUnit.SECONDS);

      assertTrue(lifetime.get().isDestroyed());
      assertEquals(1, liveDeviceMemory());
      assertArrayEquals(
          KernelFixtures.iota(N, 40), host.toIntArray(), "the copy read valid memory");
    }
  }

  /**
   * Allocates a buffer inside an op, queues a copy from it behind the gated kernel, and keeps no
   * reference.
   */
  private CompletableFuture<Void> submitWorkOnABufferNobodyKeeps(
      AtomicReference<WeakReference<DeviceBuffer<Integer>>> weak,
      AtomicReference<RefCount> lifetime,
      DeviceBuffer<Integer> scratch,
      HostBuffer<Integer> host) {
    return DeviceBuffer.fromArray(KernelFixtures.iota(N, 40))
        .then(
            b -> {
              weak.set(new WeakReference<>(b));
              lifetime.set(DeviceBufferImpl.of(b).lifetime());
              return gatedCopy.launch(CONFIG, N, scratch, scratch).andThen(b.copyTo(host));
            })
        .asyncOn(stream);
  }

  @Test
  void closingAStreamWithQueuedWorkLetsThatWorkComplete() throws Exception {
    try (DeviceBuffer<Integer> input =
            DeviceBuffer.fromArray(KernelFixtures.iota(N, 9)).syncOn(stream);
        DeviceBuffer<Integer> output = DeviceBuffer.zeros(ElementType.I32, N).syncOn(stream)) {
      long streamsBefore = simulator.ledger().live(HandleKind.STREAM);
      Stream doomed = platform.defaultDevice().newStream();
      CompletableFuture<Void> future = gatedCopy.launch(CONFIG, N, input, output).asyncOn(doomed);
      doomed.close();

      assertTrue(doomed.isClosed());
      assertThrows(IllegalStateException.class, () -> DeviceOp.value(1).syncOn(doomed));

      gate.countDown();
      future.get(10, TimeUnit.SECONDS);

      assertArrayEquals(KernelFixtures.iota(N, 9), output.toIntArray().syncOn(stream));
      assertEquals(
          streamsBefore,
          simulator.ledger().live(HandleKind.STREAM),
          "the closed stream was destroyed");
    }
  }
}
