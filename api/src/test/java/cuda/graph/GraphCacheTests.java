// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 the cuda-graph authors
package cuda.graph;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import cuda.graph.GraphCache.NotGraphed;
import cuda.graph.GraphCache.Reason;
import cuda.graph.GraphCache.Settings;
import cuda.graph.GraphCache.Sharing;
import cuda.graph.spi.DriverCall;
import cuda.graph.spi.HandleKind;
import java.time.Duration;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Collections;
import java.util.HashMap;
import java.util.IdentityHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * {@link GraphCache}: a graph per key, captured once and replayed, refused or failed keys reported
 * and not retried, the least recently used graphs released first (idle ones before those in flight)
 * to stay within the budget and the count, and everything released on close once launches in flight
 * are done.
 */
class GraphCacheTests extends InstrumentedPlatformFixture {

  private static final LaunchConfig ONE = LaunchConfig.of(1, 1);
  private static final long KIB = 1024;

  /** One counter per key, each replay of a key's graph adds one to it. */
  private final Map<Integer, DeviceBuffer<Integer>> counters = new HashMap<>();

  private final AtomicInteger recorded = new AtomicInteger();

  @BeforeEach
  void loadKernels() {
    KernelFixtures.ADD_ONE.load(platform.defaultDevice());
  }

  @AfterEach
  void closeCounters() {
    counters.values().forEach(DeviceBuffer::close);
  }

  private DeviceBuffer<Integer> counter(int key) {
    return counters.computeIfAbsent(key, k -> DeviceBuffer.fromArray(new int[1]).syncOn(stream));
  }

  private int count(int key) {
    return counter(key).toIntArray().syncOn(stream)[0];
  }

  /** Key k: a temporary of k KiB, then one increment of the key's counter. */
  private GraphCache.Recorder<Integer> withTemporaryOfKeyKib() {
    return (key, scope) -> {
      recorded.incrementAndGet();
      DeviceBuffer<Integer> scratch = scope.temporary(ElementType.I32, key * KIB / 4);
      scope.record(scratch.fill(0));
      scope.record(KernelFixtures.ADD_ONE.launch(ONE, 1, counter(key)));
    };
  }

  private int captures() {
    return (int) simulator.calls().count(DriverCall.STREAM_BEGIN_CAPTURE);
  }

  @Test
  void aMissCapturesTheKeysGraphAndEveryHitReplaysItWithoutCapturingAgain() {
    try (GraphCache<Integer> cache =
        GraphCache.create(stream, Settings.budget(1 << 20), withTemporaryOfKeyKib())) {
      counter(4);
      int before = captures();
      for (int i = 0; i < 5; i++) {
        cache.launch(4).syncOn(stream);
      }
      assertEquals(1, captures() - before, "one capture for five launches");
      assertEquals(5, count(4));
      GraphCache.KeyStats stats = cache.stats(4).orElseThrow();
      assertEquals(5, stats.replays());
      assertEquals(4 * KIB, stats.graphMemoryBytes());
      assertFalse(stats.captureTime().isNegative());
      assertFalse(stats.instantiateTime().isNegative());
      assertFalse(stats.uploadTime().isNegative());
      assertEquals(List.of(), cache.notGraphed());
    }
  }

  @Test
  void warmingCapturesEveryMissingKeyUpFrontAndLaunchesNothing() {
    try (GraphCache<Integer> cache =
        GraphCache.create(stream, Settings.budget(1 << 20), withTemporaryOfKeyKib())) {
      List.of(1, 2, 4).forEach(this::counter);
      cache.warm(List.of(1, 2, 4));
      cache.warm(List.of(2, 4));
      assertEquals(3, recorded.get(), "each key recorded once");
      assertEquals(Map.of(1, 0L, 2, 0L, 4, 0L), replaysByKey(cache));
      assertArrayEquals(new int[] {0, 0, 0}, new int[] {count(1), count(2), count(4)});
      cache.launch(2).syncOn(stream);
      assertEquals(3, recorded.get(), "a warmed key is a hit");
      assertEquals(1, count(2));
    }
  }

  private static Map<Integer, Long> replaysByKey(GraphCache<Integer> cache) {
    Map<Integer, Long> replays = new HashMap<>();
    cache.stats().forEach((k, s) -> replays.put(k, s.replays()));
    return replays;
  }

