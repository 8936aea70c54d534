// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 the cuda-graph authors
package cuda.graph.conformance;

import static org.apiguardian.api.API.Status.EXPERIMENTAL;
import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

import cuda.graph.CudaDriverError;
import cuda.graph.CudaGraph;
import cuda.graph.DeviceBuffer;
import cuda.graph.DeviceOp;
import cuda.graph.ElementType;
import cuda.graph.GraphCaptureException;
import cuda.graph.GraphNode;
import cuda.graph.Stream;
import cuda.graph.conformance.arbitraries.CaptureFault;
import cuda.graph.conformance.arbitraries.CaptureFault.EndCapture;
import cuda.graph.conformance.arbitraries.CaptureFault.Point;
import cuda.graph.conformance.arbitraries.OpSequence;
import cuda.graph.conformance.arbitraries.OpSequences;
import cuda.graph.conformance.arbitraries.Workspace;
import cuda.graph.conformance.arbitraries.WorkspaceState;
import cuda.graph.conformance.kernels.ConformanceKernels;
import cuda.graph.spi.DriverCall;
import cuda.graph.spi.HandleKind;
import cuda.graph.testkit.FaultPlan;
import cuda.graph.testkit.HandleLedger;
import cuda.graph.testkit.InstrumentedDriver;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.Example;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.Provide;
import org.apiguardian.api.API;
import org.jspecify.annotations.Nullable;

/**
 * The capture-failure matrix: whatever fails during {@link CudaGraph#capture}, the right exception
 * surfaces and nothing is left behind.
 *
 * <p>For a random sequence of graph-node steps and a random failure point (the op fails with a
 * driver error, a {@code RuntimeException} or an {@code Error}, alone or together with a failing or
 * graph-less end of capture; or begin-capture, end-capture, instantiate, upload or the final
 * synchronize fails; or end-capture returns no graph), it checks what the reference's matrix
 * prescribes: the op's own failure wins (an end-capture failure rides along as suppressed); a
 * failing end surfaces as {@link CudaDriverError} of {@code cuStreamEndCapture}; no graph as {@link
 * GraphCaptureException}; a failing protocol step as that step's {@link CudaDriverError}. And
 * afterwards: the stream is not capturing and runs new work correctly, the execution lock is free,
 * nothing ran on the device, no graph or exec handle is alive, and every injected fault fired.
 *
 * <p>The same sequences, without failures, must replay exactly as their eager execution computes;
 * and ops that cannot be part of a graph (allocation, free, a graph launch) are refused before they
 * reach the driver.
 *
 * <p>Every test here is a jqwik property or {@code @Example}, so one jqwik {@code @Tag} on the
 * implementing class tags them all.
 *
 * @since 0.1.0
 */
@API(status = EXPERIMENTAL, since = "0.1.0")
public interface CaptureFailureContract extends ConformanceContract {

  /** {@return the sequences the properties capture: 1 to 6 steps} */
  @Provide
  default Arbitrary<OpSequence> opSequences() {
    return OpSequences.sequences(1, 6);
  }

  /** {@return the failures to inject} */
  @Provide
  default Arbitrary<CaptureFault> captureFaults() {
    return CaptureFault.faults();
  }

