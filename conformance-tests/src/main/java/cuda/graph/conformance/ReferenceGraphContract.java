// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 the cuda-graph authors
package cuda.graph.conformance;

import static org.apiguardian.api.API.Status.EXPERIMENTAL;
import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import cuda.graph.CudaGraph;
import cuda.graph.CudaPlatform;
import cuda.graph.DeviceBuffer;
import cuda.graph.DeviceOp;
import cuda.graph.ElementType;
import cuda.graph.ReentrantExecutionException;
import cuda.graph.Stream;
import cuda.graph.conformance.kernels.ConformanceKernels;
import cuda.graph.spi.DriverCall;
import cuda.graph.spi.HandleKind;
import cuda.graph.testkit.InstrumentedDriver;
import java.time.Duration;
import java.util.Arrays;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.CyclicBarrier;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicReference;
import java.util.function.Supplier;
import org.apiguardian.api.API;
import org.jspecify.annotations.Nullable;
import org.junit.jupiter.api.Test;

/**
 * The reference implementation's own graph tests, ported (cuda-async {@code tests/cuda_graph.rs}
 * and {@code tests/concurrent_capture.rs}), with the Java API's stronger guarantees: {@code scope}
 * captures and launches, recorded values come back, a failure inside a scope propagates as itself
 * and leaves the stream usable, execution nested in a scope is rejected before it reaches the
 * driver, and captures on several threads (and stream creation during a capture) do not interfere.
 *
 * @since 0.1.0
 */
@API(status = EXPERIMENTAL, since = "0.1.0")
public interface ReferenceGraphContract extends ConformanceContract {

  /** How long a test waits for another thread before it fails: generous, never slept. */
  Duration THREAD_TIMEOUT = Duration.ofSeconds(30);

  /**
   * A scope that records nothing captures a graph of no nodes, which launches and is destroyed when
   * closed.
   */
  @Test
  default void anEmptyScopeCapturesAGraphThatLaunches() {
    try (ConformanceSession session = openSession()) {
      Stream stream = session.stream();
      try (CudaGraph<@Nullable Void> graph = CudaGraph.scope(stream, s -> {})) {
        assertEquals(0, graph.nodeCount());
        graph.launch().syncOn(stream);
      }
      assertEquals(0, session.driver().ledger().live(HandleKind.GRAPH_EXEC));
    }
  }

  /** {@link cuda.graph.Scope#record} returns the values of the nodes it records. */
  @Test
  default void recordReturnsTheRecordedValues() {
    try (ConformanceSession session = openSession()) {
      Stream stream = session.stream();
      AtomicReference<@Nullable Integer> number = new AtomicReference<>();
      AtomicReference<@Nullable String> text = new AtomicReference<>();
      try (CudaGraph<@Nullable Void> graph =
          CudaGraph.scope(
              stream,
              s -> {
                number.set(s.record(DeviceOp.value(42)));
                text.set(s.record(DeviceOp.value("hello")));
              })) {
        graph.launch().syncOn(stream);
      }
      assertEquals(42, number.get());
      assertEquals("hello", text.get());
    }
  }

  /**
   * A {@code RuntimeException} thrown by a scope body after it recorded a launch propagates
   * unwrapped; the capture has ended, the lock is released and the stream runs work again.
   */
  @Test
  default void anExceptionThrownInsideAScopePropagatesAsItselfAndTheStreamStaysUsable() {
    try (ConformanceSession session = openSession()) {
      InjectedException failure = new InjectedException("test error");
      DeviceBuffer<Integer> counter =
          session.own(DeviceBuffer.zeros(ElementType.I32, 40).syncOn(session.stream()));
      Throwable thrown =
          assertThrows(
              Throwable.class,
              () ->
                  CudaGraph.scope(
                      session.stream(),
                      s -> {
                        s.record(ConformanceKernels.inc(counter));
                        throw failure;
                      }));
      assertSame(failure, thrown, "the scope's own exception, not a wrapper");
      assertStreamUsable(session, counter, 1);
    }
  }

  /** The reference's {@code scope_panic_safety}: an Error (Java's panic) inside a scope. */
  @Test
  default void anErrorThrownInsideAScopePropagatesAsItselfAndTheStreamStaysUsable() {
    try (ConformanceSession session = openSession()) {
      InjectedError failure = new InjectedError("panic inside a scope");
      DeviceBuffer<Integer> counter =
          session.own(DeviceBuffer.zeros(ElementType.I32, 40).syncOn(session.stream()));
      Throwable thrown =
          assertThrows(
              Throwable.class,
              () ->
                  CudaGraph.scope(
                      session.stream(),
                      s -> {
                        s.record(ConformanceKernels.inc(counter));
                        throw failure;
                      }));
      assertSame(failure, thrown);
      session.stream().synchronize();
      assertStreamUsable(session, counter, 1);
    }
  }

