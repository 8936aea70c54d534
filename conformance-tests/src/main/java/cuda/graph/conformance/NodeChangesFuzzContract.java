// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 the cuda-graph authors
package cuda.graph.conformance;

import static org.apiguardian.api.API.Status.EXPERIMENTAL;
import static org.junit.jupiter.api.Assertions.assertEquals;

import cuda.graph.CudaGraph;
import cuda.graph.DeviceBuffer;
import cuda.graph.ElementType;
import cuda.graph.GraphNode;
import cuda.graph.GraphUpdate;
import cuda.graph.LaunchConfig;
import cuda.graph.RecordedNode;
import cuda.graph.Scope;
import cuda.graph.ScopeBody;
import cuda.graph.Stream;
import cuda.graph.conformance.kernels.ConformanceKernels;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.SplittableRandom;
import java.util.TreeMap;
import org.apiguardian.api.API;
import org.jspecify.annotations.Nullable;
import org.junit.jupiter.api.Test;

/**
 * A fuzz of random changes to captured graphs, each followed by a replay compared element by
 * element with a plain model of the same nodes: programs of fills, device-to-device copies and
 * {@code saxpy} launches over slices of persistent buffers, of ephemeral ones (made for one node
 * with random contents and closed at once, so that only the graph keeps them) and of temporaries
 * ({@link Scope#temporary}, allocated where the program first needs them); changes that recapture
 * (in place or anew), replace a copy by a copy with other buffers, offsets and sizes, a launch by a
 * launch with other arguments and grid, a fill by a fill elsewhere, or switch nodes off and on.
 * Every program the fuzz makes is one the library's documentation allows: a temporary is read only
 * where an earlier node of the same replay wrote it, and is used only by nodes recorded after its
 * allocation. Seeded; a failure names the seed, the program and the changes since it was captured,
 * and which single-node explanation (a node left switched off or on, or running parameters it had
 * before) reproduces what the device computed.
 *
 * @since 0.2.0
 */
@API(status = EXPERIMENTAL, since = "0.2.0")
public interface NodeChangesFuzzContract extends ConformanceContract {

  /**
   * {@return how many changes the fuzz makes, each followed by a replay checked against the model}
   */
  default int changes() {
    return 600;
  }

  /** {@return the seeds of the runs, each of {@link #changes()} changes} */
  default long[] seeds() {
    return new long[] {1};
  }

  /** Every replay after every change computes what the plain model computes. */
  @Test
  default void everyReplayAfterARandomChangeComputesWhatThePlainModelComputes() {
    for (long seed : seeds()) {
      try (ConformanceSession s = openSession()) {
        Fuzz fuzz = new Fuzz(s, seed);
        fuzz.run(changes());
        for (String kind :
            List.of(
                "replace copy",
                "replace fill",
                "replace saxpy",
                "switch off",
                "switch on",
                "recapture in place",
                "recapture anew",
                "new graph")) {
          if (changes() >= 500 && !fuzz.made.containsKey(kind)) {
            throw new AssertionError("the fuzz made no '" + kind + "' change: " + fuzz.report());
          }
        }
        String report = System.getProperty("fuzz.report");
        if (report != null) {
          try {
            java.nio.file.Files.writeString(
                java.nio.file.Path.of(report + "-" + seed + ".txt"),
                fuzz.report()
                    + "\n\nall wrong:\n"
                    + String.join("\n", fuzz.wrong)
                    + "\n\nall refused by the driver:\n"
                    + String.join("\n", fuzz.driverRefusals));
          } catch (java.io.IOException e) {
            throw new java.io.UncheckedIOException(e);
          }
        }
        assertEquals(0, fuzz.driverRefusals.size(), fuzz::report);
        assertEquals(
            0,
            fuzz.wrong.size(),
            () ->
                fuzz.wrong.size()
                    + " wrong replays in "
                    + changes()
                    + " changes of seed "
                    + seed
                    + ": "
                    + fuzz.report());
      }
    }
  }

