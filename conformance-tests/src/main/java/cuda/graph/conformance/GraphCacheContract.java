// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 the cuda-graph authors
package cuda.graph.conformance;

import static org.apiguardian.api.API.Status.EXPERIMENTAL;
import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import cuda.graph.CudaDriverError;
import cuda.graph.Device;
import cuda.graph.DeviceBuffer;
import cuda.graph.DeviceOp;
import cuda.graph.ElementType;
import cuda.graph.GraphCache;
import cuda.graph.GraphCache.NotGraphed;
import cuda.graph.GraphCache.Reason;
import cuda.graph.GraphCache.Settings;
import cuda.graph.GraphCache.Sharing;
import cuda.graph.GraphLaunch;
import cuda.graph.GraphMemory;
import cuda.graph.Scope;
import cuda.graph.Stream;
import cuda.graph.conformance.kernels.ConformanceKernels;
import cuda.graph.spi.CuGraphExec;
import cuda.graph.spi.CuHandle;
import cuda.graph.spi.CuResult;
import cuda.graph.spi.DriverCall;
import cuda.graph.spi.HandleKind;
import cuda.graph.testkit.HandleLedger;
import cuda.graph.testkit.InstrumentedDriver;
import cuda.graph.testkit.LoggedCall;
import cuda.graph.testkit.LoggedCall.Outcome;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicInteger;
import org.apiguardian.api.API;
import org.junit.jupiter.api.Test;

/**
 * The graph cache ({@link GraphCache}) under faults and bad input: a driver failure at any step of
 * a miss (begin capture, end capture, instantiation, upload) is thrown once as the driver's error,
 * reported, not retried, and the key captures again after {@code forget}; a failed destroy of an
 * evicted graph's exec leaves the cache usable and is not retried; a graph over the budget is
 * refused before it is instantiated; a recorder's own exception is thrown as itself; a launch
 * handed out before the cache closed still replays, and a graph whose recorder closed the cache is
 * destroyed before its instantiation; sixteen threads launching through one cache with {@link
 * Sharing#CONCURRENT} never make the device hold more graph memory than the budget. Every test ends
 * with the session's ledger at zero (graphs, execs, memory).
 *
 * <p>The graph of key {@code k} fills a temporary of {@code k} KiB with {@code k} and adds its
 * first {@link #N} floats to the key's output, so each replay adds {@code k} there: the output
 * counts the replays, and the graph asks for {@code k} KiB of graph memory ({@code
 * CudaGraph.temporaryBytes()}, which the cache's budget counts; the H200 maps whole 32 MiB units
 * whatever the request, so budgets here are set relative to the requested bytes).
 *
 * @since 0.1.0
 */
@API(status = EXPERIMENTAL, since = "0.1.0")
public interface GraphCacheContract extends ConformanceContract {

  /** Floats of each key's output: one KiB. */
  int N = 256;

  /** Bytes in a KiB. */
  long KIB = 1024;

  /** A budget every key of these tests fits in. */
  long ROOMY = 1L << 20;

  /** {@return one zeroed output of {@link #N} floats per key, owned by the session} */
  private static Map<Integer, DeviceBuffer<Float>> outputs(ConformanceSession s, int... keys) {
    Map<Integer, DeviceBuffer<Float>> out = new HashMap<>();
    for (int key : keys) {
      out.put(key, s.own(DeviceBuffer.zeros(ElementType.F32, N).syncOn(s.stream())));
    }
    return out;
  }

  /** Records key {@code k}: a temporary of {@code k} KiB filled with k, added to k's output. */
  private static void recordKey(int key, Scope scope, Map<Integer, DeviceBuffer<Float>> out) {
    DeviceBuffer<Float> t = scope.temporary(ElementType.F32, (long) N * key);
    scope.record(t.fill((float) key));
    scope.record(ConformanceKernels.saxpy(1f, t.slice(0, N), out.get(key)));
  }

  /** {@return a recorder of {@link #recordKey} that counts its calls in {@code recorded}} */
  private static GraphCache.Recorder<Integer> counting(
      Map<Integer, DeviceBuffer<Float>> out, AtomicInteger recorded) {
    return (key, scope) -> {
      recorded.incrementAndGet();
      recordKey(key, scope, out);
    };
  }

