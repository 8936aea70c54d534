// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 the cuda-graph authors
package cuda.graph;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import cuda.graph.spi.CuResult;
import cuda.graph.spi.DriverCall;
import cuda.graph.spi.HandleKind;
import java.lang.ref.Reference;
import java.time.Duration;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import org.jspecify.annotations.Nullable;
import org.junit.jupiter.api.Test;

/**
 * An {@code asyncOn} whose op (or the completion event it needs) fails on submission: the future is
 * failed by the time {@code asyncOn} returns, as the Rust crate's is, yet what the op leased stays
 * leased until the work it did enqueue has run, and is released then: nothing leaks, nothing is
 * freed under queued work.
 */
class SubmissionFailureTests extends InstrumentedPlatformFixture {

  private static final int N = 64;
  private static final Duration PATIENCE = Duration.ofSeconds(10);

  @Test
  void aFailedEventCreateFailsTheFutureAndStillReleasesTheBuffersTheOpLeased() throws Exception {
    DeviceBuffer<Integer> buffer = DeviceBuffer.zeros(ElementType.I32, N).syncOn(stream);
    simulator.faults().failNth(DriverCall.EVENT_CREATE, 1, CuResult.OUT_OF_MEMORY);

    CompletableFuture<@Nullable Void> future = buffer.fill(3).asyncOn(stream);

    ExecutionException e =
        assertThrows(ExecutionException.class, () -> future.get(10, TimeUnit.SECONDS));
    CudaDriverError cause = assertInstanceOf(CudaDriverError.class, e.getCause());
    assertEquals("cuEventCreate", cause.call());
    buffer.close();
    KernelFixtures.awaitTrue(
        () -> liveDeviceMemory() == 0, PATIENCE, "the fill's lease on the buffer is released");
  }

  @Test
  void aFailedEventCreateForAnAsyncGraphLaunchReleasesTheGraphItsExecAndTheirBuffers()
      throws Exception {
    Device device = platform.defaultDevice();
    DeviceBuffer<Integer> counter = DeviceBuffer.zeros(ElementType.I32, N).syncOn(stream);
    KernelFixtures.ADD_ONE.load(device);
    CudaGraph<@Nullable Void> graph =
        CudaGraph.capture(stream, KernelFixtures.ADD_ONE.launch(LaunchConfig.of(1, N), N, counter));
    GraphLaunch launch = graph.launch();
    graph.close();
    counter.close();
    simulator.faults().failNth(DriverCall.EVENT_CREATE, 1, CuResult.OUT_OF_MEMORY);

    CompletableFuture<@Nullable Void> future = launch.asyncOn(stream);

    ExecutionException e =
        assertThrows(ExecutionException.class, () -> future.get(10, TimeUnit.SECONDS));
    assertEquals("cuEventCreate", assertInstanceOf(CudaDriverError.class, e.getCause()).call());
    KernelFixtures.awaitTrue(
        () ->
            simulator.ledger().live(HandleKind.GRAPH_EXEC) == 0
                && simulator.ledger().live(HandleKind.GRAPH) == 0
                && liveDeviceMemory() == 0,
        PATIENCE,
        "the launch's share of the graph goes, and with it the exec, the graph and the buffer");
    Reference.reachabilityFence(launch);
  }

  @Test
  void aFutureWhoseOpFailsOnSubmissionIsDoneAtOnceButKeepsItsBuffersUntilTheQueuedWorkRan() {
    DeviceBuffer<Integer> buffer = DeviceBuffer.zeros(ElementType.I32, N).syncOn(stream);
    CountDownLatch gate = new CountDownLatch(1);
    IllegalStateException boom = new IllegalStateException("the op's own failure");

    CompletableFuture<Object> future =
        KernelFixtures.hold(gate)
            .andThen(buffer.fill(5))
            .map(
                ignored -> {
                  throw boom;
                })
            .asyncOn(stream);

    assertTrue(future.isDone(), "failed on submission, so done when asyncOn returns");
    CompletionException e = assertThrows(CompletionException.class, future::join);
    assertSame(boom, e.getCause());
    buffer.close();
    assertEquals(
        1, liveDeviceMemory(), "the fill is still queued behind the gate: it holds the buffer");

    gate.countDown();

    KernelFixtures.awaitTrue(
        () -> liveDeviceMemory() == 0, PATIENCE, "the buffer is freed once the fill has run");
  }

  @Test
  void aFailedEventRecordFailsTheFutureAtOnceAndReleasesWhatTheOpLeased() throws Exception {
    DeviceBuffer<Integer> buffer = DeviceBuffer.zeros(ElementType.I32, N).syncOn(stream);
    simulator.faults().failNth(DriverCall.EVENT_RECORD, 1, CuResult.INVALID_VALUE);

    CompletableFuture<@Nullable Void> future = buffer.fill(3).asyncOn(stream);

    assertTrue(future.isDone(), "the completion event could not be recorded: failed at once");
    ExecutionException e =
        assertThrows(ExecutionException.class, () -> future.get(10, TimeUnit.SECONDS));
    assertEquals("cuEventRecord", assertInstanceOf(CudaDriverError.class, e.getCause()).call());
    buffer.close();
    KernelFixtures.awaitTrue(
        () -> liveDeviceMemory() == 0, PATIENCE, "the fill's lease on the buffer is released");
  }
}
