// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 the cuda-graph authors
package cuda.graph.examples.decode;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import cuda.graph.CudaGraph;
import cuda.graph.CudaPlatform;
import cuda.graph.NodeKind;
import cuda.graph.Stream;
import cuda.graph.simulator.Simulator;
import cuda.graph.spi.CudaDriver;
import cuda.graph.spi.support.ForwardingCudaDriver;
import java.lang.foreign.MemorySegment;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import org.jspecify.annotations.Nullable;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * The stream mode on the simulator (asynchronous streams: the device loop runs on a thread of its
 * own while the caller drains the ring): one launch of the WHILE loop publishes each token into a
 * ring of mapped host memory, and the caller receives them in order while the launch runs, the same
 * tokens the graph mode decodes, through a ring that wraps, held back by a host that consumes
 * slowly, and freed by the engine whatever happens.
 */
class StreamingDecodeTests {

  private static final int STEPS = 12;
  private static final Duration PATIENT = Duration.ofSeconds(30);
  private static MappedMemoryCount driver;
  private static CudaPlatform platform;
  private static Stream stream;
  private static Weights weights;
  private static ReferenceModel.Decode reference;

  @BeforeAll
  static void tinyModel() {
    driver = new MappedMemoryCount(Simulator.create());
    platform = CudaPlatform.forDriver(driver, "simulator");
    stream = platform.defaultDevice().newStream();
    weights = Weights.generate(LlamaConfig.TINY, 7);
    reference = ReferenceModel.decode(weights, STEPS);
  }

  @AfterAll
  static void close() {
    weights.close();
    platform.close();
  }

  /** The tokens decoded after the first, at positions 1 to STEPS. */
  private static int[] decoded() {
    return Arrays.copyOfRange(reference.tokens(), 1, STEPS + 1);
  }

  private static int[] graphModeTokens(DecodeEngine engine) {
    try (CudaGraph<@Nullable Void> step = engine.captureStep()) {
      engine.reset(STEPS);
      for (int s = 0; s < STEPS; s++) {
        step.launch().syncOn(stream);
      }
      return Arrays.copyOfRange(engine.tokens(STEPS), 1, STEPS + 1);
    }
  }

  /** A sink that records what it receives. */
  private static final class Recorded implements TokenRing.TokenSink {
    final List<Integer> indices = new ArrayList<>(), tokens = new ArrayList<>();

    @Override
    public void accept(int index, int token, long deviceNanos, long seenNanos) {
      indices.add(index);
      tokens.add(token);
    }

    int[] tokens() {
      return tokens.stream().mapToInt(Integer::intValue).toArray();
    }
  }

  @Test
  void oneLaunchStreamsExactlyTheTokensTheGraphModeDecodesInOrder() {
    try (DecodeEngine engine = new DecodeEngine(weights, stream);
        CudaGraph<@Nullable Void> loop = engine.captureStreamLoop()) {
      assertEquals(List.of(NodeKind.CONDITIONAL), loop.nodeKinds());
      int[] graphMode = graphModeTokens(engine);
      assertArrayEquals(decoded(), graphMode);
      engine.reset(STEPS);
      Recorded sink = new Recorded();
      assertEquals(STEPS, engine.decodeStreaming(loop, STEPS, sink));
      assertArrayEquals(graphMode, sink.tokens());
      assertEquals(indices(STEPS), sink.indices);
      assertArrayEquals(reference.tokens(), engine.tokens(STEPS), "the state block as every mode");
    }
  }

  @Test
  void withProgrammaticLaunchesInsideTheLoopTheStreamIsTheSame() {
    // The simulator starts each programmatic launch early, in the most adversarial legal order.
    try (DecodeEngine engine = new DecodeEngine(weights, stream, 5, PATIENT);
        CudaGraph<@Nullable Void> loop = engine.captureStreamLoop(true)) {
      engine.reset(STEPS);
      Recorded sink = new Recorded();
      assertEquals(STEPS, engine.decodeStreaming(loop, STEPS, sink));
      assertArrayEquals(decoded(), sink.tokens());
      assertEquals(indices(STEPS), sink.indices);
      assertArrayEquals(reference.tokens(), engine.tokens(STEPS), "the state block as every mode");
    }
  }