  /**
   * 15 kinds of failure (3 op failures x 3 end-capture outcomes, and 6 protocol steps) over
   * sequences of 1 to 6 steps of 5 kinds: 300 tries give every kind of failure about 20 tries, with
   * the failing step at varying positions. Each try opens a fresh driver.
   *
   * @param sequence the steps the captured op runs
   * @param fault what fails and where; its step is taken modulo the sequence's size
   */
  @Property(tries = 300)
  default void aFailedCaptureSurfacesTheMatrixExceptionAndLeavesTheStreamUsable(
      @ForAll("opSequences") OpSequence sequence, @ForAll("captureFaults") CaptureFault fault) {
    try (ConformanceSession session = openSession()) {
      Stream stream = session.stream();
      InstrumentedDriver driver = session.driver();
      Workspace workspace = session.own(Workspace.allocate(stream));
      DeviceBuffer<Integer> probe =
          session.own(DeviceBuffer.zeros(ElementType.I32, Workspace.LENGTH).syncOn(stream));
      int step = fault.step() % sequence.size();
      Throwable hostFailure =
          switch (fault.point()) {
            case OP_RUNTIME_EXCEPTION ->
                new InjectedException("thrown by the op after step " + step);
            case OP_ERROR -> new InjectedError("thrown by the op after step " + step);
            default -> null;
          };
      GraphNode<@Nullable Void> op =
          hostFailure == null
              ? sequence.node(workspace)
              : sequence.node(workspace, step, () -> sneakyThrow(hostFailure));
      arm(driver.faults(), sequence, fault, step);
      driver.calls().clear();

      Throwable thrown = captureExpectingFailure(stream, op);

      assertSurfaced(fault, sequence, step, hostFailure, thrown);
      if (fault.point() == Point.BEGIN_CAPTURE) {
        assertEquals(
            0,
            driver.calls().count(DriverCall.LAUNCH_KERNEL)
                + driver.calls().count(DriverCall.MEMSET_D32_ASYNC)
                + driver.calls().count(DriverCall.MEMCPY_DTOD_ASYNC),
            "the op must not run when the capture could not begin");
      }
      assertEquals(
          List.of(), driver.faults().pending(), "every injected fault must have been reached");
      assertNothingLeftBehind(session, workspace, probe);
    }
  }

  /**
   * The happy path of the same sequences: 60 tries of up to 6 steps. Eager execution must match the
   * Java model, capture must record without running, and each replay must compute what the eager
   * execution computed.
   *
   * @param sequence the steps run eagerly on one workspace and captured over another
   */
  @Property(tries = 60)
  default void aCapturedSequenceReplaysExactlyAsItsEagerExecutionComputes(
      @ForAll("opSequences") OpSequence sequence) {
    try (ConformanceSession session = openSession()) {
      Stream stream = session.stream();
      Workspace eager = session.own(Workspace.allocate(stream));
      Workspace replayed = session.own(Workspace.allocate(stream));
      WorkspaceState once = sequence.applyTo(WorkspaceState.initial());

      sequence.node(eager).syncOn(stream);
      WorkspaceState eagerState = eager.read(stream);
      assertEquals(once, eagerState, "eager execution must compute what the Java model computes");

      try (CudaGraph<@Nullable Void> graph = CudaGraph.capture(stream, sequence.node(replayed))) {
        assertEquals(
            WorkspaceState.initial(),
            replayed.read(stream),
            "capture must record the work, not run it");
        assertEquals(sequence.size(), graph.nodeCount(), "one graph node per step");
        graph.launch().syncOn(stream);
        assertEquals(
            eagerState,
            replayed.read(stream),
            "one replay must compute what one eager execution computed");
        graph.launch().syncOn(stream);
        assertEquals(
            sequence.applyTo(once),
            replayed.read(stream),
            "a second replay must run the sequence again");
      }
      HandleLedger ledger = session.driver().ledger();
      assertEquals(
          0, ledger.live(HandleKind.GRAPH_EXEC), "closing the graph must destroy its exec");
      assertEquals(0, ledger.live(HandleKind.GRAPH), "closing the graph must destroy it");
      assertEquals(1, ledger.created(HandleKind.GRAPH_EXEC), "one capture, one exec");
    }
  }

  /** The design's rule beyond the reference: capture refuses allocation, not only {@code scope}. */
  @Example
  default void allocatingInsideACaptureIsRefusedBeforeItReachesTheDriver() {
    try (ConformanceSession session = openSession()) {
      InstrumentedDriver driver = session.driver();
      long allocations = driver.calls().count(DriverCall.MEM_ALLOC_ASYNC);

      Throwable thrown =
          captureExpectingFailure(session.stream(), DeviceBuffer.zeros(ElementType.F32, 4));

      assertInstanceOf(GraphCaptureException.class, thrown);
      assertEquals(
          allocations,
          driver.calls().count(DriverCall.MEM_ALLOC_ASYNC),
          "the allocation must not reach the driver");
      assertEquals(Map.of(), driver.capturingStreams());
      assertEquals(0, driver.ledger().live(HandleKind.GRAPH));
      assertFalse(DeviceOp.isExecuting());
    }
  }