  @Test
  void aKeyWhoseCaptureFailsIsReportedThrownOnceAndNotRetriedUntilForgotten() {
    AtomicInteger attempts = new AtomicInteger();
    boolean[] broken = {true};
    IllegalArgumentException failure = new IllegalArgumentException("no kernel for batch 3");
    GraphCache.Recorder<Integer> recorder =
        (key, scope) -> {
          attempts.incrementAndGet();
          scope.record(KernelFixtures.ADD_ONE.launch(ONE, 1, counter(key)));
          if (broken[0]) {
            throw failure;
          }
        };
    try (GraphCache<Integer> cache = GraphCache.create(stream, Settings.budget(0), recorder)) {
      counter(3);
      assertSame(failure, assertThrows(IllegalArgumentException.class, () -> cache.launch(3)));
      IllegalStateException again =
          assertThrows(IllegalStateException.class, () -> cache.launch(3));
      assertSame(failure, again.getCause());
      assertTrue(again.getMessage().contains("forget(key)"), again.getMessage());
      assertEquals(1, attempts.get(), "a failed key is not captured again");
      assertFalse(cache.isCached(3));
      NotGraphed<Integer> reported = cache.notGraphed().getFirst();
      assertEquals(Reason.CAPTURE_FAILED, reported.reason());
      assertSame(failure, reported.cause());
      assertTrue(reported.detail().contains("no kernel for batch 3"), reported.detail());
      assertEquals(0, simulator.ledger().live(HandleKind.GRAPH), "the failed capture left a graph");

      broken[0] = false;
      assertTrue(cache.forget(3));
      cache.launch(3).syncOn(stream);
      assertEquals(2, attempts.get());
      assertEquals(1, count(3));
    }
  }

  @Test
  void aGraphNeedingMoreThanTheBudgetIsAClearErrorThatLeavesNothingBehind() {
    try (GraphCache<Integer> cache =
        GraphCache.create(stream, Settings.budget(8 * KIB), withTemporaryOfKeyKib())) {
      counter(16);
      long execs = simulator.ledger().live(HandleKind.GRAPH_EXEC);
      IllegalStateException refused =
          assertThrows(IllegalStateException.class, () -> cache.launch(16));
      assertTrue(
          refused.getMessage().contains("needs 16384 bytes")
              && refused.getMessage().contains("budget of 8192 bytes")
              && refused.getMessage().contains("raise the budget"),
          refused.getMessage());
      assertEquals(execs, simulator.ledger().live(HandleKind.GRAPH_EXEC), "the refused exec");
      assertFalse(cache.isCached(16));
      assertEquals(Reason.REFUSED_BY_BUDGET, cache.notGraphed().getFirst().reason());
      assertThrows(IllegalStateException.class, () -> cache.launch(16));
      assertEquals(1, recorded.get(), "a refused key is not captured again");
      assertEquals(0, count(16));
    }
  }

  @Test
  void beyondTheCountTheLeastRecentlyUsedGraphIsReleasedAndCapturedAgainWhenNeeded() {
    try (GraphCache<Integer> cache =
        GraphCache.create(
            stream, Settings.budget(1 << 20).withMaxGraphs(2), withTemporaryOfKeyKib())) {
      List.of(1, 2, 3).forEach(this::counter);
      cache.launch(1).syncOn(stream);
      cache.launch(2).syncOn(stream);
      cache.launch(1).syncOn(stream);
      cache.launch(3).syncOn(stream);
      assertTrue(cache.isCached(1) && cache.isCached(3) && !cache.isCached(2));
      NotGraphed<Integer> evicted = cache.notGraphed().getFirst();
      assertEquals(2, evicted.key());
      assertEquals(Reason.EVICTED, evicted.reason());
      assertTrue(evicted.detail().contains("for key 3"), evicted.detail());
      assertEquals(2, simulator.ledger().live(HandleKind.GRAPH_EXEC), "the evicted exec");

      cache.launch(2).syncOn(stream);
      assertEquals(4, recorded.get(), "an evicted key is captured again");
      assertArrayEquals(new int[] {2, 2, 1}, new int[] {count(1), count(2), count(3)});
    }
  }

