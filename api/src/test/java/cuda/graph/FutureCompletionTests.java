// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 the cuda-graph authors
package cuda.graph;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import cuda.graph.internal.runtime.CudaPlatformImpl;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * A future completes only after its GPU work. The simulator holds every queued operation back for
 * 20 ms, as a busy GPU would, so a future completed at submission, or a result read without
 * waiting, shows up as stale data. Where a test looks at the state "right after submission", a host
 * callback at the head of the work holds the stream until the test has looked, so a slow test
 * thread (a cold JVM) cannot make the check pass or fail by timing.
 */
class FutureCompletionTests {

  private static final Duration DELAY = Duration.ofMillis(20);

  private CudaPlatform platform;
  private Stream stream;

  @BeforeEach
  void openPlatform() {
    platform = SimulatorPlatforms.delayed(DELAY);
    stream = platform.defaultDevice().newStream();
  }

  @AfterEach
  void closePlatform() {
    stream.close();
    platform.close();
  }

  @Test
  void aFutureIsNotDoneRightAfterSubmissionAndItsBufferHoldsTheResultOnceComplete() {
    int n = 1000;
    int[] data = KernelFixtures.iota(n, 0);
    CountDownLatch gate = new CountDownLatch(1);
    CompletableFuture<DeviceBuffer<Integer>> future =
        KernelFixtures.hold(gate)
            .andThen(DeviceBuffer.fromArray(data))
            .then(
                b ->
                    KernelFixtures.ADD_ONE
                        .launch(LaunchConfig.covering(n, 256), n, b)
                        .map(ignored -> b))
            .asyncOn(stream);

    assertFalse(future.isDone(), "the copy and the kernel are still queued");
    assertFalse(stream.isIdle());
    gate.countDown();

    try (DeviceBuffer<Integer> buffer = future.join()) {
      assertTrue(stream.isIdle(), "the future completed only after the stream ran the work");
      assertArrayEquals(KernelFixtures.iota(n, 1), buffer.toIntArray().syncOn(stream));
    }
  }

  @Test
  void aHostBufferReadBeforeCompletionIsStaleAndAfterJoinHoldsTheNewData() {
    int n = 256;
    try (HostBuffer<Integer> host = platform.defaultDevice().allocateHost(ElementType.I32, n)) {
      int[] stale = new int[n];
      Arrays.fill(stale, -1);
      host.write(stale);

      CountDownLatch gate = new CountDownLatch(1);
      CompletableFuture<Void> future =
          DeviceBuffer.filled(ElementType.I32, n, 7)
              .then(b -> KernelFixtures.hold(gate).andThen(b.copyTo(host)).andThen(b.free()))
              .asyncOn(stream);

      assertArrayEquals(stale, host.toIntArray(), "the copy into the host buffer has not run yet");
      assertFalse(future.isDone());
      gate.countDown();

      future.join();

      int[] sevens = new int[n];
      Arrays.fill(sevens, 7);
      assertArrayEquals(sevens, host.toIntArray());
    }
  }

  @Test
  void syncOnReturnsOnlyAfterTheWorkSoAHostBufferIsReadyAtOnce() {
    try (HostBuffer<Float> host = platform.defaultDevice().allocateHost(ElementType.F32, 4)) {
      DeviceBuffer.fromArray(new float[] {1, 2, 3, 4})
          .then(b -> b.copyTo(host).andThen(b.free()))
          .syncOn(stream);

      assertArrayEquals(new float[] {1, 2, 3, 4}, host.toFloatArray());
      assertTrue(stream.isIdle());
    }
  }

  @Test
  void aDependentStageSeesTheCompletedWork() throws Exception {
    try (HostBuffer<Long> host = platform.defaultDevice().allocateHost(ElementType.I64, 3)) {
      CompletableFuture<long[]> read =
          DeviceBuffer.fromArray(new long[] {5, 6, 7})
              .then(b -> b.copyTo(host).andThen(b.free()))
              .asyncOn(stream)
              .thenApply(ignored -> host.toLongArray());

      assertArrayEquals(new long[] {5, 6, 7}, read.get(10, TimeUnit.SECONDS));
    }
  }