  /** Checks that key {@code key}'s graph ran {@code replays} times into its output. */
  private static void assertReplayed(
      Stream stream, Map<Integer, DeviceBuffer<Float>> out, int key, int replays) {
    float[] expected = new float[N];
    Arrays.fill(expected, (float) key * replays);
    assertArrayEquals(
        expected,
        out.get(key).toFloatArray().syncOn(stream),
        () -> "key " + key + "'s output after " + replays + " replay(s)");
  }

  /** {@return how many driver calls the calling thread has made, as the session's log says} */
  private static long callsOfThisThread(InstrumentedDriver driver) {
    String me = Thread.currentThread().getName();
    return driver.calls().records().stream().filter(c -> c.thread().equals(me)).count();
  }

  // ---- 1. a driver failure at each step of a miss

  /** {@code cuStreamBeginCapture} fails: the recorder never runs, and the key is not retried. */
  @Test
  default void aKeyWhoseBeginCaptureFailsIsReportedOnceAndCapturedAgainOnlyAfterForget() {
    aFailedStepOfAMissIsReportedOnceAndNotRetried(
        DriverCall.STREAM_BEGIN_CAPTURE, CuResult.INVALID_VALUE);
  }

  /** {@code cuStreamEndCapture} fails: the stream leaves capture mode and no graph is left. */
  @Test
  default void aKeyWhoseEndCaptureFailsIsReportedOnceAndCapturedAgainOnlyAfterForget() {
    aFailedStepOfAMissIsReportedOnceAndNotRetried(
        DriverCall.STREAM_END_CAPTURE, CuResult.STREAM_CAPTURE_INVALIDATED);
  }

  /** {@code cuGraphInstantiate} fails: the captured graph is destroyed. */
  @Test
  default void aKeyWhoseInstantiationFailsIsReportedOnceAndCapturedAgainOnlyAfterForget() {
    aFailedStepOfAMissIsReportedOnceAndNotRetried(
        DriverCall.GRAPH_INSTANTIATE, CuResult.OUT_OF_MEMORY);
  }

  /** {@code cuGraphUpload} fails: the exec and the graph are destroyed. */
  @Test
  default void aKeyWhoseUploadFailsIsReportedOnceAndCapturedAgainOnlyAfterForget() {
    aFailedStepOfAMissIsReportedOnceAndNotRetried(DriverCall.GRAPH_UPLOAD, CuResult.OUT_OF_MEMORY);
  }

