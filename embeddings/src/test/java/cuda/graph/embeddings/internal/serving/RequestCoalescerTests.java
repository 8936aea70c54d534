// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 the cuda-graph authors
package cuda.graph.embeddings.internal.serving;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.function.Function;
import org.junit.jupiter.api.Test;

/**
 * Single requests from many threads become batches: requests that arrive while a batch runs join
 * the next one, up to the largest batch; a failing batch fails its own requests only; closing runs
 * what was submitted. Batches are made deterministic by holding the first one until the others are
 * queued, never by timing.
 */
class RequestCoalescerTests {

  private final List<List<Integer>> batches = Collections.synchronizedList(new ArrayList<>());
  private final CountDownLatch firstEntered = new CountDownLatch(1);
  private final CountDownLatch releaseFirst = new CountDownLatch(1);

  /** Squares, noting each batch; the first batch waits for {@link #releaseFirst}. */
  private final Function<List<Integer>, List<Integer>> squares =
      inputs -> {
        batches.add(List.copyOf(inputs));
        if (batches.size() == 1) {
          firstEntered.countDown();
          await(releaseFirst);
        }
        return inputs.stream().map(i -> i * i).toList();
      };

  private static void await(CountDownLatch latch) {
    try {
      latch.await();
    } catch (InterruptedException e) {
      throw new AssertionError(e);
    }
  }

  /** Waits until {@code n} requests are queued, failing after 10 s rather than hanging. */
  private static void awaitQueued(RequestCoalescer<?, ?> c, int n) {
    long deadline = System.nanoTime() + 10_000_000_000L;
    while (c.queued() < n) {
      if (System.nanoTime() > deadline) {
        throw new AssertionError(c.queued() + " requests queued after 10 s, not " + n);
      }
      Thread.onSpinWait();
    }
  }

  @Test
  void requestsQueuedWhileABatchRunsJoinTheNextBatchUpToTheLargest() throws Exception {
    try (RequestCoalescer<Integer, Integer> c =
        new RequestCoalescer<>("test", Duration.ZERO, 3, squares)) {
      CompletableFuture<Integer> first = c.submit(0);
      await(firstEntered);
      List<CompletableFuture<Integer>> queued = new ArrayList<>();
      for (int i = 1; i <= 7; i++) {
        queued.add(c.submit(i));
      }
      releaseFirst.countDown();
      assertEquals(0, first.get());
      for (int i = 1; i <= 7; i++) {
        assertEquals(i * i, queued.get(i - 1).get());
      }
      assertEquals(List.of(List.of(0), List.of(1, 2, 3), List.of(4, 5, 6), List.of(7)), batches);
    }
  }

  @Test
  void aFailingBatchFailsItsOwnRequestsAndTheNextBatchRuns() throws Exception {
    IllegalArgumentException bad = new IllegalArgumentException("no embedding for -1");
    try (RequestCoalescer<Integer, Integer> c =
        new RequestCoalescer<>(
            "test",
            Duration.ZERO,
            4,
            inputs -> {
              if (inputs.contains(-1)) {
                throw bad;
              }
              return inputs.stream().map(i -> i + 1).toList();
            })) {
      ExecutionException failed = assertThrows(ExecutionException.class, () -> c.submit(-1).get());
      assertSame(bad, failed.getCause());
      assertEquals(3, c.submit(2).get());
    }
  }

  @Test
  void aBatchThatReturnsTheWrongNumberOfOutputsFailsItsRequests() {
    try (RequestCoalescer<Integer, Integer> c =
        new RequestCoalescer<>("test", Duration.ZERO, 4, inputs -> List.of())) {
      ExecutionException failed = assertThrows(ExecutionException.class, () -> c.submit(1).get());
      assertInstanceOf(IllegalStateException.class, failed.getCause());
      assertTrue(failed.getCause().getMessage().contains("gave 0 outputs"));
    }
  }

  @Test
  void closingEndsTheOpenWindowRunsWhatWasSubmittedAndRefusesNewRequests() throws Exception {
    releaseFirst.countDown();
    RequestCoalescer<Integer, Integer> c =
        new RequestCoalescer<>("test", Duration.ofHours(1), 8, squares);
    CompletableFuture<Integer> first = c.submit(1);
    CompletableFuture<Integer> second = c.submit(2);
    c.close(); // the window would hold the batch open for an hour
    assertEquals(List.of(1, 4), List.of(first.get(), second.get()));
    assertEquals(List.of(List.of(1, 2)), batches);
    assertThrows(IllegalStateException.class, () -> c.submit(3));
    c.close();
  }

  @Test
  void requestsFromManyThreadsEachGetTheirOwnOutput() throws Exception {
    releaseFirst.countDown();
    int threads = 6, each = 200;
    try (RequestCoalescer<Integer, Integer> c =
            new RequestCoalescer<>("test", Duration.ofMillis(1), 16, squares);
        ExecutorService pool = Executors.newFixedThreadPool(threads)) {
      List<Future<?>> done = new ArrayList<>();
      for (int t = 0; t < threads; t++) {
        int base = t * each;
        done.add(
            pool.submit(
                () -> {
                  for (int i = base; i < base + each; i++) {
                    assertEquals(i * i, c.submit(i).get());
                  }
                  return null;
                }));
      }
      for (Future<?> f : done) {
        f.get();
      }
      assertEquals(threads * each, batches.stream().mapToInt(List::size).sum());
      assertTrue(batches.stream().allMatch(b -> b.size() <= 16));
    }
  }