  @Test
  void seriallySharedGraphsAreAccountedAsTheLargestAndConcurrentOnesAsTheSum() {
    List.of(4, 16, 8, 12).forEach(this::counter);
    try (GraphCache<Integer> serial =
        GraphCache.create(stream, Settings.budget(20 * KIB), withTemporaryOfKeyKib())) {
      serial.warm(List.of(4, 16, 8, 12));
      assertEquals(16 * KIB, serial.graphMemoryBytes());
      assertEquals(4, serial.stats().size(), "nothing released: they share one pool");
    }
    try (GraphCache<Integer> concurrent =
        GraphCache.create(
            stream,
            Settings.budget(20 * KIB).withSharing(Sharing.CONCURRENT),
            withTemporaryOfKeyKib())) {
      concurrent.warm(List.of(4, 16, 8, 12));
      assertEquals(20 * KIB, concurrent.graphMemoryBytes(), "8 + 12 after releasing 4 and 16");
      assertEquals(
          List.of(4, 16),
          concurrent.notGraphed().stream().map(NotGraphed::key).toList(),
          "released least recently used first");
    }
  }

  @Test
  void aGraphWithALaunchInFlightIsReleasedOnlyAfterTheIdleOnes() {
    try (GraphCache<Integer> cache =
        GraphCache.create(
            stream, Settings.budget(1 << 20).withMaxGraphs(2), withTemporaryOfKeyKib())) {
      List.of(1, 2, 3).forEach(this::counter);
      GraphLaunch pending = cache.launch(1); // the least recently used, but not executed yet
      cache.launch(2).syncOn(stream);
      cache.launch(3).syncOn(stream);
      assertTrue(cache.isCached(1) && !cache.isCached(2), "the idle graph goes first");
      pending.syncOn(stream);
      assertEquals(1, count(1));
    }
  }

  @Test
  void closingReleasesEveryGraphOnceTheLaunchesInFlightAreDone() {
    GraphCache<Integer> cache =
        GraphCache.create(stream, Settings.budget(1 << 20), withTemporaryOfKeyKib());
    List.of(1, 2).forEach(this::counter);
    cache.warm(List.of(1, 2));
    GraphLaunch pending = cache.launch(1);
    cache.close();
    assertTrue(cache.isClosed());
    assertEquals(1, simulator.ledger().live(HandleKind.GRAPH_EXEC), "kept for the pending launch");
    pending.syncOn(stream);
    assertEquals(1, count(1));
    assertEquals(0, simulator.ledger().live(HandleKind.GRAPH_EXEC));
    IllegalStateException closed = assertThrows(IllegalStateException.class, () -> cache.launch(1));
    assertTrue(closed.getMessage().contains("closed"), closed.getMessage());
    cache.close();
  }

  @Test
  void hitsAndEvictionsFromManyThreadsLoseNoLaunch() throws Exception {
    int threads = 4, launches = 150;
    List.of(0, 1, 2, 3).forEach(this::counter);
    try (GraphCache<Integer> cache =
            GraphCache.create(
                stream,
                Settings.budget(1 << 20).withMaxGraphs(2).withSharing(Sharing.CONCURRENT),
                (key, scope) -> scope.record(KernelFixtures.ADD_ONE.launch(ONE, 1, counter(key))));
        ExecutorService pool = Executors.newFixedThreadPool(threads)) {
      List<Future<?>> done = new ArrayList<>();
      for (int t = 0; t < threads; t++) {
        int thread = t;
        done.add(
            pool.submit(
                () -> {
                  try (Stream own = platform.defaultDevice().newStream()) {
                    for (int i = 0; i < launches; i++) {
                      cache.launch((thread + i) % 4).syncOn(own);
                    }
                  }
                }));
      }
      for (Future<?> f : done) {
        f.get();
      }
      int total = 0;
      for (int key = 0; key < 4; key++) {
        total += count(key);
      }
      assertEquals(threads * launches, total, "every launch ran once");
      assertTrue(cache.stats().size() <= 2);
    }
  }

  // ---- issue 36, item 3: the budget counts graphs released with launches in flight

