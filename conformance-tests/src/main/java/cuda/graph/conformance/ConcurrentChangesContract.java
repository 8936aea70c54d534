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
import cuda.graph.GraphCondition;
import cuda.graph.HostBuffer;
import cuda.graph.RecordedNode;
import cuda.graph.Stream;
import cuda.graph.conformance.kernels.ConditionalKernels;
import cuda.graph.conformance.kernels.ConformanceKernels;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicReference;
import org.apiguardian.api.API;
import org.jspecify.annotations.Nullable;
import org.junit.jupiter.api.Test;

/**
 * One graph used from several threads at once: launches from many threads while others recapture it
 * (in place and anew), replace and switch its nodes, ask what it holds and update its input. CUDA
 * allows no two calls on one graph object at once, so the session's probe must count no overlapping
 * call; every launch must replay one whole capture, none may fail because another thread changed
 * the graph, and nothing is leaked. Each test runs a bounded number of rounds.
 *
 * @since 0.1.0
 */
@API(status = EXPERIMENTAL, since = "0.1.0")
public interface ConcurrentChangesContract extends ConformanceContract {

  /**
   * {@return how many rounds each thread of these tests runs}; small enough for a simulator build
   */
  default int rounds() {
    return 200;
  }

  /**
   * Four threads launch one graph while a fifth recaptures it, in place and anew by turns: every
   * capture increments the counter once, so the counter ends at exactly the number of launches, no
   * launch fails, and no two driver calls on the exec overlap. The launches share one stream: two
   * execs of one graph (before and after a new instantiation) may run at once on two streams, and
   * their plain increments would race on the device.
   */
  @Test
  default void launchesFromManyThreadsWhileAnotherRecapturesEachReplayOneWholeCapture() {
    try (ConformanceSession s = openSession()) {
      DeviceBuffer<Integer> counter =
          s.own(DeviceBuffer.zeros(ElementType.I32, 32).syncOn(s.stream()));
      DeviceBuffer<Integer> scratch =
          s.own(DeviceBuffer.zeros(ElementType.I32, 32).syncOn(s.stream()));
      int launchers = 4;
      int launches = rounds();
      try (CudaGraph<@Nullable Void> graph =
          CudaGraph.capture(s.stream(), ConformanceKernels.inc(counter))) {
        AtomicBoolean done = new AtomicBoolean();
        ConcurrentWorkers workers = new ConcurrentWorkers();
        Stream shared = s.newStream();
        for (int t = 0; t < launchers; t++) {
          workers.start(
              () -> {
                for (int i = 0; i < launches; i++) {
                  graph.launch().syncOn(shared);
                }
              });
        }
        workers.start(
            () -> {
              for (int i = 0; !done.get(); i++) {
                // Two of each shape in turn: in place within a shape, anew between shapes.
                if (i % 4 < 2) {
                  graph.recapture(scratch.fill(i).andThen(ConformanceKernels.inc(counter)));
                } else {
                  graph.recapture(ConformanceKernels.inc(counter));
                }
              }
            },
            done);
        workers.join(launchers);
      }
      int[] counts = counter.toIntArray().syncOn(s.stream());
      assertEquals(launchers * launches, counts[0], "every launch replayed exactly one increment");
      assertEquals(counts[0], counts[31]);
    }
  }

  /**
   * Queries of what a graph holds ({@code nodeCount}, {@code nodeKinds}) while another thread
   * recaptures it read only graphs that are alive: the instruments refuse a call on a destroyed
   * graph, and the answers are those of one capture or the other.
   */
  @Test
  default void queriesWhileAnotherThreadRecapturesReadOnlyLiveGraphs() {
    try (ConformanceSession s = openSession()) {
      DeviceBuffer<Integer> x = s.own(DeviceBuffer.zeros(ElementType.I32, 32).syncOn(s.stream()));
      DeviceBuffer<Integer> y = s.own(DeviceBuffer.zeros(ElementType.I32, 32).syncOn(s.stream()));
      try (CudaGraph<@Nullable Void> graph =
          CudaGraph.capture(s.stream(), ConformanceKernels.inc(x))) {
        AtomicBoolean done = new AtomicBoolean();
        ConcurrentWorkers workers = new ConcurrentWorkers();
        for (int t = 0; t < 2; t++) {
          workers.start(
              () -> {
                for (int i = 0; i < rounds() * 4; i++) {
                  int n = graph.nodeCount();
                  assertTrue(n == 1 || n == 2, "nodes: " + n);
                  assertTrue(graph.nodeKinds().size() <= 2);
                }
              });
        }
        workers.start(
            () -> {
              for (int i = 0; !done.get(); i++) {
                graph.recapture(
                    i % 3 == 0
                        ? ConformanceKernels.inc(x).andThen(ConformanceKernels.inc(y))
                        : ConformanceKernels.inc(i % 2 == 0 ? x : y));
              }
            },
            done);
        workers.join(2);
      }
    }
  }