  /**
   * A stream-ordered free is refused inside a capture with {@link GraphCaptureException}: the
   * buffer stays open and usable, and no graph is left alive.
   */
  @Example
  default void freeingInsideACaptureIsRefusedAndLeavesTheBufferUsable() {
    try (ConformanceSession session = openSession()) {
      Stream stream = session.stream();
      DeviceBuffer<Integer> buffer =
          session.own(DeviceBuffer.zeros(ElementType.I32, 8).syncOn(stream));

      Throwable thrown = captureExpectingFailure(stream, buffer.free());

      assertInstanceOf(GraphCaptureException.class, thrown);
      assertFalse(buffer.isClosed(), "the refused free must not close the buffer");
      assertArrayEquals(
          new int[] {1, 1, 1, 1, 1, 1, 1, 1},
          ConformanceKernels.inc(buffer).andThen(buffer.toIntArray()).syncOn(stream));
      assertEquals(0, session.driver().ledger().live(HandleKind.GRAPH));
    }
  }

  /**
   * {@code cuGraphLaunch} into a capturing stream fails on the driver: the API refuses it first.
   */
  @Example
  default void launchingAGraphInsideAnotherCaptureIsRefusedBeforeItReachesTheDriver() {
    try (ConformanceSession session = openSession()) {
      Stream stream = session.stream();
      InstrumentedDriver driver = session.driver();
      DeviceBuffer<Integer> counter =
          session.own(DeviceBuffer.zeros(ElementType.I32, 8).syncOn(stream));
      try (CudaGraph<@Nullable Void> inner =
          CudaGraph.capture(stream, ConformanceKernels.inc(counter))) {
        Throwable thrown = captureExpectingFailure(stream, inner.launch());

        assertInstanceOf(GraphCaptureException.class, thrown);
        assertEquals(
            0,
            driver.calls().count(DriverCall.GRAPH_LAUNCH),
            "the launch must not reach the driver");
        assertEquals(Map.of(), driver.capturingStreams());
        assertEquals(
            1, driver.ledger().live(HandleKind.GRAPH_EXEC), "only the inner graph's exec is alive");
        inner.launch().syncOn(stream);
      }
      assertArrayEquals(new int[] {1, 1, 1, 1, 1, 1, 1, 1}, counter.toIntArray().syncOn(stream));
      // The refused launch was consumed without running: only the cleaner gives its share of the
      // exec back.
      awaitCollected(driver.ledger(), HandleKind.GRAPH_EXEC);
    }
  }

  // ---- the protocol

  private static void arm(FaultPlan faults, OpSequence sequence, CaptureFault fault, int step) {
    int status = fault.status();
    switch (fault.point()) {
      case OP_DRIVER_ERROR ->
          faults.failNth(
              sequence.steps().get(step).driverCall(), sequence.callOrdinal(step), status);
      case OP_RUNTIME_EXCEPTION, OP_ERROR -> {}
      case BEGIN_CAPTURE -> faults.failNth(DriverCall.STREAM_BEGIN_CAPTURE, 1, status);
      case END_CAPTURE -> faults.failNth(DriverCall.STREAM_END_CAPTURE, 1, status);
      case END_CAPTURE_NO_GRAPH -> faults.endCaptureReturnsNoGraph();
      case INSTANTIATE -> faults.failNth(DriverCall.GRAPH_INSTANTIATE, 1, status);
      case UPLOAD -> faults.failNth(DriverCall.GRAPH_UPLOAD, 1, status);
      case SYNCHRONIZE -> faults.failNth(DriverCall.STREAM_SYNCHRONIZE, 1, status);
    }
    switch (fault.end()) {
      case SUCCEEDS -> {}
      case FAILS ->
          faults.failNth(DriverCall.STREAM_END_CAPTURE, 1, CaptureFault.END_CAPTURE_STATUS);
      case RETURNS_NO_GRAPH -> faults.endCaptureReturnsNoGraph();
    }
  }

  private static Throwable captureExpectingFailure(Stream stream, DeviceOp<?> op) {
    CudaGraph<?> graph;
    try {
      graph = CudaGraph.capture(stream, op);
    } catch (Throwable t) {
      return t;
    }
    graph.close();
    return fail("the capture succeeded although a failure was injected");
  }

