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
  void aBatchHoldsAtLeastOneRequestAndTheWindowIsNotNegative() {
    assertThrows(
        IllegalArgumentException.class,
        () -> new RequestCoalescer<Integer, Integer>("test", Duration.ZERO, 0, squares));
    assertThrows(
        IllegalArgumentException.class,
        () -> new RequestCoalescer<Integer, Integer>("test", Duration.ofMillis(-1), 1, squares));
  }
}