  /**
   * The miss of key 3 fails at {@code step}: the launch throws the driver's error as {@code
   * CudaGraph.scope} does outside a cache, the key is reported with it, nothing is cached or left
   * alive, a second launch is refused before any driver call, and after {@code forget} the key
   * captures and replays correctly.
   */
  private void aFailedStepOfAMissIsReportedOnceAndNotRetried(DriverCall step, int status) {
    try (ConformanceSession s = openSession()) {
      Stream stream = s.stream();
      InstrumentedDriver driver = s.driver();
      HandleLedger ledger = driver.ledger();
      Map<Integer, DeviceBuffer<Float>> out = outputs(s, 3);
      AtomicInteger recorded = new AtomicInteger();
      try (GraphCache<Integer> cache =
          GraphCache.create(stream, Settings.budget(ROOMY), counting(out, recorded))) {
        driver.faults().failNth(step, 1, status);

        CudaDriverError error = assertThrows(CudaDriverError.class, () -> cache.launch(3));

        assertEquals(step.symbol(), error.call(), error::toString);
        assertEquals(status, error.code(), error::toString);
        assertEquals(List.of(), driver.faults().pending(), "the injected failure must fire");
        int recordings = step == DriverCall.STREAM_BEGIN_CAPTURE ? 0 : 1;
        assertEquals(recordings, recorded.get(), "recordings of key 3");
        List<NotGraphed<Integer>> report = cache.notGraphed();
        assertEquals(1, report.size(), report::toString);
        NotGraphed<Integer> failed = report.getFirst();
        assertEquals(3, failed.key());
        assertEquals(Reason.CAPTURE_FAILED, failed.reason());
        assertSame(error, failed.cause(), "the report's cause is the error thrown");
        assertTrue(failed.detail().contains(step.symbol()), failed.detail());
        assertFalse(cache.isCached(3));
        assertEquals(Map.of(), cache.stats());
        assertEquals(0, cache.graphMemoryBytes());
        assertEquals(Map.of(), driver.capturingStreams(), "no stream may be left capturing");
        assertFalse(DeviceOp.isExecuting(), "the execution lock must be released");
        assertEquals(0, ledger.live(HandleKind.GRAPH), () -> ledger.describeLive().toString());
        assertEquals(0, ledger.live(HandleKind.GRAPH_EXEC), () -> ledger.describeLive().toString());

        long calls = callsOfThisThread(driver);
        IllegalStateException again =
            assertThrows(IllegalStateException.class, () -> cache.launch(3));
        assertSame(error, again.getCause(), "the refusal carries the first failure");
        assertTrue(again.getMessage().contains("forget(key)"), again.getMessage());
        assertEquals(
            calls, callsOfThisThread(driver), "a failed key is refused without the driver");
        assertEquals(recordings, recorded.get(), "a failed key is not recorded again");
        assertReplayed(stream, out, 3, 0);

        assertTrue(cache.forget(3));
        cache.launch(3).syncOn(stream);
        cache.launch(3).syncOn(stream);
        assertReplayed(stream, out, 3, 2);
        assertTrue(cache.isCached(3));
        assertEquals(3 * KIB, cache.graphMemoryBytes());
        assertEquals(2, cache.stats(3).orElseThrow().replays());
      }
    }
  }

  // ---- 2. a failed destroy during an eviction

  /**
   * With room for one graph, key 2 evicts key 1 and the destroy of 1's exec fails. The library
   * gives a failed release up (logged, never retried): 1's graph is destroyed all the same, 1 is
   * reported evicted, 2 is cached, and the cache goes on capturing and evicting. Only the exec
   * whose destroy failed outlives the cache; the test destroys it, so the session's ledger ends at
   * zero.
   */
  @Test
  default void aFailedDestroyOfAnEvictedExecLeavesTheCacheUsableAndIsNotRetried() {
    try (ConformanceSession s = openSession()) {
      Stream stream = s.stream();
      InstrumentedDriver driver = s.driver();
      HandleLedger ledger = driver.ledger();
      Map<Integer, DeviceBuffer<Float>> out = outputs(s, 1, 2);
      AtomicInteger recorded = new AtomicInteger();
      CuGraphExec evicted;
      try (GraphCache<Integer> cache =
          GraphCache.create(
              stream, Settings.budget(ROOMY).withMaxGraphs(1), counting(out, recorded))) {
        cache.launch(1).syncOn(stream);
        List<CuHandle> execs = ledger.liveHandles(HandleKind.GRAPH_EXEC);
        assertEquals(1, execs.size(), execs::toString);
        evicted = (CuGraphExec) execs.getFirst();
        driver.faults().failNth(DriverCall.GRAPH_EXEC_DESTROY, 1, CuResult.INVALID_VALUE);

        cache.launch(2).syncOn(stream);

        assertEquals(List.of(), driver.faults().pending(), "the eviction must destroy 1's exec");
        assertTrue(cache.isCached(2) && !cache.isCached(1), cache::toString);
        assertReplayed(stream, out, 2, 1);
        NotGraphed<Integer> report = cache.notGraphed().getFirst();
        assertEquals(1, report.key());
        assertEquals(Reason.EVICTED, report.reason());
        assertNull(report.cause());
        assertTrue(report.detail().contains("for key 2"), report.detail());
        assertEquals(
            1, ledger.live(HandleKind.GRAPH), "1's graph goes although its exec's destroy failed");
        assertEquals(
            2, ledger.live(HandleKind.GRAPH_EXEC), "2's exec, and 1's whose destroy failed");

        cache.launch(2).syncOn(stream);
        cache.launch(1).syncOn(stream);
        assertReplayed(stream, out, 2, 2);
        assertReplayed(stream, out, 1, 2);
        assertEquals(3, recorded.get(), "1 captured again after its eviction");
        assertEquals(
            List.of(2),
            cache.notGraphed().stream().map(NotGraphed::key).toList(),
            "2 evicted for 1, and 1 graphed again");
      }
      assertEquals(
          List.of(evicted),
          ledger.liveHandles(HandleKind.GRAPH_EXEC),
          "the cache's close destroys every exec but the one whose destroy failed");
      List<LoggedCall> destroys =
          driver.calls().records().stream()
              .filter(c -> c.call() == DriverCall.GRAPH_EXEC_DESTROY)
              .filter(c -> c.arguments().equals(evicted.toString()))
              .toList();
      assertEquals(1, destroys.size(), () -> "a failed destroy is not retried: " + destroys);
      assertEquals(Outcome.INJECTED, destroys.getFirst().outcome());
      // What the library gave up, the driver still holds: give it back, for a ledger at zero.
      driver.graphExecDestroy(evicted);
    }
  }