  /**
   * A copy node on a temporary is not moved to device memory in place: the driver refuses to change
   * a copy node's memory mappings ({@code CUDA_ERROR_INVALID_VALUE}), so the library refuses first,
   * naming both kinds of memory, and the graph replays as before. A fill node may move: the driver
   * changes a memset node's destination to memory of another kind.
   */
  @Test
  default void aCopyNodeOnATemporaryIsNotMovedToDeviceMemoryInPlaceAndAFillNodeIs() {
    try (ConformanceSession s = openSession()) {
      Stream stream = s.stream();
      DeviceBuffer<Float> out = s.own(DeviceBuffer.zeros(ElementType.F32, 32).syncOn(stream));
      DeviceBuffer<Float> other = s.own(DeviceBuffer.zeros(ElementType.F32, 32).syncOn(stream));
      List<RecordedNode> nodes = new ArrayList<>();
      try (CudaGraph<@Nullable Void> graph =
          CudaGraph.scope(
              stream,
              sc -> {
                DeviceBuffer<Float> t = sc.temporary(ElementType.F32, 32);
                nodes.add(sc.recordNode(t.fill(3f)));
                nodes.add(sc.recordNode(out.copyFrom(t)));
              })) {
        String message =
            org.junit.jupiter.api.Assertions.assertThrows(
                    IllegalArgumentException.class,
                    () -> graph.replaceNode(nodes.get(1), out.copyFrom(other)))
                .getMessage();
        for (String part :
            List.of(
                "from a temporary's graph memory",
                "from device memory",
                "cannot move a copy node's operands",
                "recapture the graph")) {
          org.junit.jupiter.api.Assertions.assertTrue(
              message.contains(part), () -> "'" + part + "' missing from: " + message);
        }
        graph.launch().syncOn(stream);
        for (float v : out.toFloatArray().syncOn(stream)) {
          assertEquals(3f, v, "the graph replays its own fill and copy");
        }
        graph.replaceNode(nodes.get(0), other.fill(5f));
        graph.launch().syncOn(stream);
        for (float v : other.toFloatArray().syncOn(stream)) {
          assertEquals(5f, v, "the fill moved to device memory");
        }
      }
    }
  }

  /**
   * One node of a program: what it does, in the terms of the model. Buffers are numbered: the
   * persistent ones from 0, the temporaries after them.
   *
   * @param kind the node's kind
   * @param a the saxpy's scale, or the fill's value
   * @param src the buffer read (copy, saxpy's x), or -1
   * @param srcOffset where the read starts
   * @param dst the buffer written (copy, fill, saxpy's y)
   * @param dstOffset where the write starts
   * @param length how many elements
   * @param gridBlocks a saxpy's blocks, enough to cover {@code length} or more
   * @since 0.2.0
   */
  record Op(
      Kind kind,
      float a,
      int src,
      int srcOffset,
      int dst,
      int dstOffset,
      int length,
      int gridBlocks) {

    /**
     * The kinds of node the fuzz records.
     *
     * @since 0.2.0
     */
    public enum Kind {
      /** A fill of {@code length} elements of {@code dst} with {@code a}. */
      FILL,
      /** A device-to-device copy of {@code length} elements from {@code src} to {@code dst}. */
      COPY,
      /** A {@code saxpy} launch: {@code dst = a * src + dst} over {@code length} elements. */
      SAXPY
    }

    @Override
    public String toString() {
      String d = "b" + dst + "[" + dstOffset + "+" + length + "]";
      String s = "b" + src + "[" + srcOffset + "+" + length + "]";
      return switch (kind) {
        case FILL -> "fill(" + d + ", " + a + ")";
        case COPY -> "copy(" + s + " -> " + d + ")";
        case SAXPY -> "saxpy(" + a + ", " + s + ", " + d + ", grid " + gridBlocks + ")";
      };
    }
  }

  /**
   * One seed's run: the session's persistent buffers, the current graph and its model, and the
   * wrong replays found.
   *
   * @since 0.2.0
   */
  final class Fuzz {
    static final int PERSISTENT = 5;
    static final int TEMPORARIES = 3;
    static final int N = 96;
    private static final int BLOCK = 32;

    private final ConformanceSession session;
    private final SplittableRandom random;
    private final long seed;
    private final Stream stream;
    private final List<DeviceBuffer<Float>> persistent = new ArrayList<>();

