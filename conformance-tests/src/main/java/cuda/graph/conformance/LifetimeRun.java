// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 the cuda-graph authors
package cuda.graph.conformance;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import cuda.graph.CudaGraph;
import cuda.graph.DeviceBuffer;
import cuda.graph.DeviceOp;
import cuda.graph.ElementType;
import cuda.graph.GraphLaunch;
import cuda.graph.Stream;
import cuda.graph.conformance.arbitraries.LifetimeScripts;
import cuda.graph.conformance.arbitraries.LifetimeStep;
import cuda.graph.conformance.kernels.ConformanceKernels;
import cuda.graph.spi.HandleKind;
import cuda.graph.testkit.HandleLedger;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.function.Predicate;
import org.jspecify.annotations.Nullable;

/**
 * Runs one lifetime script against a model of what must be alive, checking after every step that
 * the ledger agrees: an exec (and its graph) is alive exactly while its graph is open or a launch
 * of it is held unexecuted; a counter's memory is alive while it is open and referenced or a live
 * exec captured it; open counters hold the number of replays of the graphs that captured them.
 * Dropped references count as possibly alive until a {@link LifetimeStep.Collect} has let the
 * cleaners run.
 *
 * <p>Each step runs in its own method, so no local variable keeps a dropped object reachable.
 */
final class LifetimeRun {

  /**
   * How long {@link #collect()} waits for cleaners, in total, polling in steps of {@link
   * #POLL_MILLIS}.
   */
  static final long COLLECT_TIMEOUT_MILLIS = 5_000;

  static final long POLL_MILLIS = 10;

  private static final int LENGTH = 33;

  private static final class Counter {
    final int index;
    @Nullable DeviceBuffer<Integer> buffer;
    boolean closed;
    boolean dropped;
    int replays;

    Counter(int index, DeviceBuffer<Integer> buffer) {
      this.index = index;
      this.buffer = buffer;
    }

    boolean held() {
      return buffer != null && !closed;
    }
  }

  private static final class Graph {
    final CudaGraph<@Nullable Void> graph;
    final Counter counter;
    boolean closed;

    Graph(CudaGraph<@Nullable Void> graph, Counter counter) {
      this.graph = graph;
      this.counter = counter;
    }
  }

  private static final class Launch {
    @Nullable GraphLaunch launch;
    final Graph graph;
    boolean executed;

    /** Dropped unexecuted, and not yet known to be collected. */
    boolean pendingCollection;

    Launch(GraphLaunch launch, Graph graph) {
      this.launch = launch;
      this.graph = graph;
    }
  }

  private final ConformanceSession session;
  private final Stream stream;
  private final HandleLedger ledger;
  private final List<Counter> counters = new ArrayList<>();
  private final List<Graph> graphs = new ArrayList<>();
  private final List<Launch> launches = new ArrayList<>();
  private int captureAttempts;

  LifetimeRun(ConformanceSession session) {
    this.session = session;
    this.stream = session.stream();
    this.ledger = session.driver().ledger();
    for (int i = 0; i < LifetimeScripts.BUFFERS; i++) {
      counters.add(new Counter(i, DeviceBuffer.zeros(ElementType.I32, LENGTH).syncOn(stream)));
    }
  }

  void run(List<LifetimeStep> script) {
    verify("at the start");
    for (int i = 0; i < script.size(); i++) {
      LifetimeStep step = script.get(i);
      apply(step);
      verify("after step " + i + ", " + step);
    }
    finish();
  }