  /** A graph of one launch replays ten times, and each replay runs the launch. */
  @Test
  default void oneGraphLaunchesTenTimes() {
    try (ConformanceSession session = openSession()) {
      Stream stream = session.stream();
      DeviceBuffer<Integer> counter =
          session.own(DeviceBuffer.zeros(ElementType.I32, 40).syncOn(stream));
      try (CudaGraph<@Nullable Void> graph =
          CudaGraph.scope(stream, s -> s.record(ConformanceKernels.inc(counter)))) {
        for (int i = 0; i < 10; i++) {
          graph.launch().syncOn(stream);
        }
      }
      assertArrayEquals(filled(40, 10), counter.toIntArray().syncOn(stream));
    }
  }

  /**
   * {@code syncOn} the capturing stream inside a scope fails with {@link
   * ReentrantExecutionException} without reaching the driver; the scope's graph is destroyed and
   * the stream and the lock are usable again.
   */
  @Test
  default void syncOnTheCaptureStreamInsideAScopeIsRejected() {
    try (ConformanceSession session = openSession()) {
      Stream stream = session.stream();
      assertNestedExecutionRejected(session, () -> DeviceOp.value(42).syncOn(stream));
    }
  }

  /**
   * {@code syncOn} another stream inside a scope fails with {@link ReentrantExecutionException}
   * without reaching the driver; the scope's graph is destroyed and the stream and the lock are
   * usable again.
   */
  @Test
  default void syncOnAnotherStreamInsideAScopeIsRejected() {
    try (ConformanceSession session = openSession()) {
      Stream other = session.newStream();
      assertNestedExecutionRejected(session, () -> DeviceOp.value(42).syncOn(other));
    }
  }

  /**
   * {@code sync()} inside a scope fails with {@link ReentrantExecutionException} without reaching
   * the driver; the scope's graph is destroyed and the stream and the lock are usable again.
   */
  @Test
  default void syncInsideAScopeIsRejected() {
    try (ConformanceSession session = openSession()) {
      Stream other = session.newStream();
      // sync() runs on the current platform's policy stream: make that this session's own stream.
      session.platform().setSchedulingPolicy(device -> other);
      assertNestedExecutionRejected(session, () -> DeviceOp.value(42).sync());
    }
  }

  /**
   * {@code asyncOn} inside a scope records nothing and returns a future that fails with {@link
   * ReentrantExecutionException}.
   */
  @Test
  default void asyncInsideAScopeFailsItsFutureWithoutRunning() {
    try (ConformanceSession session = openSession()) {
      Stream other = session.newStream();
      AtomicReference<@Nullable CompletableFuture<Integer>> future = new AtomicReference<>();
      try (CudaGraph<@Nullable Void> graph =
          CudaGraph.scope(session.stream(), s -> future.set(DeviceOp.value(42).asyncOn(other)))) {
        assertEquals(0, graph.nodeCount());
      }
      CompletableFuture<Integer> f = future.get();
      ExecutionException e =
          assertThrows(
              ExecutionException.class, () -> f.get(THREAD_TIMEOUT.toSeconds(), TimeUnit.SECONDS));
      assertInstanceOf(ReentrantExecutionException.class, e.getCause());
    }
  }

  /**
   * The reference's {@code concurrent_capture_same_context}.
   *
   * @throws Exception if a capturing thread fails or does not finish within {@link
   *     #THREAD_TIMEOUT}, or this thread is interrupted while it waits
   */
  @Test
  default void twoThreadsCaptureOnTheirOwnStreamsAtTheSameTime() throws Exception {
    try (ConformanceSession session = openSession()) {
      Stream first = session.newStream();
      Stream second = session.newStream();
      DeviceBuffer<Integer> a = session.own(DeviceBuffer.zeros(ElementType.I32, 40).syncOn(first));
      DeviceBuffer<Integer> b = session.own(DeviceBuffer.zeros(ElementType.I32, 40).syncOn(second));
      CyclicBarrier bothCapturing = new CyclicBarrier(2);
      CompletableFuture<CudaGraph<@Nullable Void>> one =
          onNewThread(() -> captureWhileOtherCaptures(first, a, 1, bothCapturing));
      CompletableFuture<CudaGraph<@Nullable Void>> two =
          onNewThread(() -> captureWhileOtherCaptures(second, b, 2, bothCapturing));
      try (CudaGraph<@Nullable Void> g1 = one.get(THREAD_TIMEOUT.toSeconds(), TimeUnit.SECONDS);
          CudaGraph<@Nullable Void> g2 = two.get(THREAD_TIMEOUT.toSeconds(), TimeUnit.SECONDS)) {
        g1.launch().syncOn(first);
        g2.launch().syncOn(second);
      }
      assertArrayEquals(filled(40, 1), a.toIntArray().syncOn(first));
      assertArrayEquals(filled(40, 1), b.toIntArray().syncOn(second));
    }
  }

