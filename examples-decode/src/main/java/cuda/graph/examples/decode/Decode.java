// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 the cuda-graph authors
package cuda.graph.examples.decode;

import cuda.graph.CudaEvent;
import cuda.graph.CudaGraph;
import cuda.graph.CudaPlatform;
import cuda.graph.DeviceOp;
import cuda.graph.GraphNode;
import cuda.graph.Stream;
import java.io.IOException;
import java.io.PrintStream;
import java.lang.management.ManagementFactory;
import java.lang.management.ThreadMXBean;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.channels.FileChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import org.jspecify.annotations.Nullable;

/**
 * The main example: greedy decode of a llama-architecture model, eager and graph-replayed, on the
 * GPU when there is one and on the simulator otherwise (the tiny model there).
 *
 * <pre>
 * decode [--model NAME|all] [--tokens N] [--reps R] [--seed S] [--check-steps N]
 *        [--weights FILE] [--write-weights FILE] [--dump DIR] [--profile] [--trace DIR]
 * </pre>
 *
 * For each model it checks the engine against the Java reference ({@link ReferenceModel}), then
 * times the modes: eager (one launch per kernel), one self-advancing graph per token (no host copy
 * per step), the same with the token read on the host each step (a streaming server), a device-side
 * WHILE loop that decodes every token from one launch; then the graph, the read and the loop with
 * every kernel after a step's first a programmatic dependent launch, and that loop streaming each
 * token to the host through mapped memory while it runs (with the host CPU it costs per token and
 * the latency from the device's write to Java, on a GPU). {@code --dump} writes the tokens and
 * logits of a decode for reference/llama_reference.py; {@code --write-weights} the weights it read
 * them from; {@code --profile} times each kernel of a step between CUDA events; {@code --trace}
 * records one step of the programmatic graph from the kernels' own timestamps ({@link StepTrace};
 * needs the PTX built with tracing).
 */
public final class Decode {

  /** Round trips of the clock calibration; the shortest is kept. */
  private static final int CALIBRATION_ROUNDS = 100;

  private Decode() {}

  /** The command line. */
  record Options(
      List<LlamaConfig> models,
      int tokens,
      int reps,
      long seed,
      int checkSteps,
      @Nullable Path weights,
      @Nullable Path writeWeights,
      @Nullable Path dump,
      boolean profile,
      @Nullable Path trace) {}

  public static void main(String[] args) throws IOException {
    CudaPlatform platform = CudaPlatform.system();
    boolean gpu = !platform.providerId().equals("simulator");
    Options o = parse(args, gpu);
    PrintStream out = System.out;
    out.println(
        "decode on "
            + platform.defaultDevice().name()
            + " ("
            + platform.providerId()
            + (gpu
                ? ""
                : ": no GPU here, so the tiny model on the simulator, whose rates time Java"
                    + " references, not a GPU")
            + ")");
    boolean passed = true;
    try (Stream stream = platform.defaultDevice().newStream()) {
      for (LlamaConfig config : o.models()) {
        passed &= run(config, o, stream, out);
      }
    }
    if (!passed) {
      System.exit(1);
    }
  }

  static boolean run(LlamaConfig config, Options o, Stream stream, PrintStream out)
      throws IOException {
    long started = System.nanoTime();
    try (Weights weights =
        o.weights() != null ? Weights.read(o.weights()) : Weights.generate(config, o.seed())) {
      LlamaConfig c = weights.config;
      if (o.writeWeights() != null) {
        weights.write(o.writeWeights());
      }
      out.printf(
          "%n%s: dim %d, %d layers, %d/%d heads, ffn %d, vocab %d; %.1fM fp16 weights (%.0f MB, of"
              + " which a step streams %.0f MB), %d kernels per token (ready in %.1f s)%n",
          c.name(),
          c.dim(),
          c.layers(),
          c.heads(),
          c.kvHeads(),
          c.ffn(),
          c.vocab(),
          c.parameters() / 1e6,
          weights.byteSize() / 1e6,
          c.streamedWeightBytesPerToken() / 1e6,
          c.kernelsPerToken(),
          (System.nanoTime() - started) / 1e9);
      try (DecodeEngine engine = new DecodeEngine(weights, stream)) {
        boolean ok = check(engine, weights, Math.min(o.checkSteps(), c.maxSeq() - 1), o, out);
        int tokens = Math.min(o.tokens(), c.maxSeq() - 1);
        ok &= bench(engine, c.streamedWeightBytesPerToken(), tokens, o.reps(), out);
        if (o.profile()) {
          profile(engine, Math.min(tokens, c.maxSeq() - 2), out);
        }
        if (o.trace() != null) {
          ok &= StepTrace.run(engine, Math.min(tokens, c.maxSeq() - 3), o.trace(), out);
        }
        return ok;
      }
    }
  }