  @Test
  void aRingShorterThanTheRunWrapsWithoutLosingOrRepeatingAToken() {
    try (DecodeEngine engine = new DecodeEngine(weights, stream, 5, PATIENT);
        CudaGraph<@Nullable Void> loop = engine.captureStreamLoop()) {
      for (int run = 0; run < 2; run++) { // the same graph again: the ring starts over
        engine.reset(STEPS);
        Recorded sink = new Recorded();
        engine.decodeStreaming(loop, STEPS, sink);
        assertArrayEquals(decoded(), sink.tokens(), "run " + run);
        assertEquals(indices(STEPS), sink.indices, "run " + run);
      }
    }
  }

  @Test
  void aPacedDrainDeliversEveryTokenInOrderAsTheSpinningOneDoes() {
    try (DecodeEngine engine = new DecodeEngine(weights, stream, 5, PATIENT);
        CudaGraph<@Nullable Void> loop = engine.captureStreamLoop()) {
      engine.reset(STEPS);
      Recorded sink = new Recorded();
      assertEquals(STEPS, engine.decodeStreaming(loop, STEPS, sink, TokenRing.Wait.PACED));
      assertArrayEquals(decoded(), sink.tokens());
      assertEquals(indices(STEPS), sink.indices);
    }
  }

  @Test
  void theConsumerHasTheFirstTokenWhileTheLaunchStillRuns() {
    int capacity = 4;
    try (DecodeEngine engine = new DecodeEngine(weights, stream, capacity, PATIENT);
        CudaGraph<@Nullable Void> loop = engine.captureStreamLoop()) {
      engine.reset(STEPS);
      TokenRing.StreamingDecode run = engine.startStreaming(loop, STEPS);
      boolean[] doneAtFirst = {true};
      long[] publishedAtFirst = {-1};
      Recorded sink = new Recorded();
      int delivered =
          run.drainTo(
              (index, token, deviceNanos, seenNanos) -> {
                if (index == 0) {
                  // Hold the first token a while: the device fills the ring and then waits for
                  // the host, so the launch cannot end while this consumer holds it.
                  sleep(Duration.ofMillis(100));
                  doneAtFirst[0] = run.launch().isDone();
                  publishedAtFirst[0] = engine.ring().published();
                }
                sink.accept(index, token, deviceNanos, seenNanos);
              });
      assertFalse(doneAtFirst[0], "the launch had completed when the first token was consumed");
      assertTrue(
          publishedAtFirst[0] >= 1 && publishedAtFirst[0] <= capacity + 1,
          "published while the host held token 0: " + publishedAtFirst[0]);
      assertEquals(STEPS, delivered);
      assertTrue(run.launch().isDone());
      assertArrayEquals(decoded(), sink.tokens());
    }
  }

  @Test
  void aConsumerThatThrowsGetsItsErrorBackOnlyOnceTheDeviceHasFinished() {
    try (DecodeEngine engine = new DecodeEngine(weights, stream, 2, PATIENT);
        CudaGraph<@Nullable Void> loop = engine.captureStreamLoop()) {
      engine.reset(STEPS);
      TokenRing.StreamingDecode run = engine.startStreaming(loop, STEPS);
      IllegalStateException thrown = new IllegalStateException("the consumer failed");
      IllegalStateException e =
          assertThrows(
              IllegalStateException.class,
              () ->
                  run.drainTo(
                      (index, token, deviceNanos, seenNanos) -> {
                        if (index == 3) {
                          throw thrown;
                        }
                      }));
      assertSame(thrown, e);
      assertTrue(run.launch().isDone(), "the caller got the error before the launch ended");
      // The host went on consuming, so the device, held back by a ring of two, finished the run.
      assertArrayEquals(reference.tokens(), engine.tokens(STEPS));
    }
  }

  @Test
  void aHostThatStopsConsumingMakesTheDeviceGiveUpWithinItsTimeout() {
    try (DecodeEngine engine = new DecodeEngine(weights, stream, 2, Duration.ofMillis(50));
        CudaGraph<@Nullable Void> loop = engine.captureStreamLoop()) {
      engine.reset(STEPS);
      IllegalStateException e =
          assertThrows(
              IllegalStateException.class,
              () ->
                  engine.decodeStreaming(
                      loop,
                      STEPS,
                      (index, token, deviceNanos, seenNanos) -> {
                        if (index == 0) {
                          sleep(Duration.ofMillis(1000));
                        }
                      }));
      assertTrue(e.getMessage().contains("gave up"), e.getMessage());
      assertTrue(e.getMessage().contains("ring of 2 slots"), e.getMessage());
    }
  }

