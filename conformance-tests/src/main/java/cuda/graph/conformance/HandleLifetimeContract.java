// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 the cuda-graph authors
package cuda.graph.conformance;

import static org.apiguardian.api.API.Status.EXPERIMENTAL;
import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import cuda.graph.CudaGraph;
import cuda.graph.DeviceBuffer;
import cuda.graph.ElementType;
import cuda.graph.GraphLaunch;
import cuda.graph.Stream;
import cuda.graph.conformance.arbitraries.LifetimeScripts;
import cuda.graph.conformance.arbitraries.LifetimeStep;
import cuda.graph.conformance.kernels.ConformanceKernels;
import cuda.graph.spi.HandleKind;
import cuda.graph.testkit.HandleLedger;
import cuda.graph.testkit.InstrumentedDriver;
import java.util.Arrays;
import java.util.List;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.Example;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.Provide;
import org.apiguardian.api.API;
import org.jspecify.annotations.Nullable;

/**
 * Handle lifetimes of graphs, launches and the buffers they captured: whatever a program does in
 * whatever order, every exec and graph is destroyed exactly once (a second destroy is refused by
 * the {@link InstrumentedDriver}), never used after it was destroyed (refused too), only once no
 * graph or launch needs it, and captured buffers stay allocated as long as a graph or launch needs
 * them. At the end nothing is alive.
 *
 * <p>Every test here is a jqwik property or {@code @Example}, so one jqwik {@code @Tag} on the
 * implementing class tags them all.
 *
 * @since 0.1.0
 */
@API(status = EXPERIMENTAL, since = "0.1.0")
public interface HandleLifetimeContract extends ConformanceContract {

  /** {@return the scripts the lifetime property runs: 1 to 16 steps} */
  @Provide
  default Arbitrary<List<LifetimeStep>> lifetimeScripts() {
    return LifetimeScripts.scripts(16);
  }

  /**
   * 150 tries of up to 16 steps of 8 kinds (captures, launch creation, graph close, launch
   * execution, buffer close, dropped launches and buffers, garbage collection): enough for scripts
   * where launches outlive their graph and buffers are closed or dropped while captured, on every
   * run. The model and the ledger are compared after every step.
   *
   * @param script the steps run in order against one session, then checked for leaks
   */
  @Property(tries = 150)
  default void everyExecAndGraphIsDestroyedOnceAfterItsLastOwnerWhateverTheOrder(
      @ForAll("lifetimeScripts") List<LifetimeStep> script) {
    try (ConformanceSession session = openSession()) {
      new LifetimeRun(session).run(script);
    }
  }

  /** The reference's own bug: {@code launch = graph.launch(); graph.close(); launch.syncOn(s)}. */
  @Example
  default void aLaunchReplaysAfterItsGraphIsClosedAndTheExecIsDestroyedOnceAfterIt() {
    try (ConformanceSession session = openSession()) {
      Stream stream = session.stream();
      HandleLedger ledger = session.driver().ledger();
      DeviceBuffer<Integer> counter =
          session.own(DeviceBuffer.zeros(ElementType.I32, 50).syncOn(stream));
      CudaGraph<@Nullable Void> graph = CudaGraph.capture(stream, ConformanceKernels.inc(counter));
      GraphLaunch launch = graph.launch();
      graph.close();
      assertEquals(
          1, ledger.live(HandleKind.GRAPH_EXEC), "the unexecuted launch must keep the exec alive");

      launch.syncOn(stream);

      assertArrayEquals(
          filled(50, 1),
          counter.toIntArray().syncOn(stream),
          "the launch must have replayed the graph");
      assertEquals(1, ledger.created(HandleKind.GRAPH_EXEC));
      assertEquals(
          1,
          ledger.destroyed(HandleKind.GRAPH_EXEC),
          "the exec goes once its last owner's work is done");
      assertEquals(1, ledger.destroyed(HandleKind.GRAPH), "and its graph with it");
    }
  }

  /** A buffer closed while a graph holds it is freed only when the graph goes. */
  @Example
  default void aBufferClosedWhileCapturedStaysAllocatedUntilItsGraphIsClosed() {
    try (ConformanceSession session = openSession()) {
      Stream stream = session.stream();
      HandleLedger ledger = session.driver().ledger();
      DeviceBuffer<Integer> counter = DeviceBuffer.zeros(ElementType.I32, 50).syncOn(stream);
      DeviceBuffer<Integer> witness =
          session.own(DeviceBuffer.zeros(ElementType.I32, 50).syncOn(stream));
      long memory = ledger.live(HandleKind.DEVICE_MEMORY);
      try (CudaGraph<@Nullable Void> graph =
          CudaGraph.capture(
              stream, ConformanceKernels.inc(counter).andThen(witness.copyFrom(counter)))) {
        counter.close();
        assertEquals(
            memory,
            ledger.live(HandleKind.DEVICE_MEMORY),
            "the graph must keep the closed buffer allocated");
        graph.launch().syncOn(stream);
        graph.launch().syncOn(stream);
        assertArrayEquals(
            filled(50, 2),
            witness.toIntArray().syncOn(stream),
            "replays must still use the closed buffer");
      }
      assertEquals(
          memory - 1,
          ledger.live(HandleKind.DEVICE_MEMORY),
          "closing the graph must free the closed buffer");
    }
  }

  /**
   * An unexecuted launch that becomes unreachable gives its share back through the cleaner.
   *
   * @throws InterruptedException if the thread is interrupted while it waits for the collection
   */
  @Example
  default void anUnreachableLaunchOfAClosedGraphReleasesTheExecWhenCollected()
      throws InterruptedException {
    try (ConformanceSession session = openSession()) {
      Stream stream = session.stream();
      HandleLedger ledger = session.driver().ledger();
      DeviceBuffer<Integer> counter =
          session.own(DeviceBuffer.zeros(ElementType.I32, 8).syncOn(stream));
      CudaGraph<@Nullable Void> graph = CudaGraph.capture(stream, ConformanceKernels.inc(counter));
      makeAndDropLaunch(graph);
      graph.close();
      long deadline = System.nanoTime() + LifetimeRun.COLLECT_TIMEOUT_MILLIS * 1_000_000;
      while (ledger.live(HandleKind.GRAPH_EXEC) != 0 && System.nanoTime() < deadline) {
        System.gc();
        Thread.sleep(LifetimeRun.POLL_MILLIS);
      }
      assertEquals(
          0,
          ledger.live(HandleKind.GRAPH_EXEC),
          "the cleaner must release the dropped launch's share");
      assertEquals(1, ledger.destroyed(HandleKind.GRAPH_EXEC), "exactly once");
      assertArrayEquals(
          filled(8, 0), counter.toIntArray().syncOn(stream), "the dropped launch never ran");
      assertTrue(
          session.driver().violations().isEmpty(),
          () -> "violations: " + session.driver().violations());
    }
  }

  private static void makeAndDropLaunch(CudaGraph<@Nullable Void> graph) {
    graph.launch();
  }

  private static int[] filled(int length, int value) {
    int[] a = new int[length];
    Arrays.fill(a, value);
    return a;
  }
}