    /** The ephemeral buffers made for nodes not yet built, by id; closed once built. */
    private final java.util.Map<Integer, DeviceBuffer<Float>> unbuilt = new java.util.HashMap<>();

    /** The model's contents of every ephemeral buffer the graph may still use, by id. */
    private java.util.Map<Integer, float[]> ephemeral = new java.util.HashMap<>();

    private int nextEphemeral = PERSISTENT + TEMPORARIES;

    /** The wrong replays, described. */
    final List<String> wrong = new ArrayList<>();

    /** The changes the driver refused (the library should have refused them first, clearly). */
    final List<String> driverRefusals = new ArrayList<>();

    /** How many changes of each kind were made. */
    final TreeMap<String, Integer> made = new TreeMap<>();

    /** How many wrong replays followed each kind of change. */
    private final TreeMap<String, Integer> wrongByChange = new TreeMap<>();

    // The current graph and its model.
    private @Nullable CudaGraph<@Nullable Void> graph;
    private List<Op> program = List.of();
    private boolean[] enabled = new boolean[0];
    private int[] allocatedBefore = new int[TEMPORARIES];
    private List<RecordedNode> nodes = List.of();

    /** Each node's earlier parameters since the graph was instantiated, for explanations. */
    private List<List<Op>> history = List.of();

    /** The changes since the graph was instantiated, for a failure's message. */
    private final List<String> changesSinceInstantiation = new ArrayList<>();

    Fuzz(ConformanceSession session, long seed) {
      this.session = session;
      this.seed = seed;
      this.random = new SplittableRandom(seed);
      this.stream = session.stream();
      for (int i = 0; i < PERSISTENT; i++) {
        persistent.add(session.own(DeviceBuffer.zeros(ElementType.F32, N).syncOn(stream)));
      }
    }

    String report() {
      return "changes made "
          + made
          + ", wrong by change "
          + wrongByChange
          + ", refused by the driver "
          + driverRefusals.subList(0, Math.min(8, driverRefusals.size()))
          + "; "
          + String.join("; ", wrong.subList(0, Math.min(8, wrong.size())));
    }

    void run(int changes) {
      try {
        capture(newProgram(), "first capture");
        for (int step = 0; step < changes; step++) {
          String change = change();
          made.merge(change, 1, Integer::sum);
          check(step, change);
        }
      } finally {
        CudaGraph<@Nullable Void> g = graph;
        if (g != null) {
          g.close();
        }
      }
    }

    // ---- programs

    private List<Op> newProgram() {
      for (int attempt = 0; ; attempt++) {
        int length = 3 + random.nextInt(5);
        List<Op> ops = new ArrayList<>();
        for (int i = 0; i < length; i++) {
          ops.add(randomOp(Op.Kind.values()[random.nextInt(3)], true));
        }
        int[] alloc = allocationPoints(ops);
        boolean[] on = new boolean[length];
        Arrays.fill(on, true);
        if (valid(ops, on, alloc)) {
          allocatedBefore = alloc;
          return ops;
        }
        closeUnbuilt();
        if (attempt > 10_000) {
          throw new AssertionError("no valid program in 10,000 attempts");
        }
      }
    }

    /** Each temporary is allocated at the start or just before the first node that uses it. */
    private int[] allocationPoints(List<Op> ops) {
      int[] alloc = new int[TEMPORARIES];
      for (int t = 0; t < TEMPORARIES; t++) {
        int first = ops.size();
        for (int i = 0; i < ops.size(); i++) {
          if (uses(ops.get(i), PERSISTENT + t)) {
            first = i;
            break;
          }
        }
        // Unused, it is not allocated (Integer.MAX_VALUE), so that graphs without temporaries can
        // be updated in place.
        alloc[t] = first == ops.size() ? Integer.MAX_VALUE : random.nextBoolean() ? 0 : first;
      }
      return alloc;
    }

    private static boolean uses(Op op, int buffer) {
      return op.dst() == buffer || (op.kind() != Op.Kind.FILL && op.src() == buffer);
    }

