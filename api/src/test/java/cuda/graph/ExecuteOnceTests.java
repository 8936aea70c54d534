// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 the cuda-graph authors
package cuda.graph;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import cuda.graph.simulator.Simulator;
import cuda.graph.spi.CuResult;
import cuda.graph.spi.DriverCall;
import cuda.graph.testkit.InstrumentedDriver;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.Supplier;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * The Rust crate's execute_once.rs (inventory §5.4), ported: an atomic counter bumped in a {@code
 * then} shows how often an op's source ran. Rust's {@code unzip} is {@code shared()} plus {@code
 * map} projections here. Beyond the crate: errors are cached and reach every consumer, consumers on
 * other threads and streams are safe, and executing an op twice fails.
 */
class ExecuteOnceTests {

  record Pair<A, B>(A left, B right) {}

  record Triple<A, B, C>(A first, B second, C third) {}

  private InstrumentedDriver simulator;
  private CudaPlatform platform;
  private Stream stream;

  @BeforeEach
  void openPlatform() {
    simulator = SimulatorPlatforms.instrumented(Simulator.create());
    platform = SimulatorPlatforms.over(simulator);
    stream = platform.defaultDevice().newStream();
  }

  @AfterEach
  void closePlatform() {
    stream.close();
    platform.close();
  }

  /**
   * An op that bumps {@code counter} each time it executes and produces what {@code result}
   * supplies.
   */
  private static <T> DeviceOp<T> counted(AtomicInteger counter, Supplier<T> result) {
    return DeviceOp.value(0)
        .then(
            ignored -> {
              counter.incrementAndGet();
              return DeviceOp.value(result.get());
            });
  }

  @Test
  void sharedExecutesItsSourceOnceForTwoConsumersAndBothGetTheSameResult() {
    AtomicInteger runs = new AtomicInteger();
    DeviceOp<Object> shared = counted(runs, Object::new).shared();

    Object first = shared.syncOn(stream);
    Object second = shared.syncOn(stream);

    assertEquals(1, runs.get());
    assertSame(first, second);
  }

  @Test
  void sharedExecutesItsSourceOnceForFiveConsumersOnSeveralStreams() {
    AtomicInteger runs = new AtomicInteger();
    DeviceOp<Object> shared = counted(runs, Object::new).shared();
    List<Object> results = new ArrayList<>();
    try (Stream other = platform.defaultDevice().newStream()) {
      for (int i = 0; i < 5; i++) {
        results.add(shared.map(x -> x).syncOn(i % 2 == 0 ? stream : other));
      }
    }
    assertEquals(1, runs.get());
    for (Object r : results) {
      assertSame(results.getFirst(), r);
    }
  }

  @Test
  void sharedInsideZipExecutesOnceAndBothSidesGetTheSameObject() {
    AtomicInteger runs = new AtomicInteger();
    DeviceOp<Object> shared = counted(runs, Object::new).shared();

    Pair<Object, Object> both = DeviceOp.zip(shared, shared, Pair::new).syncOn(stream);

    assertEquals(1, runs.get());
    assertSame(both.left(), both.right());
  }

  @Test
  void sharedOfAPrecomputedValueReturnsThatVeryObject() {
    int[] precomputed = {1, 2, 3};
    DeviceOp<int[]> shared = DeviceOp.value(precomputed).shared();

    assertSame(precomputed, shared.syncOn(stream));
    assertSame(precomputed, shared.syncOn(stream));
  }

  @Test
  void unzipOfAPairExecutesTheSourceOnceLeftThenRight() {
    AtomicInteger runs = new AtomicInteger();
    DeviceOp<Pair<Integer, String>> pair = counted(runs, () -> new Pair<>(7, "seven")).shared();
    DeviceOp<Integer> left = pair.map(Pair::left);
    DeviceOp<String> right = pair.map(Pair::right);

    assertEquals(7, left.syncOn(stream));
    assertEquals("seven", right.syncOn(stream));
    assertEquals(1, runs.get());
  }