  private void apply(LifetimeStep step) {
    switch (step) {
      case LifetimeStep.Capture c -> capture(counters.get(c.buffer()));
      case LifetimeStep.MakeLaunch m -> {
        if (!graphs.isEmpty()) {
          makeLaunch(graphs.get(m.graph() % graphs.size()));
        }
      }
      case LifetimeStep.ExecuteLaunch e -> {
        if (!launches.isEmpty()) {
          execute(launches.get(e.launch() % launches.size()));
        }
      }
      case LifetimeStep.CloseGraph c -> {
        if (!graphs.isEmpty()) {
          Graph g = graphs.get(c.graph() % graphs.size());
          g.graph.close();
          g.closed = true;
        }
      }
      case LifetimeStep.CloseBuffer c -> closeCounter(counters.get(c.buffer()));
      case LifetimeStep.DropLaunch d -> {
        if (!launches.isEmpty()) {
          Launch l = launches.get(d.launch() % launches.size());
          if (l.launch != null) {
            l.launch = null;
            l.pendingCollection = !l.executed;
          }
        }
      }
      case LifetimeStep.DropBuffer d -> {
        Counter c = counters.get(d.buffer());
        if (c.buffer != null) {
          c.buffer = null;
          c.dropped = !c.closed;
        }
      }
      case LifetimeStep.Collect ignored -> collect();
    }
  }

  private void capture(Counter counter) {
    DeviceBuffer<Integer> buffer = counter.buffer;
    if (buffer == null) {
      return; // nothing to capture: the program no longer holds the buffer
    }
    captureAttempts++;
    if (counter.closed) {
      assertThrows(
          IllegalStateException.class,
          () -> CudaGraph.capture(stream, ConformanceKernels.inc(buffer)),
          "capturing a closed buffer must fail");
      assertFalse(DeviceOp.isExecuting(), "a failed capture must release the execution lock");
      return;
    }
    graphs.add(new Graph(CudaGraph.capture(stream, ConformanceKernels.inc(buffer)), counter));
  }

  private void makeLaunch(Graph graph) {
    if (graph.closed) {
      assertThrows(
          IllegalStateException.class,
          graph.graph::launch,
          "a closed graph must refuse new launches");
      return;
    }
    launches.add(new Launch(graph.graph.launch(), graph));
  }

  private void execute(Launch launch) {
    GraphLaunch op = launch.launch;
    if (op == null) {
      return; // dropped
    }
    if (launch.executed) {
      assertThrows(IllegalStateException.class, () -> op.syncOn(stream), "a launch executes once");
      return;
    }
    op.syncOn(stream);
    launch.executed = true;
    launch.graph.counter.replays++;
  }

  private void closeCounter(Counter counter) {
    DeviceBuffer<Integer> buffer = counter.buffer;
    if (buffer != null) {
      buffer.close();
      counter.closed = true;
    }
  }

  /**
   * Collects garbage until the ledger shows exactly what must be alive, then marks as collected the
   * dropped objects whose release that proves: a dropped launch whose graph no longer needs to be
   * alive, a dropped buffer whose memory no longer needs to be. A dropped launch of a graph that is
   * still open (or a dropped buffer a live graph captured) stays "possibly alive", since nothing
   * observable yet tells whether its cleaner ran.
   */
  private void collect() {
    long deadline = System.nanoTime() + COLLECT_TIMEOUT_MILLIS * 1_000_000;
    do {
      System.gc();
      sleep();
    } while (!collected() && System.nanoTime() < deadline);
    assertTrue(
        collected(),
        () ->
            "the cleaners of dropped launches and buffers did not release them within "
                + COLLECT_TIMEOUT_MILLIS
                + " ms: execs "
                + ledger.live(HandleKind.GRAPH_EXEC)
                + " (expected "
                + count(graphs, this::execSurelyAlive)
                + "), device memory "
                + ledger.live(HandleKind.DEVICE_MEMORY)
                + " (expected "
                + count(counters, this::memorySurelyAlive)
                + ")");
    for (Launch l : launches) {
      if (l.pendingCollection && !execSurelyAlive(l.graph)) {
        l.pendingCollection = false;
      }
    }
    for (Counter c : counters) {
      if (c.dropped && !memorySurelyAlive(c)) {
        c.dropped = false;
        c.closed = true;
      }
    }
  }

  private boolean collected() {
    return ledger.live(HandleKind.GRAPH_EXEC) == count(graphs, this::execSurelyAlive)
        && ledger.live(HandleKind.DEVICE_MEMORY) == count(counters, this::memorySurelyAlive);
  }