    /** A buffer for a new node: persistent, a temporary (in a capture) or a new ephemeral one. */
    private int randomBuffer(boolean temporaries) {
      int r = random.nextInt(10);
      if (r < 6) {
        return random.nextInt(PERSISTENT);
      }
      if (r < 8 && temporaries) {
        return PERSISTENT + random.nextInt(TEMPORARIES);
      }
      int id = nextEphemeral++;
      float[] contents = new float[N];
      for (int k = 0; k < N; k++) {
        contents[k] = (random.nextInt(65) - 32) / 8f;
      }
      unbuilt.put(id, session.own(DeviceBuffer.fromArray(contents).syncOn(stream)));
      ephemeral.put(id, contents);
      return id;
    }

    private Op randomOp(Op.Kind kind, boolean temporaries) {
      while (true) {
        int length =
            switch (random.nextInt(4)) {
              case 0 -> N;
              case 1 -> 64;
              case 2 -> 1 + random.nextInt(N);
              default -> 32;
            };
        int dst = randomBuffer(temporaries);
        int dstOffset = random.nextInt(N - length + 1);
        float a = (random.nextInt(17) - 8) / 4f;
        if (kind == Op.Kind.FILL) {
          return new Op(kind, a, -1, 0, dst, dstOffset, length, 0);
        }
        int src = randomBuffer(temporaries);
        int srcOffset = random.nextInt(N - length + 1);
        boolean overlap =
            src == dst && srcOffset < dstOffset + length && dstOffset < srcOffset + length;
        if (overlap && (kind == Op.Kind.COPY || srcOffset != dstOffset)) {
          continue; // overlapping copies and racing saxpy reads are undefined
        }
        int needed = (length + BLOCK - 1) / BLOCK;
        int grid = kind == Op.Kind.SAXPY ? needed + random.nextInt(3) : 0;
        return new Op(kind, a, src, srcOffset, dst, dstOffset, length, grid);
      }
    }

    /**
     * Whether the program reads no temporary element that no earlier enabled node of the replay
     * wrote, and uses each temporary only in nodes recorded after its allocation.
     */
    private static boolean valid(List<Op> ops, boolean[] on, int[] alloc) {
      boolean[][] defined = new boolean[TEMPORARIES][N];
      for (int i = 0; i < ops.size(); i++) {
        Op op = ops.get(i);
        for (int t = 0; t < TEMPORARIES; t++) {
          if (uses(op, PERSISTENT + t) && i < alloc[t]) {
            return false;
          }
        }
        if (!on[i]) {
          continue;
        }
        if (op.kind() != Op.Kind.FILL && temporary(op.src())) {
          for (int k = 0; k < op.length(); k++) {
            if (!defined[op.src() - PERSISTENT][op.srcOffset() + k]) {
              return false;
            }
          }
        }
        if (temporary(op.dst())) {
          boolean[] d = defined[op.dst() - PERSISTENT];
          for (int k = 0; k < op.length(); k++) {
            if (op.kind() == Op.Kind.SAXPY && !d[op.dstOffset() + k]) {
              return false; // saxpy reads y
            }
            d[op.dstOffset() + k] = true;
          }
        }
      }
      return true;
    }

    private static boolean temporary(int id) {
      return id >= PERSISTENT && id < PERSISTENT + TEMPORARIES;
    }

    // ---- the graph

    private ScopeBody body(List<Op> ops, int[] alloc, List<RecordedNode> recorded) {
      return sc -> {
        DeviceBuffer<Float>[] temps = emptyTemporaries();
        for (int i = 0; i <= ops.size(); i++) {
          for (int t = 0; t < TEMPORARIES; t++) {
            if (alloc[t] == i && temps[t] == null) {
              temps[t] = sc.temporary(ElementType.F32, N);
            }
          }
          if (i < ops.size()) {
            recorded.add(sc.recordNode(node(ops.get(i), temps)));
          }
        }
        temporaries = temps;
      };
    }

    /** The temporaries of the current capture, for replacements. */
    private DeviceBuffer<Float>[] temporaries = emptyTemporaries();

    @SuppressWarnings("unchecked") // an array of one element type, filled with F32 buffers only
    private static DeviceBuffer<Float>[] emptyTemporaries() {
      return (DeviceBuffer<Float>[]) new DeviceBuffer<?>[TEMPORARIES];
    }

