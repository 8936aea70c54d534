// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 the cuda-graph authors
package cuda.graph.conformance;

import static org.apiguardian.api.API.Status.EXPERIMENTAL;
import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;

import cuda.graph.CudaGraph;
import cuda.graph.DeviceBuffer;
import cuda.graph.ElementType;
import cuda.graph.GraphCondition;
import cuda.graph.GraphLaunch;
import cuda.graph.GraphUpdate;
import cuda.graph.RecordedNode;
import cuda.graph.ScopeBody;
import cuda.graph.Stream;
import cuda.graph.conformance.kernels.ConditionalKernels;
import cuda.graph.conformance.kernels.ConformanceKernels;
import cuda.graph.spi.HandleKind;
import java.util.ArrayList;
import java.util.List;
import java.util.SplittableRandom;
import org.apiguardian.api.API;
import org.jspecify.annotations.Nullable;
import org.junit.jupiter.api.Test;

/**
 * A soak of one graph that keeps changing: random sequences of recaptures (in place and anew, with
 * and without a conditional body), node replacements, nodes switched off and on, launches made
 * before changes and executed after them, and flips of the device flag a conditional body tests.
 * After every launch the buffers must hold exactly what a plain model of the rules computes: a
 * launch replays the capture current when it executes, a recapture's nodes start enabled, a
 * replaced node increments its new buffer. Seeded, so a failure names the seed and step that replay
 * it.
 *
 * @since 0.1.0
 */
@API(status = EXPERIMENTAL, since = "0.1.0")
public interface ChangingGraphsSoakContract extends ConformanceContract {

  /** {@return how many seeds the soak runs} */
  default int seeds() {
    return 12;
  }

  /** {@return how many changes and launches each seed makes} */
  default int steps() {
    return 150;
  }

  /** {@return after how many steps the buffers are read and compared with the model} */
  default int checkEvery() {
    return 10;
  }

  /** Every seed's sequence leaves the buffers as the model says, and nothing behind. */
  @Test
  default void aGraphThatKeepsChangingAlwaysReplaysWhatTheModelSays() {
    for (long seed = 1; seed <= seeds(); seed++) {
      try (ConformanceSession s = openSession()) {
        new Soak(s, new SplittableRandom(seed), seed, checkEvery()).run(steps());
      }
    }
  }

  /**
   * One seed's run: the graph, the buffers, and the model of what launches must do.
   *
   * @since 0.1.0
   */
  final class Soak {
    private static final int BUFFERS = 3;

    private final ConformanceSession session;
    private final SplittableRandom random;
    private final long seed;
    private final int checkEvery;
    private final Stream stream;
    private final List<DeviceBuffer<Integer>> buffers = new ArrayList<>();
    private final DeviceBuffer<Integer> flag;
    private final DeviceBuffer<Integer> bodyHits;
    private final int[] expected = new int[BUFFERS];
    private int expectedBodyHits;

    // The model of the current capture.
    private int target;
    private boolean enabled = true;
    private boolean extraNode;
    private int extraTarget;
    private boolean withBody;
    private boolean flagSet;
    private @Nullable RecordedNode node;

    /** The last steps, named with the model after each, for a failure's message. */
    private final java.util.ArrayDeque<String> trace = new java.util.ArrayDeque<>();

    Soak(ConformanceSession session, SplittableRandom random, long seed, int checkEvery) {
      this.checkEvery = checkEvery;
      this.session = session;
      this.random = random;
      this.seed = seed;
      this.stream = session.stream();
      for (int i = 0; i < BUFFERS; i++) {
        buffers.add(session.own(DeviceBuffer.zeros(ElementType.I32, 8).syncOn(stream)));
      }
      flag = session.own(DeviceBuffer.zeros(ElementType.I32, 1).syncOn(stream));
      bodyHits = session.own(DeviceBuffer.zeros(ElementType.I32, 8).syncOn(stream));
    }

    /** The scope of the capture the model describes now. */
    private ScopeBody body() {
      int t = target;
      extraTarget = (t + 1) % BUFFERS;
      int e = extraTarget;
      boolean extra = extraNode;
      boolean conditional = withBody;
      return sc -> {
        node = sc.recordNode(ConformanceKernels.inc(buffers.get(t)));
        if (extra) {
          sc.record(ConformanceKernels.inc(buffers.get(e)));
        }
        if (conditional) {
          GraphCondition c = sc.condition(0);
          sc.record(ConditionalKernels.choose(flag, c));
          sc.ifThen(c, then -> then.record(ConformanceKernels.inc(bodyHits)));
        }
      };
    }