  @Test
  void aLaunchHandedOutAndNotExecutedHoldsTheBudgetSoAConcurrentMissIsRefusedAfterItsWait() {
    Settings settings =
        Settings.budget(8 * KIB).withSharing(Sharing.CONCURRENT).withMaxWait(Duration.ofMillis(50));
    try (GraphCache<Integer> cache = GraphCache.create(stream, settings, withTemporaryOfKeyKib())) {
      List.of(4, 5).forEach(this::counter);
      GraphLaunch pending = cache.launch(4);
      long instantiations = simulator.calls().count(DriverCall.GRAPH_INSTANTIATE);

      IllegalStateException refused =
          assertThrows(IllegalStateException.class, () -> cache.launch(5));

      String message = refused.getMessage();
      assertTrue(
          message.contains("needs 5120 bytes")
              && message.contains("hold 4096 bytes of its budget of 8192 bytes")
              && message.contains("a launch not executed yet is in flight")
              && message.contains("tries again"),
          message);
      assertEquals(
          instantiations,
          simulator.calls().count(DriverCall.GRAPH_INSTANTIATE),
          "refused before its instantiation");
      assertEquals(4 * KIB, cache.graphMemoryBytes(), "4 is released but its launch is pending");
      assertFalse(cache.isCached(4) || cache.isCached(5), cache::toString);
      assertEquals(
          List.of(4), cache.notGraphed().stream().map(NotGraphed::key).toList(), "5 not marked");

      pending.syncOn(stream);
      assertEquals(0, cache.graphMemoryBytes(), "4's launch is done");
      cache.launch(5).syncOn(stream);
      assertEquals(1, count(4));
      assertEquals(1, count(5));
      assertEquals(5 * KIB, cache.graphMemoryBytes());
    }
  }

  @Test
  void aConcurrentMissWaitsForTheLaunchesOfAReleasedGraphBeforeItsGraphIsInstantiated()
      throws Exception {
    long delayMillis = 200;
    try (GraphCache<Integer> cache =
            GraphCache.create(
                stream,
                Settings.budget(8 * KIB).withSharing(Sharing.CONCURRENT),
                withTemporaryOfKeyKib());
        ExecutorService later = Executors.newSingleThreadExecutor()) {
      List.of(4, 5).forEach(this::counter);
      GraphLaunch pending = cache.launch(4);
      long began = System.nanoTime();
      Future<?> executed =
          later.submit(
              () -> {
                Thread.sleep(delayMillis);
                try (Stream other = platform.defaultDevice().newStream()) {
                  pending.syncOn(other);
                }
                return null;
              });

      cache.launch(5).syncOn(stream);

      long waited = (System.nanoTime() - began) / 1_000_000;
      assertTrue(waited >= delayMillis, () -> "5 was graphed " + waited + " ms after 4's launch");
      executed.get();
      assertEquals(1, count(4));
      assertEquals(1, count(5));
      assertEquals(List.of(4), cache.notGraphed().stream().map(NotGraphed::key).toList());
    }
  }

  @Test
  void seriallySharedGraphsNeverWaitForAReleasedGraphsLaunches() {
    Settings settings = Settings.budget(8 * KIB).withMaxWait(Duration.ZERO);
    try (GraphCache<Integer> cache = GraphCache.create(stream, settings, withTemporaryOfKeyKib())) {
      List.of(4, 5).forEach(this::counter);
      GraphLaunch pending = cache.launch(4);
      cache.launch(5).syncOn(stream); // one stream: 5 reuses what 4 uses, the largest is counted
      pending.syncOn(stream);
      assertEquals(1, count(4));
      assertEquals(1, count(5));
      assertEquals(5 * KIB, cache.graphMemoryBytes());
    }
  }

  // ---- issue 36, item 4: notGraphed() lists keys not graphed now, one record each

  @Test
  void aForgottenFailureLeavesTheReportOnceItsKeyIsGraphed() {
    boolean[] broken = {true};
    GraphCache.Recorder<Integer> recorder =
        (key, scope) -> {
          scope.record(KernelFixtures.ADD_ONE.launch(ONE, 1, counter(key)));
          if (broken[0]) {
            throw new IllegalArgumentException("no kernel for batch " + key);
          }
        };
    try (GraphCache<Integer> cache = GraphCache.create(stream, Settings.budget(0), recorder)) {
      counter(3);
      assertThrows(IllegalArgumentException.class, () -> cache.launch(3));
      assertEquals(Reason.CAPTURE_FAILED, cache.notGraphed().getFirst().reason());

      broken[0] = false;
      assertTrue(cache.forget(3));
      cache.launch(3).syncOn(stream);

      assertEquals(List.of(), cache.notGraphed(), "3 is graphed");
      assertEquals(1, count(3));
    }
  }