  /** Compares the engine's decode with the Java reference (and dumps it when asked). */
  private static boolean check(
      DecodeEngine engine, Weights weights, int steps, Options o, PrintStream out)
      throws IOException {
    engine.reset(steps);
    List<float[]> logits = new ArrayList<>(steps);
    for (int s = 0; s < steps; s++) {
      logits.add(engine.step(null).andThen(engine.logits.toFloatArray()).syncOn(engine.stream));
    }
    int[] tokens = engine.tokens(steps);
    if (o.dump() != null) {
      dump(o.dump(), engine.config, tokens, logits);
      out.println("  dumped " + steps + " steps to " + o.dump());
    }
    if (weights.config.parameters() > 200_000_000L) {
      out.println(
          "  check: the Java reference is too slow for this shape on the host; the PyTorch check"
              + " (reference/llama_reference.py check) covers it");
      return true;
    }
    ReferenceModel.Decode reference = ReferenceModel.decode(weights, steps);
    int firstMismatch = -1;
    for (int p = 0; p <= steps && firstMismatch < 0; p++) {
      if (tokens[p] != reference.tokens()[p]) {
        firstMismatch = p;
      }
    }
    double maxDiff = 0, maxLogit = 0;
    for (int s = 0; s < steps; s++) {
      float[] a = logits.get(s), b = reference.logits().get(s);
      for (int v = 0; v < a.length; v++) {
        maxDiff = Math.max(maxDiff, Math.abs(a[v] - b[v]));
        maxLogit = Math.max(maxLogit, Math.abs(b[v]));
      }
    }
    // On the simulator the kernels' references run the reference's arithmetic: equal exactly. On
    // a GPU sums run in another order, so the logits agree to a tolerance.
    boolean exact = engine.stream.device().platform().providerId().equals("simulator");
    double tolerance = exact ? 0 : 1e-3 * (1 + maxLogit);
    boolean pass = firstMismatch < 0 && maxDiff <= tolerance;
    out.printf(
        "  check against the Java reference: %s, %d steps, tokens %s, max |logit difference| %.3g"
            + " (%s), max |logit| %.3g%n",
        pass ? "PASS" : "FAIL",
        steps,
        firstMismatch < 0 ? "equal" : "differ from position " + firstMismatch,
        maxDiff,
        exact ? "must be 0" : String.format("tolerance %.3g", tolerance),
        maxLogit);
    return pass;
  }

  /** Writes MODEL.md's dump: tokens.json and logits.f32. */
  static void dump(Path dir, LlamaConfig c, int[] tokens, List<float[]> logits) throws IOException {
    Files.createDirectories(dir);
    StringBuilder json = new StringBuilder("{\"config\": {");
    int i = 0;
    for (var e : c.metadata(0).entrySet()) {
      json.append(i++ == 0 ? "" : ", ").append(SafeTensors.Json.quote(e.getKey())).append(": ");
      json.append(SafeTensors.Json.quote(e.getValue()));
    }
    json.append("}, \"tokens\": ").append(Arrays.toString(tokens)).append("}\n");
    Files.writeString(dir.resolve("tokens.json"), json);
    try (FileChannel ch =
        FileChannel.open(
            dir.resolve("logits.f32"),
            StandardOpenOption.CREATE,
            StandardOpenOption.TRUNCATE_EXISTING,
            StandardOpenOption.WRITE)) {
      for (float[] step : logits) {
        ByteBuffer b = ByteBuffer.allocate(step.length * 4).order(ByteOrder.LITTLE_ENDIAN);
        b.asFloatBuffer().put(step);
        while (b.hasRemaining()) {
          ch.write(b);
        }
      }
    }
  }