    private DeviceBuffer<Float> buffer(int id, DeviceBuffer<Float>[] temps) {
      DeviceBuffer<Float> b =
          id < PERSISTENT
              ? persistent.get(id)
              : temporary(id) ? temps[id - PERSISTENT] : unbuilt.get(id);
      if (b == null) {
        throw new AssertionError("temporary " + id + " used before its allocation");
      }
      return b;
    }

    private GraphNode<@Nullable Void> node(Op op, DeviceBuffer<Float>[] temps) {
      DeviceBuffer<Float> dst = buffer(op.dst(), temps).slice(op.dstOffset(), op.length());
      return switch (op.kind()) {
        case FILL -> dst.fill(op.a());
        case COPY -> dst.copyFrom(buffer(op.src(), temps).slice(op.srcOffset(), op.length()));
        case SAXPY ->
            ConformanceKernels.SAXPY.launch(
                LaunchConfig.of(op.gridBlocks(), BLOCK),
                op.length(),
                op.a(),
                buffer(op.src(), temps).slice(op.srcOffset(), op.length()),
                dst);
      };
    }

    /**
     * Closes the ephemeral buffers of nodes just built (or of candidates refused), as a user who
     * keeps no reference would: only the graph's leases keep their memory now.
     */
    private void closeUnbuilt() {
      for (DeviceBuffer<Float> b : unbuilt.values()) {
        if (random.nextBoolean()) {
          b.close();
        } else {
          b.free().syncOn(stream);
        }
      }
      unbuilt.clear();
    }

    private void capture(List<Op> ops, String why) {
      CudaGraph<@Nullable Void> old = graph;
      if (old != null) {
        old.close();
      }
      List<RecordedNode> recorded = new ArrayList<>();
      graph = CudaGraph.scope(stream, body(ops, allocatedBefore, recorded));
      closeUnbuilt();
      adopt(ops, recorded);
      changesSinceInstantiation.clear();
      changesSinceInstantiation.add(why);
    }

    /** Forgets the ephemeral buffers no node of the program uses: the graph let them go. */
    private void prune() {
      java.util.Set<Integer> used = new java.util.HashSet<>();
      for (Op op : program) {
        used.add(op.dst());
        used.add(op.src());
      }
      ephemeral.keySet().retainAll(used);
    }

    private void adopt(List<Op> ops, List<RecordedNode> recorded) {
      program = new ArrayList<>(ops);
      prune();
      nodes = recorded;
      enabled = new boolean[ops.size()];
      Arrays.fill(enabled, true);
      List<List<Op>> h = new ArrayList<>();
      for (Op op : ops) {
        h.add(new ArrayList<>(List.of(op)));
      }
      history = h;
    }

    // ---- changes

    /** Makes one random valid change; {@return its name, for the counts} */
    private String change() {
      CudaGraph<@Nullable Void> g = java.util.Objects.requireNonNull(graph);
      for (int attempt = 0; attempt < 50; attempt++) {
        int choice = random.nextInt(10);
        int i = random.nextInt(program.size());
        Op old = program.get(i);
        if (choice < 4) {
          Op by = randomOp(old.kind(), false);
          List<Op> next = new ArrayList<>(program);
          next.set(i, by);
          if (!valid(next, enabled, allocatedBefore)) {
            closeUnbuilt();
            continue;
          }
          try {
            g.replaceNode(nodes.get(i), node(by, temporaries));
          } catch (IllegalArgumentException e) {
            // The library's refusal of a node moved between memory kinds, which the driver
            // cannot do in place: the graph must be unchanged, as the next replay checks.
            closeUnbuilt();
            if (!e.getMessage().contains("cannot move a copy node's operands between")) {
              throw e;
            }
            return "replace refused: other memory";
          } catch (cuda.graph.CudaDriverError e) {
            // A refusal must come from the library, before the driver is asked.
            closeUnbuilt();
            driverRefusals.add(
                "#"
                    + i
                    + " "
                    + old
                    + " by "
                    + by
                    + " in "
                    + describeProgram()
                    + ": "
                    + e.getMessage());
            return "replace refused by the driver";
          }
          closeUnbuilt();
          program = next;
          prune();
          history.get(i).add(by);
          String what =
              "replace "
                  + old.kind().name().toLowerCase(java.util.Locale.ROOT)
                  + (enabled[i] ? "" : " (off)");
          changesSinceInstantiation.add(
              "#" + i + " " + old + " by " + by + (enabled[i] ? "" : " while off"));
          return what;
        }
        if (choice < 7) {
          boolean[] next = enabled.clone();
          next[i] = !next[i];
          if (!valid(program, next, allocatedBefore)) {
            continue;
          }
          g.setEnabled(nodes.get(i), next[i]);
          enabled = next;
          changesSinceInstantiation.add("#" + i + (next[i] ? " on" : " off"));
          return next[i] ? "switch on" : "switch off";
        }
        if (choice < 9) {
          // Same kinds in the same order, other parameters: the driver may update in place.
          List<Op> next = new ArrayList<>();
          for (Op op : program) {
            next.add(randomOp(op.kind(), true));
          }
          int[] alloc = allocatedBefore.clone();
          boolean[] on = new boolean[next.size()];
          Arrays.fill(on, true);
          if (!valid(next, on, alloc)) {
            closeUnbuilt();
            continue;
          }
          List<RecordedNode> recorded = new ArrayList<>();
          GraphUpdate u = g.recapture(body(next, alloc, recorded));
          closeUnbuilt();
          adopt(next, recorded);
          changesSinceInstantiation.clear();
          changesSinceInstantiation.add(
              "recaptured " + (u instanceof GraphUpdate.InPlace ? "in place" : "anew"));
          return u instanceof GraphUpdate.InPlace ? "recapture in place" : "recapture anew";
        }
        capture(newProgram(), "captured anew");
        return "new graph";
      }
      return "none";
    }