  /**
   * Closes everything the script left open, collects, and checks every exec and graph was destroyed
   * once.
   */
  private void finish() {
    for (Graph g : graphs) {
      g.graph.close();
      g.closed = true;
    }
    for (Launch l : launches) {
      if (l.launch != null) {
        l.launch = null;
        l.pendingCollection = !l.executed;
      }
    }
    for (Counter c : counters) {
      closeCounter(c);
    }
    collect();
    verify("at the end");
    assertEquals(
        graphs.size(), ledger.created(HandleKind.GRAPH_EXEC), "one exec per successful capture");
    assertEquals(
        ledger.created(HandleKind.GRAPH_EXEC),
        ledger.destroyed(HandleKind.GRAPH_EXEC),
        "every exec destroyed once");
    assertEquals(
        captureAttempts,
        ledger.created(HandleKind.GRAPH),
        "one graph per capture that reached its end");
    assertEquals(
        ledger.created(HandleKind.GRAPH),
        ledger.destroyed(HandleKind.GRAPH),
        "every graph destroyed once");
    assertEquals(0, ledger.live(HandleKind.DEVICE_MEMORY), "every counter freed");
  }

  // ---- the model

  private boolean execSurelyAlive(Graph g) {
    return !g.closed
        || launches.stream().anyMatch(l -> l.graph == g && l.launch != null && !l.executed);
  }

  private boolean execPossiblyAlive(Graph g) {
    return execSurelyAlive(g)
        || launches.stream().anyMatch(l -> l.graph == g && l.pendingCollection);
  }

  private boolean memorySurelyAlive(Counter c) {
    return c.held() || graphs.stream().anyMatch(g -> g.counter == c && execSurelyAlive(g));
  }

  private boolean memoryPossiblyAlive(Counter c) {
    return c.held()
        || c.dropped
        || graphs.stream().anyMatch(g -> g.counter == c && execPossiblyAlive(g));
  }

  private void verify(String when) {
    assertEquals(
        List.of(), session.driver().violations(), () -> "driver contract violations " + when);
    assertFalse(DeviceOp.isExecuting(), () -> "the execution lock must be free " + when);
    assertBetween(
        "execs",
        count(graphs, this::execSurelyAlive),
        ledger.live(HandleKind.GRAPH_EXEC),
        count(graphs, this::execPossiblyAlive),
        when);
    assertBetween(
        "graphs",
        count(graphs, this::execSurelyAlive),
        ledger.live(HandleKind.GRAPH),
        count(graphs, this::execPossiblyAlive),
        when);
    assertBetween(
        "counters' device memory",
        count(counters, this::memorySurelyAlive),
        ledger.live(HandleKind.DEVICE_MEMORY),
        count(counters, this::memoryPossiblyAlive),
        when);
    for (Counter c : counters) {
      DeviceBuffer<Integer> buffer = c.buffer;
      if (buffer != null && !c.closed) {
        int[] expected = new int[LENGTH];
        Arrays.fill(expected, c.replays);
        int[] actual = buffer.toIntArray().syncOn(stream);
        assertEquals(
            Arrays.toString(expected),
            Arrays.toString(actual),
            () ->
                "counter "
                    + c.index
                    + " must count the replays of the graphs that captured it, "
                    + when);
      }
    }
  }

  private static void assertBetween(String what, long min, long actual, long max, String when) {
    assertTrue(
        min <= actual && actual <= max,
        () ->
            "live "
                + what
                + " "
                + when
                + ": "
                + actual
                + ", expected "
                + (min == max ? min : min + " to " + max));
  }

  private static <T> long count(List<T> items, Predicate<T> predicate) {
    return items.stream().filter(predicate).count();
  }

  private static void sleep() {
    try {
      Thread.sleep(POLL_MILLIS);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new AssertionError("interrupted while waiting for cleaners", e);
    }
  }
}