  // ---- 3. a graph over the budget

  /**
   * Key 16 asks for 16 KiB with a budget of 8 KiB: refused with a message naming both, reported,
   * refused before instantiation (so it maps no graph memory and leaves no exec), not captured
   * again, and the graph that fits stays cached.
   */
  @Test
  default void aGraphOverTheBudgetIsRefusedBeforeInstantiationAndNotCapturedAgain() {
    try (ConformanceSession s = openSession()) {
      Stream stream = s.stream();
      InstrumentedDriver driver = s.driver();
      HandleLedger ledger = driver.ledger();
      Map<Integer, DeviceBuffer<Float>> out = outputs(s, 4, 16);
      AtomicInteger recorded = new AtomicInteger();
      try (GraphCache<Integer> cache =
          GraphCache.create(stream, Settings.budget(8 * KIB), counting(out, recorded))) {
        cache.launch(4).syncOn(stream);
        long instantiations = driver.calls().count(DriverCall.GRAPH_INSTANTIATE);
        long captures = driver.calls().count(DriverCall.STREAM_BEGIN_CAPTURE);

        IllegalStateException refused =
            assertThrows(IllegalStateException.class, () -> cache.launch(16));

        String message = refused.getMessage();
        assertTrue(
            message.contains("needs 16384 bytes") && message.contains("budget of 8192 bytes"),
            message);
        NotGraphed<Integer> report = cache.notGraphed().getLast();
        assertEquals(16, report.key());
        assertEquals(Reason.REFUSED_BY_BUDGET, report.reason());
        assertNull(report.cause());
        assertEquals(
            instantiations,
            driver.calls().count(DriverCall.GRAPH_INSTANTIATE),
            "a graph over the budget must be refused before it is instantiated");
        assertEquals(1, ledger.live(HandleKind.GRAPH_EXEC), "only 4's exec");
        assertEquals(1, ledger.live(HandleKind.GRAPH), "only 4's graph");
        assertTrue(cache.isCached(4) && !cache.isCached(16), cache::toString);

        IllegalStateException again =
            assertThrows(IllegalStateException.class, () -> cache.launch(16));
        assertTrue(again.getMessage().contains("16384"), again.getMessage());
        assertEquals(
            captures + 1,
            driver.calls().count(DriverCall.STREAM_BEGIN_CAPTURE),
            "a refused key is captured once");
        assertEquals(2, recorded.get());
        cache.launch(4).syncOn(stream);
        assertReplayed(stream, out, 4, 2);
        assertReplayed(stream, out, 16, 0);
      }
    }
  }

  // ---- 4. a recorder that throws