  @Test
  void aLoneCallRunsOnItsCallersThreadWithoutTheDispatcher() {
    releaseFirst.countDown();
    List<Thread> ranOn = Collections.synchronizedList(new ArrayList<>());
    try (RequestCoalescer<Integer, Integer> c =
        new RequestCoalescer<>(
            "test",
            Duration.ofSeconds(5), // a call through the dispatcher would wait for the window
            8,
            inputs -> {
              ranOn.add(Thread.currentThread());
              return squares.apply(inputs);
            })) {
      assertEquals(9, c.call(3));
      assertEquals(16, c.call(4));
      assertEquals(List.of(Thread.currentThread(), Thread.currentThread()), ranOn);
      assertEquals(List.of(List.of(3), List.of(4)), batches);
    }
  }

  @Test
  void callsThatOverlapARunningCallAreBatchedTogetherOnTheDispatcher() throws Exception {
    List<String> ranOn = Collections.synchronizedList(new ArrayList<>());
    try (RequestCoalescer<Integer, Integer> c =
            new RequestCoalescer<>(
                "test-dispatcher",
                Duration.ZERO,
                8,
                inputs -> {
                  ranOn.add(Thread.currentThread().getName());
                  return squares.apply(inputs);
                });
        ExecutorService pool = Executors.newFixedThreadPool(4)) {
      Future<Integer> first = pool.submit(() -> c.call(0));
      await(firstEntered); // the lone call runs, and holds the encoder
      List<Future<Integer>> overlapping = new ArrayList<>();
      try {
        for (int i = 1; i <= 3; i++) {
          int input = i;
          overlapping.add(pool.submit(() -> c.call(input)));
        }
        awaitQueued(c, 3); // all three wait behind the running call
      } finally {
        releaseFirst.countDown(); // a failure above must not leave the pool's close waiting
      }
      assertEquals(0, first.get());
      for (int i = 1; i <= 3; i++) {
        assertEquals(i * i, overlapping.get(i - 1).get());
      }
      assertEquals(
          List.of(List.of(0), List.of(1, 2, 3)),
          batches.stream().map(b -> b.stream().sorted().toList()).toList());
      assertEquals("test-dispatcher", ranOn.get(1));
      assertTrue(!ranOn.get(0).equals("test-dispatcher"), ranOn::toString);
    }
  }

  @Test
  void noCallRunsWhileAnExclusiveSectionRunsAndItRunsRightAfter() throws Exception {
    releaseFirst.countDown();
    try (RequestCoalescer<Integer, Integer> c =
            new RequestCoalescer<>("test", Duration.ZERO, 8, squares);
        ExecutorService pool = Executors.newFixedThreadPool(1)) {
      Future<Integer> call =
          c.exclusive(
              () -> {
                Future<Integer> queued = pool.submit(() -> c.call(5));
                awaitQueued(c, 1); // it queued rather than ran: the section holds the encoder
                // A dispatcher that ran it anyway would show it within this time (a wait that can
                // only make the test fail when the section is not exclusive).
                long until = System.nanoTime() + 200_000_000L;
                while (System.nanoTime() < until) {
                  assertEquals(List.of(), batches);
                  Thread.onSpinWait();
                }
                return queued;
              });
      assertEquals(25, call.get());
      assertEquals(List.of(List.of(5)), batches);
    }
  }

  @Test
  void closingWhileThreadsCallAnswersEveryCallWithItsOutputOrAClosedErrorAndNeverHangs()
      throws Exception {
    releaseFirst.countDown();
    int threads = 4;
    RequestCoalescer<Integer, Integer> c =
        new RequestCoalescer<>("test", Duration.ofMillis(1), 4, squares);
    CountDownLatch called = new CountDownLatch(threads);
    try (ExecutorService pool = Executors.newFixedThreadPool(threads)) {
      List<Future<Integer>> done = new ArrayList<>();
      for (int t = 0; t < threads; t++) {
        int base = t * 1_000_000;
        done.add(
            pool.submit(
                () -> {
                  for (int i = base; ; i++) {
                    try {
                      assertEquals(i % 1000 * (i % 1000), c.call(i % 1000));
                    } catch (IllegalStateException closed) {
                      assertTrue(closed.getMessage().contains("closed"), closed.getMessage());
                      return i - base;
                    }
                    if (i == base) {
                      called.countDown();
                    }
                  }
                }));
      }
      called.await();
      c.close();
      for (Future<Integer> f : done) {
        assertTrue(f.get(30, java.util.concurrent.TimeUnit.SECONDS) >= 1);
      }
      assertThrows(IllegalStateException.class, () -> c.exclusive(() -> 1));
    }
  }

  @Test
  void aBatchHoldsAtLeastOneRequestAndTheWindowIsNotNegative() {
    assertThrows(
        IllegalArgumentException.class,
        () -> new RequestCoalescer<Integer, Integer>("test", Duration.ZERO, 0, squares));
    assertThrows(
        IllegalArgumentException.class,
        () -> new RequestCoalescer<Integer, Integer>("test", Duration.ofMillis(-1), 1, squares));
  }
}