  @Test
  void unzipOfAPairExecutesTheSourceOnceRightBeforeLeft() {
    AtomicInteger runs = new AtomicInteger();
    DeviceOp<Pair<Integer, String>> pair = counted(runs, () -> new Pair<>(7, "seven")).shared();
    DeviceOp<Integer> left = pair.map(Pair::left);
    DeviceOp<String> right = pair.map(Pair::right);

    assertEquals("seven", right.syncOn(stream));
    assertEquals(7, left.syncOn(stream));
    assertEquals(1, runs.get());
  }

  @Test
  void unzipOfATripleExecutesTheSourceOnceInReversedOrder() {
    AtomicInteger runs = new AtomicInteger();
    DeviceOp<Triple<Integer, Integer, Integer>> triple =
        counted(runs, () -> new Triple<>(1, 2, 3)).shared();

    assertEquals(3, triple.map(Triple::third).syncOn(stream));
    assertEquals(2, triple.map(Triple::second).syncOn(stream));
    assertEquals(1, triple.map(Triple::first).syncOn(stream));
    assertEquals(1, runs.get());
  }

  @Test
  void zipOfThreeThenUnzipExecutesEachInputOnce() {
    AtomicInteger a = new AtomicInteger();
    AtomicInteger b = new AtomicInteger();
    AtomicInteger c = new AtomicInteger();
    DeviceOp<List<Integer>> zipped =
        DeviceOp.<Integer>zipAll(
                List.of(counted(a, () -> 1), counted(b, () -> 2), counted(c, () -> 3)))
            .shared();

    List<Integer> parts = new ArrayList<>();
    for (int i = 2; i >= 0; i--) {
      int index = i;
      parts.add(zipped.map(list -> list.get(index)).syncOn(stream));
    }

    assertEquals(List.of(3, 2, 1), parts);
    assertEquals(List.of(1, 1, 1), List.of(a.get(), b.get(), c.get()));
  }

  @Test
  void unzipThenRezipInOneOpExecutesTheSourceOnce() {
    AtomicInteger runs = new AtomicInteger();
    DeviceOp<Pair<Integer, Integer>> pair = counted(runs, () -> new Pair<>(3, 4)).shared();

    Pair<Integer, Integer> swapped =
        pair.map(Pair::right).zip(pair.map(Pair::left), Pair::new).syncOn(stream);

    assertEquals(new Pair<>(4, 3), swapped);
    assertEquals(1, runs.get());
  }

  @Test
  void diamondGraphExecutesEachLeafOnce() {
    AtomicInteger leftLeaf = new AtomicInteger();
    AtomicInteger rightLeaf = new AtomicInteger();
    DeviceOp<Pair<Integer, Integer>> top =
        DeviceOp.zip(counted(leftLeaf, () -> 1), counted(rightLeaf, () -> 2), Pair::new).shared();
    DeviceOp<Integer> left = top.map(Pair::left).then(x -> DeviceOp.value(x * 11));
    DeviceOp<Integer> right = top.map(Pair::right).then(x -> DeviceOp.value(x * 11));

    Pair<Integer, Integer> bottom = DeviceOp.zip(left, right, Pair::new).syncOn(stream);

    assertEquals(new Pair<>(11, 22), bottom);
    assertEquals(1, leftLeaf.get());
    assertEquals(1, rightLeaf.get());
  }

  @Test
  void anErrorOfASharedOpReachesEveryConsumerAndTheSourceRunsOnce() throws Exception {
    AtomicInteger runs = new AtomicInteger();
    IllegalStateException boom = new IllegalStateException("boom");
    DeviceOp<Integer> shared =
        DeviceOp.value(1)
            .<Integer>map(
                x -> {
                  runs.incrementAndGet();
                  throw boom;
                })
            .shared();

    // The Rust crate gave later consumers a generic "already taken" error; here each gets the real
    // one.
    assertSame(boom, assertThrows(IllegalStateException.class, () -> shared.syncOn(stream)));
    assertSame(
        boom,
        assertThrows(IllegalStateException.class, () -> shared.map(x -> x + 1).syncOn(stream)));
    CompletableFuture<Integer> future = shared.asyncOn(stream);
    ExecutionException failed =
        assertThrows(ExecutionException.class, () -> future.get(10, TimeUnit.SECONDS));
    assertSame(boom, failed.getCause());
    assertEquals(1, runs.get());
  }