    // ---- replays and the model

    private void check(int step, String change) {
      float[][] inputs = new float[PERSISTENT][N];
      for (int b = 0; b < PERSISTENT; b++) {
        for (int k = 0; k < N; k++) {
          inputs[b][k] = (random.nextInt(65) - 32) / 8f;
        }
        persistent.get(b).write(inputs[b]).syncOn(stream);
      }
      java.util.Objects.requireNonNull(graph).launch().syncOn(stream);
      float[][] device = new float[PERSISTENT][];
      for (int b = 0; b < PERSISTENT; b++) {
        device[b] = persistent.get(b).toFloatArray().syncOn(stream);
      }
      java.util.Map<Integer, float[]> before = ephemeral;
      java.util.Map<Integer, float[]> after = new java.util.HashMap<>(before);
      float[][] expected = model(program, enabled, inputs, after);
      if (same(expected, device)) {
        ephemeral = after;
        return;
      }
      ephemeral = after;
      wrongByChange.merge(change, 1, Integer::sum);
      wrong.add(
          "seed "
              + seed
              + " step "
              + step
              + " after '"
              + change
              + "': program "
              + describeProgram()
              + ", changes since instantiation "
              + changesSinceInstantiation
              + ", first difference "
              + firstDifference(expected, device)
              + ", explained by "
              + explain(inputs, device, before)
              + ", "
              + relaunch(inputs));
      // Start over, so that one broken exec is not counted again and again.
      capture(newProgram(), "captured anew after a wrong replay");
    }

    private String describeProgram() {
      StringBuilder sb = new StringBuilder("[");
      for (int i = 0; i < program.size(); i++) {
        for (int t = 0; t < TEMPORARIES; t++) {
          if (allocatedBefore[t] == i) {
            sb.append("alloc b").append(PERSISTENT + t).append(", ");
          }
        }
        sb.append('#')
            .append(i)
            .append(' ')
            .append(program.get(i))
            .append(enabled[i] ? "" : " OFF");
        sb.append(i + 1 < program.size() ? ", " : "]");
      }
      return sb.toString();
    }

    /** Launches again with the same inputs: does the exec stay wrong? */
    private String relaunch(float[][] inputs) {
      for (int b = 0; b < PERSISTENT; b++) {
        persistent.get(b).write(inputs[b]).syncOn(stream);
      }
      java.util.Objects.requireNonNull(graph).launch().syncOn(stream);
      float[][] device = new float[PERSISTENT][];
      for (int b = 0; b < PERSISTENT; b++) {
        device[b] = persistent.get(b).toFloatArray().syncOn(stream);
      }
      return same(model(program, enabled, inputs, new java.util.HashMap<>(ephemeral)), device)
          ? "right when launched again"
          : "wrong again when launched again";
    }