  /** One timed mode: decodes {@code tokens} tokens after the engine was reset. */
  private interface Mode {
    void decode(int tokens);
  }

  /**
   * Times the modes; the GB/s column is the bytes a step streams (the weights it reads, one
   * embedding row, the KV cache up to the middle position) times the median rate.
   */
  private static boolean bench(
      DecodeEngine engine, long weightBytes, int tokens, int reps, PrintStream out) {
    Stream stream = engine.stream;
    boolean gpu = !stream.device().platform().providerId().equals("simulator");
    double[] hostMicros = new double[reps];
    int[] rep = {0};
    // The stream mode's measurements: the device's timer on the host's clock (calibrated before
    // its untimed warm-up, and again after its runs to see the clocks' drift), the tokens as
    // delivered, each token's latency and the draining thread's CPU time.
    TokenRing.ClockOffset[] clock = {null};
    // Per wait of the draining thread (spinning, paced): the tokens it got, each token's latency
    // and the thread's CPU time per token of each run.
    int waits = TokenRing.Wait.values().length;
    int[][] streamed = new int[waits][tokens];
    long[][] latency = new long[waits][reps * tokens];
    double[][] cpuMicros = new double[waits][reps];
    // The loops with programmatic launches inside their step; the stream modes run on them, so
    // they are measured against graph+pdl and pdl+read.
    try (CudaGraph<@Nullable Void> step = engine.captureStep();
        CudaGraph<@Nullable Void> loop = engine.captureLoop();
        CudaGraph<@Nullable Void> pdl = engine.captureProgrammaticStep();
        CudaGraph<@Nullable Void> pdlLoop = engine.captureLoop(true);
        CudaGraph<@Nullable Void> streamLoop = engine.captureStreamLoop(true)) {
      List<String> names =
          List.of(
              "eager",
              "graph",
              "graph+read",
              "while",
              "graph+pdl",
              "pdl+read",
              "while+pdl",
              "stream",
              "stream+paced");
      List<Mode> modes =
          List.of(
              n -> {
                List<GraphNode<?>> steps = new ArrayList<>(n);
                for (int s = 0; s < n; s++) {
                  steps.add(engine.step(null));
                }
                GraphNode.sequence(steps).syncOn(stream);
              },
              n -> {
                long host = replayQueued(step, stream, n);
                if (rep[0] < hostMicros.length) { // not the warm-up
                  hostMicros[rep[0]] = host / 1e3 / n;
                }
              },
              readEachStep(engine, step),
              n -> loop.launch().syncOn(stream),
              // As "graph", "graph+read" and "while", with each kernel's launch overlapping the
              // kernel before it.
              n -> replayQueued(pdl, stream, n),
              readEachStep(engine, pdl),
              n -> pdlLoop.launch().syncOn(stream),
              // One launch of the loop; this thread drains the ring as the tokens appear,
              // spinning between them, then parking until shortly before the next is due.
              streamMode(
                  engine,
                  streamLoop,
                  TokenRing.Wait.SPIN,
                  rep,
                  reps,
                  clock,
                  streamed[0],
                  latency[0],
                  cpuMicros[0]),
              streamMode(
                  engine,
                  streamLoop,
                  TokenRing.Wait.PACED,
                  rep,
                  reps,
                  clock,
                  streamed[1],
                  latency[1],
                  cpuMicros[1]));
      int[] expected = null;
      double eagerMedian = 0, graphMedian = 0, pdlMedian = 0, readMedian = 0;
      double streamMedian = 0, pacedMedian = 0;
      boolean same = true;
      if (gpu) {
        out.printf("  %-11s %10s %10s %10s %9s%n", "mode", "tok/s min", "median", "max", "GB/s");
      } else {
        out.printf("  %-11s %s%n", "mode", "decoded (no times: see below)");
      }
      for (int m = 0; m < modes.size(); m++) {
        double[] rates = new double[reps];
        engine.reset(tokens);
        rep[0] = reps;
        modes.get(m).decode(tokens); // warm-up
        for (rep[0] = 0; rep[0] < reps; rep[0]++) {
          engine.reset(tokens);
          long t = System.nanoTime();
          modes.get(m).decode(tokens);
          rates[rep[0]] = tokens / ((System.nanoTime() - t) / 1e9);
        }
        int[] got = engine.tokens(tokens);
        if (expected == null) {
          expected = got;
        } else if (!Arrays.equals(expected, got)) {
          same = false;
          out.println("  " + names.get(m) + " decoded other tokens than eager");
        }
        if (names.get(m).startsWith("stream")
            && !Arrays.equals(
                streamed[names.get(m).equals("stream") ? 0 : 1],
                Arrays.copyOfRange(got, 1, tokens + 1))) {
          same = false;
          out.println("  " + names.get(m) + " delivered other tokens than it decoded");
        }
        Arrays.sort(rates);
        double median = rates[reps / 2];
        double bytes = engine.bytesPerStep(weightBytes, tokens / 2);
        if (gpu) {
          out.printf(
              "  %-11s %10.1f %10.1f %10.1f %9.1f%s%n",
              names.get(m),
              rates[0],
              median,
              rates[reps - 1],
              bytes * median / 1e9,
              m == 1 ? String.format("   host %.2f us per replay", median(hostMicros)) : "");
        } else {
          out.printf("  %-11s %d tokens, %d runs%n", names.get(m), tokens, reps);
        }
        switch (names.get(m)) {
          case "eager" -> eagerMedian = median;
          case "graph" -> graphMedian = median;
          case "graph+pdl" -> pdlMedian = median;
          case "pdl+read" -> readMedian = median;
          case "stream" -> streamMedian = median;
          case "stream+paced" -> pacedMedian = median;
          default -> {}
        }
      }
      String agreement = same ? "the same tokens" : "DIFFERENT tokens";
      if (gpu) {
        out.printf(
            "  graph replay over eager: %.2fx; %d tokens per run, %d runs per mode; every mode"
                + " decoded %s%n",
            graphMedian / eagerMedian, tokens, reps, agreement);
      } else {
        out.printf(
            "  every mode decoded %s; rates and ratios not reported: the simulator's device is"
                + " Java threads on this host, its times say nothing about a GPU%n",
            agreement);
      }
      if (!gpu) {
        out.println(
            "  stream: host CPU per token and device-to-Java latency: not meaningful on the"
                + " simulator (its device is Java threads on this host), so not reported");
        return same;
      }
      TokenRing.ClockOffset before = clock[0], after = engine.calibrateClock(CALIBRATION_ROUNDS);
      for (TokenRing.Wait wait : TokenRing.Wait.values()) {
        int w = wait.ordinal();
        String name = wait == TokenRing.Wait.SPIN ? "stream" : "stream+paced";
        double median = wait == TokenRing.Wait.SPIN ? streamMedian : pacedMedian;
        long[] seen = latency[w];
        Arrays.sort(seen);
        out.printf(
            "  %s: time per token %+.1f%% against graph+pdl (target: within 2%%), %.2fx the tok/s"
                + " of pdl+read (target: at least 1.3x)%n",
            name, 100 * (pdlMedian / median - 1), median / readMedian);
        out.printf(
            "  %s: host CPU %.2f us per token, median of %d runs (the thread that launches and"
                + " drains, %s; target: at most 1 us)%n",
            name,
            median(cpuMicros[w]),
            reps,
            wait == TokenRing.Wait.SPIN
                ? "spinning between tokens"
                : "parked until shortly before each token is due, where steps are long");
        out.printf(
            "  %s: device write to Java, p50 %.2f us, p99 %.2f us, max %.2f us over %d tokens"
                + " (target: at most 20 us)%n",
            name,
            percentile(seen, 50) / 1e3,
            percentile(seen, 99) / 1e3,
            seen[seen.length - 1] / 1e3,
            seen.length);
      }
      out.printf(
          "  stream+paced: the device's clock on the host's within +-%.2f us (the best of %d round"
              + " trips), moved %+.2f us by the end of its runs (within +-%.2f us)%n",
          before.errorNanos() / 1e3,
          before.rounds(),
          (after.offsetNanos() - before.offsetNanos()) / 1e3,
          after.errorNanos() / 1e3);
      return same;
    }
  }