  @Test
  void evictionsBackAndForthListEachKeyOnceAndOnlyWhileItIsNotGraphed() {
    try (GraphCache<Integer> cache =
        GraphCache.create(
            stream, Settings.budget(1 << 20).withMaxGraphs(1), withTemporaryOfKeyKib())) {
      List.of(1, 2, 3).forEach(this::counter);
      for (int i = 0; i < 100; i++) {
        cache.launch(1 + i % 2).syncOn(stream); // each evicts the other
      }
      assertEquals(List.of(1), keysNotGraphed(cache), "2 is cached, 1 evicted once more");

      cache.launch(3).syncOn(stream);
      assertEquals(List.of(1, 2), keysNotGraphed(cache), "oldest first");
      cache.notGraphed().forEach(r -> assertEquals(Reason.EVICTED, r.reason(), r::toString));
      cache.notGraphed().forEach(r -> assertFalse(cache.isCached(r.key()), r::toString));

      assertTrue(cache.forget(1), "an eviction's record is something to forget");
      assertEquals(List.of(2), keysNotGraphed(cache));
      assertArrayEquals(new int[] {50, 50, 1}, new int[] {count(1), count(2), count(3)});
    }
  }

  private static List<Integer> keysNotGraphed(GraphCache<Integer> cache) {
    return cache.notGraphed().stream().map(NotGraphed::key).toList();
  }

  // ---- issue 36, item 5: a recorder that closes its cache, warm-ups' failures

  @Test
  void aRecorderThatClosesItsOwnCacheGetsItsGraphReleasedBeforeInstantiationAndTheLaunchRefused() {
    List<GraphCache<Integer>> self = new ArrayList<>();
    GraphCache.Recorder<Integer> closing =
        (key, scope) -> {
          scope.record(KernelFixtures.ADD_ONE.launch(ONE, 1, counter(key)));
          if (key == 2) {
            self.getFirst().close();
          }
        };
    GraphCache<Integer> cache = GraphCache.create(stream, Settings.budget(0), closing);
    self.add(cache);
    List.of(1, 2).forEach(this::counter);
    cache.launch(1).syncOn(stream);
    long instantiations = simulator.calls().count(DriverCall.GRAPH_INSTANTIATE);

    IllegalStateException refused =
        assertThrows(IllegalStateException.class, () -> cache.launch(2));

    assertTrue(refused.getMessage().contains("closed while key 2"), refused.getMessage());
    assertTrue(cache.isClosed());
    assertFalse(cache.isCached(2));
    assertEquals(instantiations, simulator.calls().count(DriverCall.GRAPH_INSTANTIATE));
    assertEquals(0, simulator.ledger().live(HandleKind.GRAPH_EXEC), "no graph kept by the cache");
    assertEquals(0, simulator.ledger().live(HandleKind.GRAPH));
    assertEquals(List.of(), cache.notGraphed(), "the key did not fail: its cache was closed");
    assertArrayEquals(new int[] {1, 0}, new int[] {count(1), count(2)});
  }

  @Test
  void aWarmUpWhoseKeysFailWithOneExceptionThrowsOneThatNeverReachesItself() {
    IllegalArgumentException shared = new IllegalArgumentException("no kernel for this batch");
    try (GraphCache<Integer> cache =
        GraphCache.create(stream, Settings.budget(0), failing(shared))) {
      IllegalStateException thrown =
          assertThrows(IllegalStateException.class, () -> cache.warm(List.of(3, 5)));

      assertTrue(
          thrown.getMessage().contains("2 of 2 keys are not graphed: [3, 5]"), thrown::getMessage);
      assertSame(shared, thrown.getCause());
      assertEquals(0, shared.getSuppressed().length, "the failure is left as it was thrown");
      assertFalse(reachesItself(thrown), "the thrown exception reaches itself");
      cache.notGraphed().forEach(r -> assertSame(shared, r.cause()));
    }
  }