    private static boolean known(Op op, java.util.Map<Integer, float[]> eph) {
      return (op.dst() < PERSISTENT + TEMPORARIES || eph.containsKey(op.dst()))
          && (op.src() < PERSISTENT + TEMPORARIES || eph.containsKey(op.src()));
    }

    /** Which single-node deviation from the model reproduces what the device computed. */
    private String explain(
        float[][] inputs, float[][] device, java.util.Map<Integer, float[]> before) {
      List<String> found = new ArrayList<>();
      for (int i = 0; i < program.size(); i++) {
        boolean[] flipped = enabled.clone();
        flipped[i] = !flipped[i];
        if (same(model(program, flipped, inputs, new java.util.HashMap<>(before)), device)) {
          found.add("#" + i + (flipped[i] ? " on" : " off"));
        }
        List<Op> h = history.get(i);
        for (int v = 0; v < h.size() - 1; v++) {
          Op earlier = h.get(v);
          if (!known(earlier, before)) {
            continue; // its ephemeral buffers are gone from the model
          }
          List<Op> stale = new ArrayList<>(program);
          stale.set(i, earlier);
          if (same(model(stale, enabled, inputs, new java.util.HashMap<>(before)), device)) {
            found.add("#" + i + " running " + h.get(v));
          }
        }
      }
      return found.isEmpty() ? "no single-node deviation" : found.toString();
    }

    /**
     * {@return the persistent buffers after one replay of {@code ops} from {@code inputs}}; {@code
     * eph}, the ephemeral buffers' contents, is updated in place
     */
    static float[][] model(
        List<Op> ops, boolean[] on, float[][] inputs, java.util.Map<Integer, float[]> eph) {
      java.util.Map<Integer, float[]> b = new java.util.HashMap<>();
      for (var e : eph.entrySet()) {
        b.put(e.getKey(), e.getValue().clone());
      }
      for (int i = 0; i < PERSISTENT; i++) {
        b.put(i, inputs[i].clone());
      }
      for (int t = 0; t < TEMPORARIES; t++) {
        float[] undefined = new float[N];
        Arrays.fill(undefined, Float.NaN); // the fuzz never reads it
        b.put(PERSISTENT + t, undefined);
      }
      for (int i = 0; i < ops.size(); i++) {
        if (!on[i]) {
          continue;
        }
        Op op = ops.get(i);
        float[] d = b.get(op.dst());
        if (d == null) {
          throw new AssertionError("the model has no buffer " + op.dst());
        }
        switch (op.kind()) {
          case FILL -> Arrays.fill(d, op.dstOffset(), op.dstOffset() + op.length(), op.a());
          case COPY ->
              System.arraycopy(b.get(op.src()), op.srcOffset(), d, op.dstOffset(), op.length());
          case SAXPY -> {
            float[] x = b.get(op.src());
            for (int k = 0; k < op.length(); k++) {
              d[op.dstOffset() + k] =
                  Math.fma(op.a(), x[op.srcOffset() + k], d[op.dstOffset() + k]);
            }
          }
        }
      }
      for (var e : eph.entrySet()) {
        e.setValue(b.get(e.getKey()));
      }
      float[][] out = new float[PERSISTENT][];
      for (int i = 0; i < PERSISTENT; i++) {
        out[i] = b.get(i);
      }
      return out;
    }

    private static boolean same(float[][] expected, float[][] device) {
      for (int b = 0; b < expected.length; b++) {
        for (int k = 0; k < N; k++) {
          if (Float.floatToIntBits(expected[b][k]) != Float.floatToIntBits(device[b][k])) {
            return false;
          }
        }
      }
      return true;
    }

    private static String firstDifference(float[][] expected, float[][] device) {
      for (int b = 0; b < expected.length; b++) {
        for (int k = 0; k < N; k++) {
          if (Float.floatToIntBits(expected[b][k]) != Float.floatToIntBits(device[b][k])) {
            return "b" + b + "[" + k + "] = " + device[b][k] + ", model " + expected[b][k];
          }
        }
      }
      return "none";
    }
  }
}