  /**
   * Times each kernel of one step at position {@code pos} with CUDA events between them. The step
   * is queued behind a device loop of {@code pos} steps, so the host has submitted it all before
   * the GPU reaches it and the intervals are the kernels, not the host's launch latency.
   */
  private static void profile(DecodeEngine engine, int pos, PrintStream out) {
    Stream stream = engine.stream;
    List<GraphNode<?>> kernels = engine.kernels(null, false);
    List<String> names = engine.kernelNames();
    List<CudaEvent> events = new ArrayList<>();
    try (CudaGraph<@Nullable Void> loop = engine.captureLoop()) {
      for (int i = 0; i <= kernels.size(); i++) {
        events.add(stream.device().newEvent());
      }
      DeviceOp<?> timed = events.get(0).record();
      for (int i = 0; i < kernels.size(); i++) {
        timed = timed.andThen(kernels.get(i)).andThen(events.get(i + 1).record());
      }
      engine.reset(pos);
      loop.launch().andThen(timed).syncOn(stream);
      Map<String, Double> micros = new LinkedHashMap<>();
      for (int i = 0; i < kernels.size(); i++) {
        double us = events.get(i + 1).elapsedMillisSince(events.get(i)) * 1e3;
        micros.merge(names.get(i), us, Double::sum);
      }
      double total = events.getLast().elapsedMillisSince(events.getFirst()) * 1e3;
      out.printf(
          "  profile of one step at position %d (CUDA events; %.1f us in all):%n", pos, total);
      micros.forEach(
          (name, us) -> out.printf("    %-24s %8.1f us %5.1f%%%n", name, us, 100 * us / total));
    } finally {
      events.forEach(CudaEvent::close);
    }
  }