    void run(int steps) {
      try (CudaGraph<@Nullable Void> graph = CudaGraph.scope(stream, body())) {
        for (int step = 0; step < steps; step++) {
          String where = "seed " + seed + ", step " + step;
          int choice = random.nextInt(7);
          switch (choice) {
            case 0 -> launch(graph, where);
            case 1 -> {
              // A launch made now and executed after a change replays the changed graph.
              GraphLaunch early = graph.launch();
              change(graph, where);
              early.syncOn(stream);
              account();
            }
            case 2 -> {
              target = random.nextInt(BUFFERS);
              graph.replaceNode(node(), ConformanceKernels.inc(buffers.get(target)));
            }
            case 3 -> {
              enabled = random.nextBoolean();
              graph.setEnabled(node(), enabled);
              assertEquals(enabled, graph.isEnabled(node()), where);
            }
            case 4 -> {
              flagSet = !flagSet;
              flag.write(new int[] {flagSet ? 1 : 0}).syncOn(stream);
            }
            default -> change(graph, where);
          }
          note(step + ":" + OPERATIONS[choice]);
          if (step % checkEvery == checkEvery - 1) {
            check(where);
          }
        }
        launch(graph, "seed " + seed + ", last launch");
      }
      check("seed " + seed + ", after the graph was closed");
      assertEquals(0, session.driver().ledger().live(HandleKind.GRAPH_EXEC), "seed " + seed);
    }

    private static final String[] OPERATIONS = {
      "launch", "early launch, change", "replace", "switch", "flip flag", "change", "change"
    };

    private void note(String what) {
      trace.addLast(
          what
              + " -> target "
              + target
              + (enabled ? "" : " off")
              + (extraNode ? ", extra " + extraTarget : "")
              + (withBody ? ", body" + (flagSet ? " on" : " off") : ""));
      if (trace.size() > 12) {
        trace.removeFirst();
      }
    }

    private RecordedNode node() {
      RecordedNode n = node;
      if (n == null) {
        throw new AssertionError("no node was recorded");
      }
      return n;
    }

    /**
     * A recapture: same shape (applied in place) or another shape (instantiated anew); while the
     * node is switched off, anew.
     */
    private void change(CudaGraph<@Nullable Void> graph, String where) {
      boolean wasOff = !enabled;
      boolean sameShape = random.nextBoolean();
      if (!sameShape) {
        if (random.nextBoolean()) {
          extraNode = !extraNode;
        } else {
          withBody = !withBody;
        }
      }
      target = random.nextInt(BUFFERS);
      enabled = true;
      GraphUpdate update = graph.recapture(body());
      if (sameShape && !wasOff) {
        assertInstanceOf(GraphUpdate.InPlace.class, update, where);
      } else {
        assertInstanceOf(GraphUpdate.Reinstantiated.class, update, where);
      }
    }

    private void launch(CudaGraph<@Nullable Void> graph, String where) {
      graph.launch().syncOn(stream);
      account();
    }

    /** What one launch of the current capture adds to the model. */
    private void account() {
      if (enabled) {
        expected[target]++;
      }
      if (extraNode) {
        expected[extraTarget]++;
      }
      if (withBody && flagSet) {
        expectedBodyHits++;
      }
    }

    private void check(String where) {
      int[] firsts = new int[BUFFERS];
      for (int i = 0; i < BUFFERS; i++) {
        int[] all = buffers.get(i).toIntArray().syncOn(stream);
        firsts[i] = all[0];
        for (int v : all) {
          assertEquals(all[0], v, where + ", buffer " + i + " is not uniform");
        }
      }
      assertArrayEquals(
          expected,
          firsts,
          () ->
              where
                  + ", the buffers: "
                  + java.util.Arrays.toString(firsts)
                  + ", the model: "
                  + java.util.Arrays.toString(expected)
                  + "; the last steps: "
                  + trace);
      int[] hits = new int[8];
      java.util.Arrays.fill(hits, expectedBodyHits);
      assertArrayEquals(hits, bodyHits.toIntArray().syncOn(stream), where + ", the IF body");
    }
  }
}