  /**
   * The recorder of key 5 throws after recording its temporary: the exception comes out as itself,
   * the key is reported with it, no graph is left, and the stream runs plain work and other keys'
   * captures afterwards.
   */
  @Test
  default void aRecordersOwnExceptionIsThrownAsItselfAndLeavesTheStreamUsable() {
    try (ConformanceSession s = openSession()) {
      Stream stream = s.stream();
      InstrumentedDriver driver = s.driver();
      HandleLedger ledger = driver.ledger();
      Map<Integer, DeviceBuffer<Float>> out = outputs(s, 5, 2);
      InjectedException failure =
          new InjectedException("thrown by the recorder of key 5 after recording its temporary");
      AtomicInteger recorded = new AtomicInteger();
      GraphCache.Recorder<Integer> recorder =
          (key, scope) -> {
            recorded.incrementAndGet();
            recordKey(key, scope, out);
            if (key == 5) {
              throw failure;
            }
          };
      try (GraphCache<Integer> cache =
          GraphCache.create(stream, Settings.budget(ROOMY), recorder)) {

        assertSame(failure, assertThrows(InjectedException.class, () -> cache.launch(5)));

        NotGraphed<Integer> report = cache.notGraphed().getFirst();
        assertEquals(5, report.key());
        assertEquals(Reason.CAPTURE_FAILED, report.reason());
        assertSame(failure, report.cause());
        assertTrue(report.detail().contains(failure.getMessage()), report.detail());
        assertEquals(Map.of(), driver.capturingStreams(), "no stream may be left capturing");
        assertFalse(DeviceOp.isExecuting(), "the execution lock must be released");
        assertEquals(0, ledger.live(HandleKind.GRAPH), () -> ledger.describeLive().toString());
        assertEquals(0, ledger.live(HandleKind.GRAPH_EXEC), () -> ledger.describeLive().toString());
        assertSame(
            failure, assertThrows(IllegalStateException.class, () -> cache.launch(5)).getCause());
        assertEquals(1, recorded.get(), "a failed key is not recorded again");

        float[] sevens = new float[N];
        Arrays.fill(sevens, 7f);
        assertArrayEquals(
            sevens, out.get(5).fill(7f).andThen(out.get(5).toFloatArray()).syncOn(stream));
        cache.launch(2).syncOn(stream);
        assertReplayed(stream, out, 2, 1);
      }
    }
  }

  // ---- 5. closing with a launch handed out

  /**
   * A launch the cache handed out before its close, executed after it, replays the key's graph; the
   * other graph goes at the close, this one once the launch is done.
   */
  @Test
  default void aLaunchHandedOutBeforeTheCacheClosedReplaysAfterIt() {
    try (ConformanceSession s = openSession()) {
      Stream stream = s.stream();
      HandleLedger ledger = s.driver().ledger();
      Map<Integer, DeviceBuffer<Float>> out = outputs(s, 1, 2);
      GraphCache<Integer> cache =
          GraphCache.create(stream, Settings.budget(ROOMY), counting(out, new AtomicInteger()));
      cache.warm(List.of(1, 2));
      GraphLaunch pending = cache.launch(1);

      cache.close();

      assertTrue(cache.isClosed());
      assertEquals(1, ledger.live(HandleKind.GRAPH_EXEC), "kept for the pending launch");
      IllegalStateException closed =
          assertThrows(IllegalStateException.class, () -> cache.launch(1));
      assertTrue(closed.getMessage().contains("closed"), closed.getMessage());
      pending.syncOn(stream);
      assertReplayed(stream, out, 1, 1);
      assertReplayed(stream, out, 2, 0);
      assertEquals(0, ledger.live(HandleKind.GRAPH_EXEC), "destroyed once its launch was done");
      assertEquals(0, ledger.live(HandleKind.GRAPH));
    }
  }

  /**
   * A recorder that closes its own cache: the graph it recorded is destroyed before it is
   * instantiated, the launch is refused naming the close, and nothing is left alive or replayed.
   */
  @Test
  default void aRecorderThatClosesItsOwnCacheLeavesNoGraphBehind() {
    try (ConformanceSession s = openSession()) {
      Stream stream = s.stream();
      InstrumentedDriver driver = s.driver();
      HandleLedger ledger = driver.ledger();
      Map<Integer, DeviceBuffer<Float>> out = outputs(s, 2);
      List<GraphCache<Integer>> self = new ArrayList<>();
      GraphCache<Integer> cache =
          GraphCache.create(
              stream,
              Settings.budget(ROOMY),
              (key, scope) -> {
                recordKey(key, scope, out);
                self.getFirst().close();
              });
      self.add(cache);
      long instantiations = driver.calls().count(DriverCall.GRAPH_INSTANTIATE);

      IllegalStateException refused =
          assertThrows(IllegalStateException.class, () -> cache.launch(2));

      assertTrue(refused.getMessage().contains("closed while key 2"), refused.getMessage());
      assertTrue(cache.isClosed());
      assertEquals(instantiations, driver.calls().count(DriverCall.GRAPH_INSTANTIATE));
      assertEquals(0, ledger.live(HandleKind.GRAPH), () -> ledger.describeLive().toString());
      assertEquals(0, ledger.live(HandleKind.GRAPH_EXEC), () -> ledger.describeLive().toString());
      assertEquals(Map.of(), driver.capturingStreams(), "no stream may be left capturing");
      assertReplayed(stream, out, 2, 0);
    }
  }