  /**
   * {@return the stream mode waiting as {@code wait} says}: one launch of {@code streamLoop}, the
   * ring drained on this thread, the tokens into {@code streamed}; in timed runs ({@code rep[0] <
   * reps}) each token's latency on the host's clock ({@code clock[0]}, calibrated in the mode's
   * warm-up) into {@code latency} and the thread's CPU time per token into {@code cpuMicros}
   */
  private static Mode streamMode(
      DecodeEngine engine,
      CudaGraph<@Nullable Void> streamLoop,
      TokenRing.Wait wait,
      int[] rep,
      int reps,
      TokenRing.ClockOffset[] clock,
      int[] streamed,
      long[] latency,
      double[] cpuMicros) {
    ThreadMXBean threads = ManagementFactory.getThreadMXBean();
    return n -> {
      int r = rep[0];
      boolean timed = r < reps; // not the warm-up
      if (!timed) { // each stream mode's own, just before its runs: the clocks drift apart
        clock[0] = engine.calibrateClock(CALIBRATION_ROUNDS);
      }
      TokenRing.ClockOffset c = clock[0];
      long cpu = threads.getCurrentThreadCpuTime();
      engine.decodeStreaming(
          streamLoop,
          n,
          (index, token, deviceNanos, seenNanos) -> {
            streamed[index] = token;
            if (timed) {
              latency[r * n + index] = seenNanos - c.toHostNanos(deviceNanos);
            }
          },
          wait);
      if (timed) {
        cpuMicros[r] = (threads.getCurrentThreadCpuTime() - cpu) / 1e3 / n;
      }
    };
  }