  @Test
  void aDecodeShorterThanAnnouncedIsReportedNotWaitedForForever() {
    try (DecodeEngine engine = new DecodeEngine(weights, stream);
        CudaGraph<@Nullable Void> loop = engine.captureStreamLoop()) {
      engine.reset(3);
      Recorded sink = new Recorded();
      IllegalStateException e =
          assertThrows(
              IllegalStateException.class, () -> engine.decodeStreaming(loop, STEPS, sink));
      assertTrue(e.getMessage().contains("3 of " + STEPS), e.getMessage());
      assertArrayEquals(Arrays.copyOf(decoded(), 3), sink.tokens());
    }
  }

  @Test
  void closingTheEngineFreesItsMappedRingOnceTheGraphsUsingItAreGone() {
    int before = driver.live.size();
    DecodeEngine engine = new DecodeEngine(weights, stream);
    CudaGraph<@Nullable Void> loop = engine.captureStreamLoop();
    assertEquals(before + 1, driver.live.size(), "the ring: one mapped allocation");
    engine.reset(STEPS);
    engine.decodeStreaming(loop, STEPS, new Recorded());
    engine.close();
    assertTrue(engine.ring().isClosed());
    loop.close();
    stream.synchronize();
    awaitSize(driver.live, before); // the last launch's leases go once its completion is seen
    assertEquals(before, driver.live.size(), "mapped allocations left");
  }

  @Test
  void anEngineThatCannotBeBuiltFreesTheRingItHadAllocated() {
    MappedMemoryCount small =
        new MappedMemoryCount(Simulator.builder().deviceMemoryBytes(16 << 10).build());
    try (CudaPlatform tight = CudaPlatform.forDriver(small, "simulator");
        Stream s = tight.defaultDevice().newStream()) {
      assertThrows(RuntimeException.class, () -> new DecodeEngine(weights, s));
      s.synchronize();
      assertEquals(1, small.allocated.size(), "the engine allocated its ring first");
      assertEquals(Set.of(), small.live, "mapped allocations left");
    }
  }

  @Test
  void theClockCalibrationBracketsTheDevicesTimerBetweenTheHostsSendAndSee() {
    try (DecodeEngine engine = new DecodeEngine(weights, stream)) {
      TokenRing.ClockOffset clock = engine.calibrateClock(100);
      assertEquals(100, clock.rounds());
      assertTrue(clock.errorNanos() >= 0, "error bound " + clock.errorNanos());
      // The simulator's device timer is the host's System.nanoTime(): no offset beyond the bound.
      assertTrue(
          Math.abs(clock.offsetNanos()) <= clock.errorNanos(),
          "offset " + clock.offsetNanos() + " beyond its bound " + clock.errorNanos());
      assertEquals(1_000 - clock.offsetNanos(), clock.toHostNanos(1_000));
    }
  }

  private static List<Integer> indices(int n) {
    List<Integer> list = new ArrayList<>();
    for (int i = 0; i < n; i++) {
      list.add(i);
    }
    return list;
  }

  private static void awaitSize(Set<Long> set, int size) {
    long deadline = System.nanoTime() + Duration.ofSeconds(10).toNanos();
    while (set.size() != size && System.nanoTime() < deadline) {
      sleep(Duration.ofMillis(1));
    }
  }

  private static void sleep(Duration d) {
    try {
      Thread.sleep(d);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new IllegalStateException(e);
    }
  }

  /** Counts the mapped host allocations ({@code cuMemHostAlloc}) not yet freed. */
  static final class MappedMemoryCount extends ForwardingCudaDriver {
    final Set<Long> live = ConcurrentHashMap.newKeySet();
    final Set<Long> allocated = ConcurrentHashMap.newKeySet();

    MappedMemoryCount(CudaDriver delegate) {
      super(delegate);
    }

    @Override
    public MemorySegment memHostAlloc(long bytes, int flags) {
      MemorySegment memory = super.memHostAlloc(bytes, flags);
      live.add(memory.address());
      allocated.add(memory.address());
      return memory;
    }

    @Override
    public void memFreeHost(MemorySegment hostMemory) {
      long address = hostMemory.address();
      super.memFreeHost(hostMemory);
      live.remove(address);
    }
  }
}