  @Test
  void manyFuturesOnSeveralStreamsEachCompleteWithTheirOwnResult() {
    List<Stream> streams = new ArrayList<>();
    List<CompletableFuture<int[]>> futures = new ArrayList<>();
    List<HostBuffer<Integer>> hosts = new ArrayList<>();
    try {
      for (int i = 0; i < 12; i++) {
        Stream s = platform.defaultDevice().newStream();
        streams.add(s);
        HostBuffer<Integer> host = platform.defaultDevice().allocateHost(ElementType.I32, 16);
        hosts.add(host);
        int value = i;
        futures.add(
            DeviceBuffer.filled(ElementType.I32, 16, value)
                .then(b -> b.copyTo(host).andThen(b.free()))
                .asyncOn(s)
                .thenApply(ignored -> host.toIntArray()));
      }
      for (int i = 0; i < futures.size(); i++) {
        int[] expected = new int[16];
        Arrays.fill(expected, i);
        assertArrayEquals(expected, futures.get(i).join());
      }
    } finally {
      hosts.forEach(HostBuffer::close);
      streams.forEach(Stream::close);
    }
  }

  @Test
  void aFutureOfWorkQueuedBehindSlowWorkWaitsForIt() {
    try (HostBuffer<Integer> host = platform.defaultDevice().allocateHost(ElementType.I32, 8);
        DeviceBuffer<Integer> buffer = DeviceBuffer.zeros(ElementType.I32, 8).syncOn(stream)) {
      // Five fills, then a copy to the host: the future of the copy is the last to complete, with
      // the last fill.
      CountDownLatch gate = new CountDownLatch(1);
      CompletableFuture<Void> fills =
          KernelFixtures.hold(gate)
              .andThen(buffer.fill(1))
              .andThen(buffer.fill(2))
              .andThen(buffer.fill(3))
              .andThen(buffer.fill(4))
              .asyncOn(stream);
      CompletableFuture<Void> copy = buffer.fill(5).andThen(buffer.copyTo(host)).asyncOn(stream);

      assertFalse(copy.isDone());
      gate.countDown();
      copy.join();

      assertTrue(fills.isDone(), "work queued earlier on the stream completed before");
      int[] fives = new int[8];
      Arrays.fill(fives, 5);
      assertArrayEquals(fives, host.toIntArray());
    }
  }

  @Test
  void closingThePlatformFailsTheFuturesStillPending() throws Exception {
    CudaPlatform closing = SimulatorPlatforms.delayed(DELAY);
    Stream s = closing.defaultDevice().newStream();
    CountDownLatch gate = new CountDownLatch(1);
    CompletableFuture<Void> first =
        KernelFixtures.hold(gate)
            .andThen(DeviceBuffer.zeros(ElementType.I32, 8))
            .then(DeviceBuffer::free)
            .asyncOn(s);
    Thread.sleep(20); // the completion thread takes the first one up before the second arrives
    CompletableFuture<Void> second =
        DeviceBuffer.zeros(ElementType.I32, 8).then(DeviceBuffer::free).asyncOn(s);
    // The work goes on only once the platform is closing.
    Thread.ofVirtual()
        .start(
            () -> {
              KernelFixtures.awaitTrue(
                  CudaPlatformImpl.of(closing)::isClosed,
                  Duration.ofSeconds(10),
                  "the platform is closing");
              gate.countDown();
            });

    closing.close();

    // Nobody waits forever: each future fails, saying why.
    KernelFixtures.awaitTrue(
        () -> first.isDone() && second.isDone(), Duration.ofSeconds(5), "both futures are done");
    for (CompletableFuture<Void> f : List.of(first, second)) {
      CompletionException e = assertThrows(CompletionException.class, f::join);
      assertInstanceOf(IllegalStateException.class, e.getCause());
      assertTrue(
          e.getCause().getMessage().contains("the platform was closed before this work completed"),
          e.getCause().getMessage());
    }
  }
}