  @Test
  void aDriverErrorOfASharedOpIsCachedTooAndTheDriverIsCalledOnce() {
    simulator.faults().failNth(DriverCall.MEM_ALLOC_ASYNC, 1, CuResult.OUT_OF_MEMORY);
    DeviceOp<DeviceBuffer<Integer>> shared = DeviceBuffer.zeros(ElementType.I32, 16).shared();
    long allocationsBefore = simulator.calls().count(DriverCall.MEM_ALLOC_ASYNC);

    CudaDriverError first = assertThrows(CudaDriverError.class, () -> shared.syncOn(stream));
    CudaDriverError second = assertThrows(CudaDriverError.class, () -> shared.syncOn(stream));

    assertSame(first, second);
    assertEquals(CuResult.OUT_OF_MEMORY, first.code());
    assertEquals(1, simulator.calls().count(DriverCall.MEM_ALLOC_ASYNC) - allocationsBefore);
  }

  @Test
  void aSharedOpConsumedFromEightThreadsAtOnceStillRunsOnce() throws Exception {
    AtomicInteger runs = new AtomicInteger();
    CountDownLatch consumersStarted = new CountDownLatch(8);
    DeviceOp<Object> shared =
        DeviceOp.value(0)
            .then(
                ignored -> {
                  runs.incrementAndGet();
                  try {
                    // Hold the producer so that the other consumers arrive while it runs.
                    consumersStarted.await(5, TimeUnit.SECONDS);
                    Thread.sleep(20);
                  } catch (InterruptedException e) {
                    throw new AssertionError(e);
                  }
                  return DeviceOp.value(new Object());
                })
            .shared();

    List<Object> results = new ArrayList<>();
    List<Stream> streams = new ArrayList<>();
    try (ExecutorService threads = Executors.newFixedThreadPool(8)) {
      List<Future<Object>> futures = new ArrayList<>();
      for (int i = 0; i < 8; i++) {
        Stream own = platform.defaultDevice().newStream();
        streams.add(own);
        futures.add(
            threads.submit(
                () -> {
                  consumersStarted.countDown();
                  return shared.map(x -> x).syncOn(own);
                }));
      }
      for (Future<Object> f : futures) {
        results.add(f.get(20, TimeUnit.SECONDS));
      }
    } finally {
      streams.forEach(Stream::close);
    }

    assertEquals(1, runs.get());
    for (Object r : results) {
      assertSame(results.getFirst(), r);
    }
  }

  @Test
  void consumersOnOtherStreamsAndThreadsSeeTheProducersGpuWork() throws Exception {
    // The Rust crate handed a cached result to a consumer on another stream without ordering it
    // after the
    // producer's GPU work. Here the producer's stream is slow (five fills of 10 ms each) and is
    // never waited for
    // on the host: a consumer that read the buffer without waiting for the producer's event would
    // see zeros or an
    // intermediate fill.
    try (CudaPlatform slow = SimulatorPlatforms.delayed(Duration.ofMillis(10));
        Stream producerStream = slow.defaultDevice().newStream()) {
      DeviceOp<DeviceBuffer<Integer>> shared =
          DeviceBuffer.zeros(ElementType.I32, 64)
              .then(
                  b ->
                      b.fill(1)
                          .andThen(b.fill(2))
                          .andThen(b.fill(3))
                          .andThen(b.fill(4))
                          .andThen(b.fill(5))
                          .map(ignored -> b))
              .shared();

      CompletableFuture<DeviceBuffer<Integer>> produced = shared.asyncOn(producerStream);
      List<Stream> streams = new ArrayList<>();
      List<int[]> seen = new ArrayList<>();
      try (ExecutorService threads = Executors.newFixedThreadPool(3)) {
        List<Future<int[]>> reads = new ArrayList<>();
        for (int i = 0; i < 3; i++) {
          Stream own = slow.defaultDevice().newStream();
          streams.add(own);
          reads.add(threads.submit(() -> shared.then(DeviceBuffer::toIntArray).syncOn(own)));
        }
        for (Future<int[]> read : reads) {
          seen.add(read.get(20, TimeUnit.SECONDS));
        }
      } finally {
        streams.forEach(Stream::close);
      }

      int[] fives = new int[64];
      Arrays.fill(fives, 5);
      for (int[] s : seen) {
        assertArrayEquals(fives, s);
      }
      produced.join().close();
    }
  }