  private static void assertSurfaced(
      CaptureFault fault,
      OpSequence sequence,
      int step,
      @Nullable Throwable hostFailure,
      Throwable thrown) {
    switch (fault.point()) {
      case OP_DRIVER_ERROR ->
          assertDriverError(
              sequence.steps().get(step).driverCall(),
              fault.status(),
              thrown,
              "the failing step's error must win");
      case OP_RUNTIME_EXCEPTION, OP_ERROR ->
          assertSame(hostFailure, thrown, "the op's own exception must propagate as itself");
      case BEGIN_CAPTURE ->
          assertDriverError(DriverCall.STREAM_BEGIN_CAPTURE, fault.status(), thrown, "");
      case END_CAPTURE ->
          assertDriverError(DriverCall.STREAM_END_CAPTURE, fault.status(), thrown, "");
      case END_CAPTURE_NO_GRAPH ->
          assertInstanceOf(
              GraphCaptureException.class, thrown, "a capture that ends without a graph");
      case INSTANTIATE ->
          assertDriverError(DriverCall.GRAPH_INSTANTIATE, fault.status(), thrown, "");
      case UPLOAD -> assertDriverError(DriverCall.GRAPH_UPLOAD, fault.status(), thrown, "");
      case SYNCHRONIZE ->
          assertDriverError(DriverCall.STREAM_SYNCHRONIZE, fault.status(), thrown, "");
    }
    if (fault.end() == EndCapture.FAILS) {
      boolean attached =
          Arrays.stream(thrown.getSuppressed())
              .anyMatch(
                  s ->
                      s instanceof CudaDriverError e
                          && e.call().equals(DriverCall.STREAM_END_CAPTURE.symbol())
                          && e.code() == CaptureFault.END_CAPTURE_STATUS);
      assertTrue(
          attached,
          () ->
              "the failure to end the capture must be attached to the op's failure as suppressed: "
                  + thrown);
    }
  }

  private static void assertDriverError(DriverCall call, int status, Throwable thrown, String why) {
    CudaDriverError error = assertInstanceOf(CudaDriverError.class, thrown, why);
    assertEquals(call.symbol(), error.call(), () -> "the failing call: " + thrown);
    assertEquals(status, error.code(), () -> "the injected status: " + thrown);
  }

  /**
   * After a failed capture: the stream is out of capture mode and runs new work correctly, the lock
   * is free, nothing ran on the device, and no graph or exec is alive.
   */
  private static void assertNothingLeftBehind(
      ConformanceSession session, Workspace workspace, DeviceBuffer<Integer> probe) {
    InstrumentedDriver driver = session.driver();
    Stream stream = session.stream();
    assertFalse(DeviceOp.isExecuting(), "the execution lock must be released");
    assertEquals(Map.of(), driver.capturingStreams(), "no stream may be left capturing");
    HandleLedger ledger = driver.ledger();
    assertEquals(
        0,
        ledger.live(HandleKind.GRAPH),
        () -> "no graph may survive a failed capture: " + ledger.describeLive(HandleKind.GRAPH));
    assertEquals(
        0,
        ledger.live(HandleKind.GRAPH_EXEC),
        () ->
            "no exec may survive a failed capture: " + ledger.describeLive(HandleKind.GRAPH_EXEC));
    int[] afterInc = ConformanceKernels.inc(probe).andThen(probe.toIntArray()).syncOn(stream);
    int[] ones = new int[Workspace.LENGTH];
    Arrays.fill(ones, 1);
    assertArrayEquals(ones, afterInc, "the stream must run new work correctly");
    assertEquals(
        WorkspaceState.initial(),
        workspace.read(stream),
        "a failed capture must not have run the op's work");
    assertEquals(List.of(), driver.violations(), "driver contract violations");
  }

  /**
   * Collects garbage until no handle of {@code kind} is alive, for at most 5 s; fails if one still
   * is.
   */
  private static void awaitCollected(HandleLedger ledger, HandleKind kind) {
    long deadline = System.nanoTime() + LifetimeRun.COLLECT_TIMEOUT_MILLIS * 1_000_000;
    while (ledger.live(kind) != 0 && System.nanoTime() < deadline) {
      System.gc();
      try {
        Thread.sleep(LifetimeRun.POLL_MILLIS);
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
        throw new AssertionError(e);
      }
    }
    assertEquals(
        0, ledger.live(kind), () -> "still alive after collection: " + ledger.describeLive(kind));
  }

  @SuppressWarnings("unchecked")
  private static <E extends Throwable> void sneakyThrow(Throwable t) throws E {
    throw (E) t;
  }
}