  // ---- 6. many threads launching under a small budget

  /** Threads of {@link #sixteenThreadsLaunchingUnderASmallBudgetNeverMakeTheDeviceHoldMore}. */
  int THREADS = 16;

  /**
   * The unit the H200 maps graph memory in (32 MiB, measured: {@link GraphMemoryContract#GRANULE}):
   * each graph of the many-threads test asks for exactly one, so the driver's rounding adds nothing
   * and what the device holds can be held to the budget exactly.
   */
  long UNIT = 32L << 20;

  /**
   * Sixteen threads, each on its own stream, launch their own two keys in turn through one cache
   * with {@link Sharing#CONCURRENT} and a budget of two graphs of one mapping unit each: nearly
   * every launch is a miss that must release a graph another thread may still be running. The
   * device's graph memory high-water, from a trimmed idle device, stays within the budget (the
   * budget counts released graphs until their launches are done); every launch ran exactly once.
   * Each key is launched by one thread only, so no two launches ever write one counter at once.
   */
  @Test
  default void sixteenThreadsLaunchingUnderASmallBudgetNeverMakeTheDeviceHoldMore() {
    try (ConformanceSession s = openSession()) {
      Stream stream = s.stream();
      Device device = s.device();
      int keysPerThread = 2;
      int launches = 6;
      long budget = 2 * UNIT;
      DeviceBuffer<Integer> counts =
          s.own(DeviceBuffer.zeros(ElementType.I32, THREADS * keysPerThread).syncOn(stream));
      GraphCache.Recorder<Integer> recorder =
          (key, scope) -> {
            DeviceBuffer<Integer> t = scope.temporary(ElementType.I32, UNIT / Integer.BYTES);
            scope.record(t.fill(key));
            scope.record(ConformanceKernels.inc(counts.slice(key, 1)));
          };
      ConformanceKernels.load(device);
      stream.synchronize();
      device.trimGraphMemory();
      device.resetGraphMemoryHighWater();
      assertEquals(0, device.graphMemory().reservedHighBytes(), () -> "" + device.graphMemory());
      try (GraphCache<Integer> cache =
          GraphCache.create(
              stream, Settings.budget(budget).withSharing(Sharing.CONCURRENT), recorder)) {
        ConcurrentWorkers workers = new ConcurrentWorkers();
        for (int t = 0; t < THREADS; t++) {
          int thread = t;
          Stream own = s.newStream();
          workers.start(
              () -> {
                for (int i = 0; i < launches; i++) {
                  cache.launch(thread * keysPerThread + i % keysPerThread).syncOn(own);
                }
              });
        }
        workers.join(THREADS);
        assertTrue(cache.graphMemoryBytes() <= budget, () -> cache.graphMemoryBytes() + " bytes");
      }
      int[] expected = new int[THREADS * keysPerThread];
      Arrays.fill(expected, launches / keysPerThread);
      assertArrayEquals(expected, counts.toIntArray().syncOn(stream), "launches of each key");
      GraphMemory m = device.graphMemory();
      assertTrue(m.usedHighBytes() >= UNIT, () -> "the graphs ran, so memory was used: " + m);
      assertTrue(
          m.reservedHighBytes() <= budget && m.usedHighBytes() <= budget,
          () -> "graph memory high-water " + m + " for a budget of " + budget + " bytes");
    }
  }
}