  /**
   * {@return the mode that replays {@code step} and waits for its token on the host, a step at a
   * time}
   */
  private static Mode readEachStep(DecodeEngine engine, CudaGraph<@Nullable Void> step) {
    return n -> {
      for (int s = 0; s < n; s++) {
        step.launch().andThen(engine.readToken()).syncOn(engine.stream);
      }
    };
  }

  /**
   * Replays {@code graph} {@code n} times, each launch queued ahead of the GPU, then waits for the
   * last. {@return the host time spent enqueuing, in nanoseconds}
   */
  private static long replayQueued(CudaGraph<@Nullable Void> graph, Stream stream, int n) {
    CompletableFuture<?> last = null;
    long host = 0;
    for (int s = 0; s < n; s++) {
      long t = System.nanoTime();
      last = graph.launch().asyncOn(stream);
      host += System.nanoTime() - t;
    }
    if (last != null) {
      last.join();
    }
    return host;
  }

  /** {@return the nearest-rank {@code p}-th percentile of {@code sorted}} */
  static long percentile(long[] sorted, double p) {
    int rank = (int) Math.ceil(p / 100 * sorted.length);
    return sorted[Math.max(0, Math.min(sorted.length - 1, rank - 1))];
  }

  private static double median(double[] values) {
    double[] v = values.clone();
    Arrays.sort(v);
    return v[v.length / 2];
  }

  private static Options parse(String[] args, boolean gpu) {
    List<LlamaConfig> models =
        gpu
            ? List.of(LlamaConfig.STORIES_15M, LlamaConfig.STORIES_110M, LlamaConfig.LLAMA_1B)
            : List.of(LlamaConfig.TINY);
    int tokens = gpu ? 256 : 24, reps = gpu ? 5 : 3, checkSteps = gpu ? 16 : 24;
    long seed = 42;
    Path weights = null, writeWeights = null, dump = null, trace = null;
    boolean profile = false;
    for (int i = 0; i < args.length; i++) {
      String a = args[i];
      String v = i + 1 < args.length ? args[i + 1] : null;
      if (a.equals("--profile")) {
        profile = true;
        continue;
      }
      if (v == null && !a.equals("--help")) {
        throw new IllegalArgumentException(a + " needs a value");
      }
      switch (a) {
        case "--model" ->
            models = v.equals("all") ? LlamaConfig.ALL : List.of(LlamaConfig.named(v));
        case "--tokens" -> tokens = Integer.parseInt(v);
        case "--reps" -> reps = Integer.parseInt(v);
        case "--seed" -> seed = Long.parseLong(v);
        case "--check-steps" -> checkSteps = Integer.parseInt(v);
        case "--weights" -> weights = Path.of(v);
        case "--write-weights" -> writeWeights = Path.of(v);
        case "--dump" -> dump = Path.of(v);
        case "--trace" -> trace = Path.of(v);
        case "--help" -> {
          System.out.println(
              "decode [--model tiny|stories15M|stories110M|llama-3.2-1B|all] [--tokens N]"
                  + " [--reps R] [--seed S] [--check-steps N] [--weights FILE]"
                  + " [--write-weights FILE] [--dump DIR] [--profile] [--trace DIR]");
          System.exit(0);
        }
        default -> throw new IllegalArgumentException("unknown option " + a + "; try --help");
      }
      i++;
    }
    if (weights != null && models.size() > 1) {
      models = models.subList(0, 1); // the file says which shape it is
    }
    return new Options(
        models, tokens, reps, seed, checkSteps, weights, writeWeights, dump, profile, trace);
  }

  static {
    // Fail loudly rather than print a stack trace for a bad option.
    Thread.setDefaultUncaughtExceptionHandler(
        (t, e) -> {
          System.err.println("decode: " + e.getMessage());
          System.exit(2);
        });
  }
}