  /**
   * An update (a copy of new input) made on one thread while another recaptures the graph on the
   * same stream waits for the capture to end: it is never recorded into the new capture (which
   * would repeat it on every launch and never run it), and it happens, once.
   */
  @Test
  default void anUpdateRacingARecaptureIsNeverRecordedIntoTheGraph() {
    try (ConformanceSession s = openSession()) {
      Stream stream = s.stream();
      DeviceBuffer<Integer> input = s.own(DeviceBuffer.zeros(ElementType.I32, 32).syncOn(stream));
      DeviceBuffer<Integer> counter = s.own(DeviceBuffer.zeros(ElementType.I32, 32).syncOn(stream));
      HostBuffer<Integer> fresh = s.own(s.device().allocateHost(ElementType.I32, 32));
      int[] values = new int[32];
      java.util.Arrays.fill(values, 7);
      fresh.write(values);
      try (CudaGraph<@Nullable Void> graph =
          CudaGraph.scope(stream, sc -> sc.record(ConformanceKernels.inc(counter)))) {
        for (int round = 0; round < Math.max(3, rounds() / 40); round++) {
          CountDownLatch capturing = new CountDownLatch(1);
          ConcurrentWorkers workers = new ConcurrentWorkers();
          workers.start(
              () -> {
                awaitQuietly(capturing);
                graph.update(input.copyFrom(fresh));
              });
          graph.recapture(
              sc -> {
                capturing.countDown();
                // Gives the update every chance to arrive while the stream captures.
                sleepQuietly(20);
                sc.record(ConformanceKernels.inc(counter));
              });
          workers.join(1);
          assertEquals(1, graph.nodeCount(), "the update's copy was recorded into the graph");
          stream.synchronize();
          assertArrayEquals(values, input.toIntArray().syncOn(stream));
          input.fill(0).syncOn(stream);
        }
      }
    }
  }

  /**
   * Node replacements, switching a node off and on, launches and recaptures of a scope with a
   * conditional body, all from different threads: changes of stale nodes are refused with their
   * message, nothing else fails, and no two calls on the exec overlap.
   */
  @Test
  default void replacementsSwitchesLaunchesAndRecapturesOfAConditionalGraphRunTogether() {
    try (ConformanceSession s = openSession()) {
      DeviceBuffer<Integer> flag = s.own(DeviceBuffer.fromArray(new int[] {1}).syncOn(s.stream()));
      DeviceBuffer<Integer> a = s.own(DeviceBuffer.zeros(ElementType.I32, 32).syncOn(s.stream()));
      DeviceBuffer<Integer> b = s.own(DeviceBuffer.zeros(ElementType.I32, 32).syncOn(s.stream()));
      DeviceBuffer<Integer> c = s.own(DeviceBuffer.zeros(ElementType.I32, 32).syncOn(s.stream()));
      AtomicReference<@Nullable RecordedNode> node = new AtomicReference<>();
      cuda.graph.ScopeBody body =
          sc -> {
            node.set(sc.recordNode(ConformanceKernels.inc(a)));
            GraphCondition cond = sc.condition(0);
            sc.record(ConditionalKernels.choose(flag, cond));
            sc.ifThen(cond, then -> then.record(ConformanceKernels.inc(b)));
          };
      AtomicInteger stale = new AtomicInteger();
      try (CudaGraph<@Nullable Void> graph = CudaGraph.scope(s.stream(), body)) {
        AtomicBoolean done = new AtomicBoolean();
        ConcurrentWorkers workers = new ConcurrentWorkers();
        Stream shared = s.newStream();
        for (int t = 0; t < 2; t++) {
          workers.start(
              () -> {
                for (int i = 0; i < rounds(); i++) {
                  graph.launch().syncOn(shared);
                }
              });
        }
        workers.start(() -> changeRepeatedly(graph, node, a, c, stale, done), done);
        workers.start(
            () -> {
              while (!done.get()) {
                graph.recapture(body);
              }
            },
            done);
        workers.join(2);
      }
      // Every launch ran the IF body once (the flag is 1), whichever capture it replayed.
      assertEquals(2 * rounds(), b.toIntArray().syncOn(s.stream())[0]);
    }
  }

  private static void changeRepeatedly(
      CudaGraph<@Nullable Void> graph,
      AtomicReference<@Nullable RecordedNode> node,
      DeviceBuffer<Integer> a,
      DeviceBuffer<Integer> other,
      AtomicInteger stale,
      AtomicBoolean done) {
    for (int i = 0; !done.get(); i++) {
      RecordedNode n = node.get();
      try {
        switch (i % 3) {
          case 0 -> graph.replaceNode(n, ConformanceKernels.inc(i % 2 == 0 ? a : other));
          case 1 -> graph.setEnabled(n, false);
          default -> graph.setEnabled(n, true);
        }
      } catch (IllegalStateException e) {
        // A recapture made the node stale between reading and using it: the documented refusal.
        if (!e.getMessage().contains("stale")) {
          throw e;
        }
        stale.incrementAndGet();
      }
    }
  }

  private static void awaitQuietly(CountDownLatch latch) {
    try {
      if (!latch.await(30, TimeUnit.SECONDS)) {
        throw new AssertionError("the capture never started");
      }
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new AssertionError(e);
    }
  }

  private static void sleepQuietly(long millis) {
    try {
      Thread.sleep(millis);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
  }
}