  @Test
  void anOpExecutedTwiceFailsWithIllegalStateException() {
    DeviceOp<Integer> op = DeviceOp.value(1).map(x -> x + 1);
    assertEquals(2, op.syncOn(stream));

    IllegalStateException again =
        assertThrows(IllegalStateException.class, () -> op.syncOn(stream));
    assertTrue(again.getMessage().contains("already executed"), again.getMessage());
    assertTrue(again.getMessage().contains("shared()"), again.getMessage());
    CompletionException asyncAgain =
        assertThrows(CompletionException.class, () -> op.asyncOn(stream).join());
    assertInstanceOf(IllegalStateException.class, asyncAgain.getCause());
  }

  @Test
  void everyKindOfOpRefusesASecondExecution() {
    DeviceBuffer<Integer> buffer = DeviceBuffer.zeros(ElementType.I32, 8).syncOn(stream);
    try (CudaEvent event = platform.defaultDevice().newEvent()) {
      DeviceBuffer<Integer> other = DeviceBuffer.zeros(ElementType.I32, 8).syncOn(stream);
      // One of each op kind the executor's switch knows (graph launches come with graphs).
      List<DeviceOp<?>> ops =
          List.of(
              DeviceOp.value(1), // ValueOp
              DeviceOp.value(1).map(x -> x), // NodeMapOp
              DeviceOp.withRawStream((raw, device) -> 1).map(x -> x), // MapOp
              DeviceOp.withRawStream((raw, device) -> 1).then(DeviceOp::value), // ThenOp
              DeviceOp.value(1).thenNode(DeviceOp::value), // NodeThenOp
              DeviceOp.zip(
                  DeviceOp.withRawStream((raw, device) -> 1),
                  DeviceOp.value(2),
                  Integer::sum), // ZipOp
              DeviceOp.value(1).zip(DeviceOp.value(2), Integer::sum), // NodeZipOp
              DeviceOp.zipAll(List.of(DeviceOp.value(1))), // ZipAllOp
              DeviceBuffer.allocate(ElementType.I32, 4), // AllocateOp
              buffer.duplicate(), // AllocateOp from a buffer
              buffer.fill(3), // FillOp
              buffer.copyFrom(other), // CopyOp
              buffer.write(new int[8]), // ArrayWriteOp
              buffer.toIntArray(), // ArrayReadOp
              KernelFixtures.ADD_ONE.launch(LaunchConfig.of(1, 1), 8, buffer), // KernelLaunchOp
              DeviceOp.hostCallback(() -> {}), // HostCallbackOp
              DeviceOp.withRawStream((raw, device) -> raw), // RawStreamOp
              event.record(), // EventRecordOp
              event.waitFor(), // EventWaitOp
              other.free()); // FreeOp
      for (DeviceOp<?> op : ops) {
        Object first = op.syncOn(stream);
        if (first instanceof DeviceBuffer<?> b) {
          b.close();
        }
        IllegalStateException again =
            assertThrows(IllegalStateException.class, () -> op.syncOn(stream), op::toString);
        assertTrue(again.getMessage().contains("already executed"), again.getMessage());
      }
    } finally {
      buffer.close();
    }
  }

  @Test
  void theSameNonSharedOpTwiceInOneTreeFailsButItsSharedFormWorks() {
    DeviceOp<Integer> plain = DeviceOp.value(2);
    assertThrows(
        IllegalStateException.class, () -> DeviceOp.zip(plain, plain, Integer::sum).syncOn(stream));

    DeviceOp<Integer> shared = DeviceOp.value(2).shared();
    assertEquals(4, DeviceOp.zip(shared, shared, Integer::sum).syncOn(stream));
  }
}