  @Test
  void aWarmUpLeavesTheCauseTheReportKeepsAsItWasThrown() {
    IllegalArgumentException three = new IllegalArgumentException("no kernel for batch 3");
    IllegalArgumentException five = new IllegalArgumentException("no kernel for batch 5");
    GraphCache.Recorder<Integer> recorder =
        (key, scope) -> {
          throw key == 3 ? three : five;
        };
    try (GraphCache<Integer> cache = GraphCache.create(stream, Settings.budget(0), recorder)) {
      assertSame(three, assertThrows(IllegalArgumentException.class, () -> cache.warm(List.of(3))));

      IllegalStateException thrown =
          assertThrows(IllegalStateException.class, () -> cache.warm(List.of(5, 3)));

      assertSame(five, thrown.getCause());
      assertEquals(
          1, thrown.getSuppressed().length, () -> List.of(thrown.getSuppressed()).toString());
      assertSame(three, thrown.getSuppressed()[0].getCause(), "3 refused with its first failure");
      assertEquals(0, five.getSuppressed().length, "5's failure, as the report keeps it");
      assertEquals(0, three.getSuppressed().length, "3's failure, as the report keeps it");
      assertEquals(
          List.of(three, five), cache.notGraphed().stream().map(NotGraphed::cause).toList());
      assertFalse(reachesItself(thrown));
    }
  }

  @Test
  void aKeyTwiceInOneWarmUpIsCapturedOnceAndItsFailureThrownAsItself() {
    IllegalArgumentException three = new IllegalArgumentException("no kernel for batch 3");
    try (GraphCache<Integer> cache =
        GraphCache.create(stream, Settings.budget(0), failing(three))) {
      assertSame(
          three, assertThrows(IllegalArgumentException.class, () -> cache.warm(List.of(3, 3))));
      assertEquals(0, three.getSuppressed().length, "left as it was thrown");
      assertFalse(reachesItself(three));
    }
  }

  private static GraphCache.Recorder<Integer> failing(RuntimeException failure) {
    return (key, scope) -> {
      throw failure;
    };
  }

  /**
   * {@return whether an exception reachable from {@code t} by causes and suppressed is {@code t}}
   */
  private static boolean reachesItself(Throwable t) {
    Set<Throwable> seen = Collections.newSetFromMap(new IdentityHashMap<>());
    ArrayDeque<Throwable> next = new ArrayDeque<>();
    next.add(t);
    while (!next.isEmpty()) {
      Throwable e = next.poll();
      List<Throwable> linked = new ArrayList<>(List.of(e.getSuppressed()));
      if (e.getCause() != null) {
        linked.add(e.getCause());
      }
      for (Throwable l : linked) {
        if (l == t) {
          return true;
        }
        if (seen.add(l)) {
          next.add(l);
        }
      }
    }
    return false;
  }

  @Test
  void bucketsCoverASizeWithTheSmallestBucketAndSayThePadding() {
    Buckets vllm = Buckets.batchSizes(512);
    assertEquals(67, vllm.sizes().size());
    assertEquals(List.of(1, 2, 4, 8, 16), vllm.sizes().subList(0, 5));
    assertEquals(new Buckets.Bucket(13, 16), vllm.cover(13));
    assertEquals(3, vllm.cover(13).padding());
    assertEquals(0, vllm.cover(1).padding());
    assertEquals(512, vllm.cover(505).size());
    IllegalArgumentException tooLarge =
        assertThrows(IllegalArgumentException.class, () -> vllm.cover(513));
    assertTrue(tooLarge.getMessage().contains("largest bucket, 512"), tooLarge.getMessage());
    assertThrows(IllegalArgumentException.class, () -> vllm.cover(0));
    assertThrows(IllegalArgumentException.class, () -> Buckets.of(4, 2));
    assertThrows(IllegalArgumentException.class, () -> Buckets.of());
    assertEquals(List.of(1, 2), Buckets.batchSizes(3).sizes());
  }

  @Test
  void settingsRefuseANegativeBudgetNoGraphsAndANegativeWait() {
    assertThrows(IllegalArgumentException.class, () -> Settings.budget(-1));
    assertThrows(IllegalArgumentException.class, () -> Settings.budget(0).withMaxGraphs(0));
    IllegalArgumentException wait =
        assertThrows(
            IllegalArgumentException.class,
            () -> Settings.budget(0).withMaxWait(Duration.ofMillis(-1)));
    assertTrue(wait.getMessage().contains("PT-0.001S"), wait.getMessage());
    assertEquals(Settings.DEFAULT_MAX_WAIT, Settings.budget(0).maxWait());
    assertEquals(Settings.DEFAULT_MAX_WAIT, new Settings(0, 1, Sharing.SERIAL).maxWait());
  }
}