  /**
   * The reference's {@code new_stream_during_capture_on_another_thread} (a regression of {@code
   * cuCtxSynchronize}).
   *
   * @throws Exception if the capturing thread fails or does not finish within {@link
   *     #THREAD_TIMEOUT}, or this thread is interrupted while it waits
   */
  @Test
  default void anotherThreadCreatesAStreamWhileThisOneCaptures() throws Exception {
    try (ConformanceSession session = openSession()) {
      Stream stream = session.stream();
      DeviceBuffer<Integer> counter =
          session.own(DeviceBuffer.zeros(ElementType.I32, 40).syncOn(stream));
      CountDownLatch capturing = new CountDownLatch(1);
      CountDownLatch streamCreated = new CountDownLatch(1);
      CompletableFuture<CudaGraph<@Nullable Void>> capture =
          onNewThread(
              () ->
                  CudaGraph.scope(
                      stream,
                      s -> {
                        s.record(ConformanceKernels.inc(counter));
                        capturing.countDown();
                        await(streamCreated);
                        s.record(ConformanceKernels.inc(counter));
                      }));
      assertTrue(
          capturing.await(THREAD_TIMEOUT.toSeconds(), TimeUnit.SECONDS),
          "the capture did not start");
      Stream created;
      try {
        created = session.newStream();
      } finally {
        streamCreated.countDown();
      }
      try (CudaGraph<@Nullable Void> graph =
          capture.get(THREAD_TIMEOUT.toSeconds(), TimeUnit.SECONDS)) {
        assertEquals(2, graph.nodeCount());
        graph.launch().syncOn(created);
      }
      assertArrayEquals(
          filled(40, 2), counter.toIntArray().syncOn(created), "the new stream runs work");
    }
  }

  // ---- helpers

  /**
   * Runs {@code nested} inside a scope on the session's stream: it must fail with {@link
   * ReentrantExecutionException} before reaching the driver, and leave nothing behind.
   */
  private static void assertNestedExecutionRejected(ConformanceSession session, Runnable nested) {
    InstrumentedDriver driver = session.driver();
    CudaPlatform platform = session.platform();
    long synchronizations = driver.calls().count(DriverCall.STREAM_SYNCHRONIZE);
    assertThrows(
        ReentrantExecutionException.class,
        () ->
            platform.runAsCurrent(
                () -> CudaGraph.scope(session.stream(), s -> nested.run()).close()));
    assertEquals(
        synchronizations,
        driver.calls().count(DriverCall.STREAM_SYNCHRONIZE),
        "the rejected op must not reach the driver");
    assertEquals(0, driver.ledger().live(HandleKind.GRAPH), "the scope's graph must be destroyed");
    assertEquals(Map.of(), driver.capturingStreams());
    assertFalse(DeviceOp.isExecuting());
    assertEquals(
        7,
        DeviceOp.value(7).syncOn(session.stream()),
        "the stream and the lock must be usable again");
  }

  private static void assertStreamUsable(
      ConformanceSession session, DeviceBuffer<Integer> counter, int expected) {
    assertEquals(Map.of(), session.driver().capturingStreams(), "the capture must have ended");
    assertFalse(DeviceOp.isExecuting(), "the lock must be released");
    assertEquals(
        0,
        session.driver().ledger().live(HandleKind.GRAPH),
        "the failed scope's graph must be destroyed");
    int[] values =
        ConformanceKernels.inc(counter).andThen(counter.toIntArray()).syncOn(session.stream());
    assertArrayEquals(
        filled((int) counter.length(), expected),
        values,
        "the stream must run new work, and the failed scope's recorded work must never have run");
  }

  private static CudaGraph<@Nullable Void> captureWhileOtherCaptures(
      Stream stream, DeviceBuffer<Integer> counter, int value, CyclicBarrier bothCapturing) {
    AtomicReference<@Nullable Integer> recorded = new AtomicReference<>();
    CudaGraph<@Nullable Void> graph =
        CudaGraph.scope(
            stream,
            s -> {
              recorded.set(s.record(DeviceOp.value(value)));
              await(bothCapturing);
              sleepBriefly();
              s.record(ConformanceKernels.inc(counter));
            });
    assertEquals(value, recorded.get());
    return graph;
  }

  private static <T> CompletableFuture<T> onNewThread(Supplier<T> body) {
    CompletableFuture<T> result = new CompletableFuture<>();
    Thread.ofPlatform()
        .name("conformance-capture")
        .start(
            () -> {
              try {
                result.complete(body.get());
              } catch (Throwable t) {
                result.completeExceptionally(t);
              }
            });
    return result;
  }

  private static void await(CountDownLatch latch) {
    try {
      if (!latch.await(THREAD_TIMEOUT.toSeconds(), TimeUnit.SECONDS)) {
        throw new AssertionError("timed out waiting for the other thread");
      }
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new AssertionError(e);
    }
  }

  private static void await(CyclicBarrier barrier) {
    try {
      barrier.await(THREAD_TIMEOUT.toSeconds(), TimeUnit.SECONDS);
    } catch (Exception e) {
      throw new AssertionError("the two captures did not overlap", e);
    }
  }

  /** The reference sleeps 50 ms inside each capture, so that the two overlap for a while. */
  private static void sleepBriefly() {
    try {
      Thread.sleep(50);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new AssertionError(e);
    }
  }

  private static int[] filled(int length, int value) {
    int[] a = new int[length];
    Arrays.fill(a, value);
    return a;
  }
}
