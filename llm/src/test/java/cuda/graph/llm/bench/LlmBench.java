// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 the cuda-graph authors
package cuda.graph.llm.bench;

import cuda.graph.CudaPlatform;
import cuda.graph.Device;
import cuda.graph.DeviceBuffer;
import cuda.graph.ElementType;
import cuda.graph.GraphCache;
import cuda.graph.GraphMemory;
import cuda.graph.Stream;
import cuda.graph.llm.internal.checkpoint.Checkpoint;
import cuda.graph.llm.internal.checkpoint.DType;
import cuda.graph.llm.internal.checkpoint.ModelConfig;
import cuda.graph.llm.internal.checkpoint.TinyCheckpoints;
import cuda.graph.llm.internal.engine.BatchStep;
import cuda.graph.llm.internal.engine.KvCache;
import cuda.graph.llm.internal.engine.LlmKernels;
import cuda.graph.llm.internal.engine.ModelWeights;
import cuda.graph.llm.internal.engine.Sampling;
import cuda.graph.llm.internal.server.GenerationRequest;
import cuda.graph.llm.internal.server.TokenSink;
import cuda.graph.llm.internal.serving.Scheduler;
import cuda.graph.llm.internal.serving.StreamSteps;
import cuda.graph.llm.internal.text.Tokenizer;
import cuda.graph.simulator.Simulator;
import cuda.graph.testkit.KernelTimeline;
import java.io.IOException;
import java.io.PrintStream;
import java.io.UncheckedIOException;
import java.lang.foreign.MemorySegment;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Iterator;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Random;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicReference;
import java.util.concurrent.atomic.AtomicReferenceArray;
import java.util.concurrent.locks.LockSupport;
import org.jspecify.annotations.Nullable;

/**
 * The llm module's serving benchmark (issue 40), in lines of {@code figure,key=value,...} (lines
 * starting with {@code #} are for people), the same format reference/llm_torch.py prints for
 * transformers so one table holds both.
 *
 * <p><b>Through what.</b> The engine's {@link Scheduler} over a {@link BatchStep}, built as {@code
 * LlmEngine} builds it, but (1) with no end-of-sequence tokens, so every generation runs to its
 * token count (OpenAI's and vLLM's {@code ignore_eos}, which {@code GenerationOptions} lacks), (2)
 * with token-id prompts of exact lengths (the public API takes text), (3) with the step's graph
 * cache at hand for the capture figures, and (4) with the block-table width set by {@code
 * --context} rather than by the KV cache's size. Every line says {@code engine=scheduler}.
 *
 * <ul>
 *   <li>{@code decode}: for each batch B of {@code --batches}, per round: B sequences of {@code
 *       --context} random token ids are prefilled (not timed), then, once every sequence has its
 *       first token, {@code --warmup} decode steps, then {@code --steps} steps timed from the
 *       engine thread's after-step hook; tokens/s is the tokens made in the timed steps over their
 *       time. Median [min-max] over {@code --rounds}. The bytes a step streams: the weights (the
 *       layers, the final norm, the output projection, B embedding rows) and every sequence's keys
 *       and values at its mean length over the timed steps; GB/s and the fraction of {@code
 *       --bandwidth-tbs}. With {@code --tunings}, one engine a tuning of a step of one token
 *       ({@code N:inside}, {@code N:rope} or {@code N:apart}: gemv_stream1 on N blocks an SM, 0 for
 *       gemv_stream; the RMSNorms and SwiGLU inside its products, RoPE too, or all as kernels of
 *       their own; then optionally {@code :sK}, grouped attention in K splits at one token), loaded
 *       side by side, each round run on every engine in turn with the same prompts, each line
 *       naming its {@code tuning}: a comparison in one process, which moves less than separate runs
 *       do.
 *   <li>{@code warmup}, {@code graph}: every bucket's graph is captured before anything is
 *       measured, as a server does at start-up ({@code warmup}: the buckets and the seconds their
 *       captures, instantiations and uploads took together); each bucket's times and graph memory
 *       (from the step's {@link GraphCache}), then the cache's accounted graph memory and the
 *       device's.
 *   <li>{@code load}: {@code --requests} requests arriving as a Poisson process of {@code --rate}
 *       requests/s, prompts of random token ids (uniform over the vocabulary) of a length uniform
 *       in {@code --prompt}, outputs of a length uniform in {@code --output}, all from {@code
 *       --seed}; throughput, time to first token and inter-token latency (p50, p99; both read by
 *       the after-step hook, so they are the step's end as the engine thread sees it), peak KV
 *       blocks.
 *   <li>{@code trace} (not by default): for each tuning, a step of one token at position {@code
 *       --context} on a step of its own (one sequence, the blocks of its positions; what they hold
 *       does not change the time), {@code --warmup} times untimed, then {@code --steps} times a
 *       step timed by the host's clock followed by a step whose kernels record the kernel timeline
 *       (testkit's {@code KernelTimeline}): each launch's handoff, work and lead, medians over the
 *       traced steps. It needs the PTX that {@code src/main/cuda/regenerate.sh --trace DIR} builds,
 *       DIR first on the class path; with the committed PTX it says that nothing was recorded.
 * </ul>
 *
 * <pre>
 * java ... cuda.graph.llm.bench.LlmBench --model DIR [--mode decode,load,trace] [--batches 1,8,32,64,128]
 *     [--context 512] [--steps 64] [--warmup 8] [--rounds 5] [--bandwidth-tbs 3.35]
 *     [--requests 1000] [--rate 20] [--prompt 128-1024] [--output 128-512] [--seed 40]
 *     [--max-sequences 128] [--max-tokens-per-step 2048] [--kv-blocks N] [--max-context N]
 *     [--limit-s 120] [--tunings 4:rope,4:inside,4:apart,0:apart,4:rope:s8]  (decode, trace)
 * java ... cuda.graph.llm.bench.LlmBench --quick      (the simulator, a tiny checkpoint, seconds)
 * </pre>
 *
 * With no {@code --model} and {@code --quick}, a tiny bf16 checkpoint is written to a temporary
 * directory. Without {@code --quick}, the platform is {@link CudaPlatform#system()} (on the GPU
 * host, {@code -Dcuda.graph.provider=cuda}).
 */
public final class LlmBench {

  private LlmBench() {}

  /** The command line, with the defaults of the run or of {@code --quick}. */
  record Options(
      List<String> modes,
      Path model,
      boolean quick,
      List<Integer> batches,
      int context,
      int steps,
      int warmup,
      int rounds,
      double bandwidthTbs,
      int requests,
      double rate,
      int promptMin,
      int promptMax,
      int outputMin,
      int outputMax,
      long seed,
      int maxSequences,
      int maxTokensPerStep,
      int kvBlocks,
      int maxContextOption,
      double limitSeconds,
      List<BatchStep.Tuning> tunings) {

    static Options parse(List<String> args) {
      boolean quick = args.contains("--quick");
      List<String> modes = List.of("decode", "load");
      Path model = null;
      List<Integer> batches = quick ? List.of(1, 2, 4) : List.of(1, 8, 32, 64, 128);
      int context = quick ? 24 : 512, steps = quick ? 4 : 64, warmup = quick ? 2 : 8;
      int rounds = quick ? 2 : 5;
      double bandwidth = 3.35;
      int requests = quick ? 12 : 1000;
      double rate = quick ? 400 : 20;
      int[] prompt = quick ? new int[] {8, 32} : new int[] {128, 1024};
      int[] output = quick ? new int[] {4, 12} : new int[] {128, 512};
      long seed = 40;
      int maxSequences = quick ? 4 : 128, maxTokens = quick ? 32 : 2048, kvBlocks = 0;
      int maxContext = 0;
      double limit = quick ? 60 : 120;
      List<BatchStep.Tuning> tunings = List.of();
      for (int i = 0; i < args.size(); i++) {
        String a = args.get(i);
        if (a.equals("--quick")) {
          continue;
        }
        if (i + 1 >= args.size() || !a.startsWith("--")) {
          throw new IllegalArgumentException(
              "LlmBench: '" + a + "' is not an option with a value; " + USAGE);
        }
        String v = args.get(++i);
        switch (a) {
          case "--mode" -> modes = List.of(v.split(","));
          case "--model" -> model = Path.of(v);
          case "--batches" -> batches = Arrays.stream(v.split(",")).map(Integer::parseInt).toList();
          case "--context" -> context = Integer.parseInt(v);
          case "--steps" -> steps = Integer.parseInt(v);
          case "--warmup" -> warmup = Integer.parseInt(v);
          case "--rounds" -> rounds = Integer.parseInt(v);
          case "--bandwidth-tbs" -> bandwidth = Double.parseDouble(v);
          case "--requests" -> requests = Integer.parseInt(v);
          case "--rate" -> rate = Double.parseDouble(v);
          case "--prompt" -> prompt = range(a, v);
          case "--output" -> output = range(a, v);
          case "--seed" -> seed = Long.parseLong(v);
          case "--max-sequences" -> maxSequences = Integer.parseInt(v);
          case "--max-tokens-per-step" -> maxTokens = Integer.parseInt(v);
          case "--kv-blocks" -> kvBlocks = Integer.parseInt(v);
          case "--max-context" -> maxContext = Integer.parseInt(v);
          case "--limit-s" -> limit = Double.parseDouble(v);
          case "--tunings" -> tunings = Arrays.stream(v.split(",")).map(Options::tuning).toList();
          default ->
              throw new IllegalArgumentException("LlmBench: unknown option " + a + "; " + USAGE);
        }
      }
      for (String m : modes) {
        if (!m.equals("decode") && !m.equals("load") && !m.equals("trace")) {
          throw new IllegalArgumentException(
              "LlmBench: --mode " + m + " is none of decode, load and trace; " + USAGE);
        }
      }
      if (!tunings.isEmpty() && modes.contains("load")) {
        throw new IllegalArgumentException(
            "LlmBench: --tunings compares decode and trace only; give --mode decode or trace");
      }
      if (model == null && !quick) {
        throw new IllegalArgumentException(
            "LlmBench: no --model; give a model directory (make_checkpoint.py --dtype bfloat16) or"
                + " --quick");
      }
      if (steps < 1 || warmup < 1 || rounds < 1 || context < 1 || requests < 1 || !(rate > 0)) {
        throw new IllegalArgumentException(
            "LlmBench: --steps "
                + steps
                + ", --warmup "
                + warmup
                + ", --rounds "
                + rounds
                + ", --context "
                + context
                + ", --requests "
                + requests
                + ", --rate "
                + rate
                + ": give positive numbers (the timed window starts after a warm-up step)");
      }
      for (int b : batches) {
        if (b < 1 || b > maxSequences || b >= maxTokens) {
          throw new IllegalArgumentException(
              "LlmBench: batch "
                  + b
                  + " must be in [1, --max-sequences "
                  + maxSequences
                  + "] and below --max-tokens-per-step "
                  + maxTokens
                  + " (prefill needs room beside the decode tokens)");
        }
      }
      return new Options(
          modes,
          model,
          quick,
          batches,
          context,
          steps,
          warmup,
          rounds,
          bandwidth,
          requests,
          rate,
          prompt[0],
          prompt[1],
          output[0],
          output[1],
          seed,
          maxSequences,
          maxTokens,
          kvBlocks,
          maxContext,
          limit,
          tunings);
    }

    /**
     * {@return the tuning {@code N:inside}, {@code N:rope} or {@code N:apart}, optionally with
     * {@code :sK} (grouped attention's splits at batch 1) names}
     */
    private static BatchStep.Tuning tuning(String v) {
      String[] parts = v.split(":", 3);
      if (parts.length < 2
          || !parts[0].matches("[0-9]{1,2}")
          || !List.of("inside", "apart", "rope").contains(parts[1])
          || parts.length == 3
              && !(parts[2].matches("s[0-9]{1,2}")
                  && Integer.parseInt(parts[2].substring(1)) >= 1
                  && Integer.parseInt(parts[2].substring(1)) <= LlmKernels.MAX_SPLITS)) {
        throw new IllegalArgumentException(
            "LlmBench: --tunings takes N:inside, N:rope or N:apart (gemv_stream1's blocks an SM, 0"
                + " for gemv_stream; the norms inside the products, RoPE too, or apart), then"
                + " optionally :sK (attention's splits at batch 1, 1 to "
                + LlmKernels.MAX_SPLITS
                + "), not '"
                + v
                + "'");
      }
      return new BatchStep.Tuning(
          Integer.parseInt(parts[0]),
          !parts[1].equals("apart"),
          parts[1].equals("rope"),
          parts.length == 3 ? Integer.parseInt(parts[2].substring(1)) : 0);
    }

    /** {@return the tuning's name in the lines: as --tunings writes it} */
    static String name(BatchStep.Tuning t) {
      String how = t.ropeInProductOne() ? "rope" : t.normInProductOne() ? "inside" : "apart";
      return t.gemvOneBlocksPerSm()
          + ":"
          + how
          + (t.oneTokenSplits() > 0 ? ":s" + t.oneTokenSplits() : "");
    }

    private static int[] range(String option, String v) {
      String[] parts = v.split("-");
      int lo = Integer.parseInt(parts[0]), hi = Integer.parseInt(parts[parts.length - 1]);
      if (parts.length > 2 || lo < 1 || hi < lo) {
        throw new IllegalArgumentException(
            "LlmBench: " + option + " " + v + " is not a range LO-HI with 1 <= LO <= HI");
      }
      return new int[] {lo, hi};
    }

    /** The tokens a decode round needs beyond its prompt: the steps and the prefill's slack. */
    int decodeTokens(int batch) {
      // While the last sequence prefills, the first ones decode one token a step; a step's tokens
      // are the decode tokens first, so at most ceil(B * context / (T - B)) + 1 such steps.
      int prefillSteps = (int) Math.ceil((double) batch * context / (maxTokensPerStep - batch)) + 1;
      return prefillSteps + warmup + steps + 2;
    }

    /**
     * The most positions of a sequence: {@code --max-context}, or else what the runs need. It sets
     * the width of the block table every step copies for each sequence (LlmEngine takes the model's
     * context, or the KV cache's, if fewer).
     */
    int maxContext() {
      return maxContextOption > 0 ? maxContextOption : neededContext();
    }

    /** The positions the runs need: a decode round's, the load's longest request. */
    int neededContext() {
      int decode = 0;
      for (int b : batches) {
        decode = Math.max(decode, context + decodeTokens(b));
      }
      int load = promptMax + outputMax;
      int trace = modes.contains("trace") ? context + 1 : 1;
      return Math.max(
          trace,
          Math.max(modes.contains("decode") ? decode : 1, modes.contains("load") ? load : 1));
    }
  }

  private static final String USAGE =
      "usage: LlmBench --model DIR | --quick [--mode decode,load,trace] [--batches 1,8,32,64,128]"
          + " [--context 512] [--steps 64] [--warmup 8] [--rounds 5] [--bandwidth-tbs 3.35]"
          + " [--requests 1000] [--rate 20] [--prompt 128-1024] [--output 128-512] [--seed 40]"
          + " [--max-sequences 128] [--max-tokens-per-step 2048] [--kv-blocks N] [--max-context N]"
          + " [--limit-s 120] [--tunings 4:rope,4:inside,4:apart,0:apart,4:rope:s8]";

  /**
   * Runs the benchmark of the command line {@code args}.
   *
   * @param args the options (see the class comment)
   */
  public static void main(String[] args) {
    Options options;
    try {
      options = Options.parse(List.of(args));
    } catch (IllegalArgumentException e) {
      System.err.println(e.getMessage());
      System.exit(2);
      return;
    }
    run(options, System.out);
  }

  /** Runs {@code options}, printing the lines to {@code out}. */
  static void run(Options options, PrintStream out) {
    Path temporary = null;
    try {
      Path model = options.model();
      if (model == null) {
        temporary = Files.createTempDirectory("llmbench");
        model =
            TinyCheckpoints.write(
                temporary.resolve("tiny-bf16"),
                TinyCheckpoints.Spec.tiny(options.seed()).withDtype(DType.BF16));
      }
      if (options.quick()) {
        try (CudaPlatform simulator =
            CudaPlatform.forDriver(Simulator.builder().build(), "simulator")) {
          run(options, model, simulator.defaultDevice(), "simulator", out);
        }
      } else {
        CudaPlatform platform = CudaPlatform.system();
        run(options, model, platform.defaultDevice(), platform.providerId(), out);
      }
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    } finally {
      if (temporary != null) {
        deleteTree(temporary);
      }
    }
  }

  private static void deleteTree(Path root) {
    try (var paths = Files.walk(root)) {
      for (Path p : paths.sorted(java.util.Comparator.reverseOrder()).toList()) {
        Files.deleteIfExists(p);
      }
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  /** The engine under test and what the figures need of it. */
  private record Engine(
      @Nullable String tuning,
      Scheduler scheduler,
      AtomicReference<BatchStep> step,
      Device device,
      ModelConfig config,
      long layerBytes,
      long embeddingRowBytes,
      long kvBytesPerToken) {}

  private static void run(Options o, Path model, Device device, String provider, PrintStream out) {
    try (Checkpoint checkpoint = Checkpoint.open(model);
        Tokenizer tokenizer = Tokenizer.load(model.resolve("tokenizer.json"))) {
      ModelConfig config = checkpoint.config();
      long started = System.nanoTime();
      ModelWeights weights = ModelWeights.of(checkpoint);
      int maxContext = o.maxContext();
      int needed = o.neededContext();
      if (maxContext < needed) {
        throw new IllegalArgumentException(
            "LlmBench: --max-context "
                + maxContext
                + " is below the "
                + needed
                + " positions the runs need; give at least that");
      }
      if (maxContext > config.maxPositionEmbeddings()) {
        throw new IllegalArgumentException(
            "LlmBench: the runs need "
                + maxContext
                + " positions, beyond the model's max_position_embeddings "
                + config.maxPositionEmbeddings()
                + "; lower --context, --steps or --prompt/--output");
      }
      int blocksPerSequence = KvCache.blocksFor(maxContext);
      int kvBlocks = o.kvBlocks() > 0 ? o.kvBlocks() : o.maxSequences() * blocksPerSequence;
      BatchStep.Limits limits =
          new BatchStep.Limits(o.maxTokensPerStep(), o.maxSequences(), maxContext, kvBlocks);
      long kvBytesPerToken =
          2L * config.numHiddenLayers() * config.kvDim() * weights.type().bytes();
      List<BatchStep.Tuning> tunings =
          o.tunings().isEmpty() ? List.of(BatchStep.Tuning.defaults()) : o.tunings();
      if (o.modes().contains("trace")) {
        for (BatchStep.Tuning tuning : tunings) {
          trace(o, weights, device, tuning, out);
        }
        if (o.modes().equals(List.of("trace"))) {
          return;
        }
      }
      List<Scheduler> schedulers = new ArrayList<>();
      try {
        List<Engine> engines = new ArrayList<>();
        for (BatchStep.Tuning tuning : tunings) {
          AtomicReference<BatchStep> stepRef = new AtomicReference<>();
          // No end-of-sequence tokens: every generation runs to its token count (ignore_eos).
          Scheduler scheduler =
              new Scheduler(
                  model.getFileName().toString(),
                  maxContext,
                  config.vocabSize(),
                  tokenizer,
                  List.of(),
                  limits,
                  () -> {
                    StreamSteps steps = StreamSteps.open(device, weights, limits, 0, tuning);
                    stepRef.set(steps.step());
                    return steps;
                  });
          schedulers.add(scheduler);
          engines.add(
              new Engine(
                  o.tunings().isEmpty() ? null : Options.name(tuning),
                  scheduler,
                  stepRef,
                  device,
                  config,
                  layerBytes(weights),
                  (long) config.hiddenSize() * weights.type().bytes(),
                  kvBytesPerToken));
        }
        double setupSeconds = (System.nanoTime() - started) / 1e9;
        Engine first = engines.getFirst();
        out.printf(
            Locale.ROOT,
            "# LlmBench on %s (%s), model %s, %s, %d layers, hidden %d, vocab %d%n",
            device.name(),
            provider,
            model.getFileName(),
            weights.type(),
            config.numHiddenLayers(),
            config.hiddenSize(),
            config.vocabSize());
        out.printf(
            Locale.ROOT,
            "setup,engine=scheduler,eos=ignored,provider=%s,dtype=%s,load_s=%.3f,weights_bytes=%d,"
                + "max_sequences=%d,max_tokens_per_step=%d,max_context=%d,kv_blocks=%d,"
                + "kv_block_bytes=%d,kv_cache_bytes=%d%n",
            provider,
            weights.type(),
            setupSeconds,
            first.layerBytes() + embeddingBytes(weights),
            o.maxSequences(),
            o.maxTokensPerStep(),
            maxContext,
            kvBlocks,
            KvCache.BLOCK_SIZE * kvBytesPerToken,
            kvBlocks * KvCache.BLOCK_SIZE * kvBytesPerToken);
        for (Engine engine : engines) {
          warmGraphs(engine, out);
        }
        if (o.modes().contains("decode")) {
          for (int batch : o.batches()) {
            decode(o, engines, batch, out);
          }
          for (Engine engine : engines) {
            graphs(engine, "decode", out);
          }
        }
        if (o.modes().contains("load")) {
          load(o, first, kvBlocks, out);
          graphs(first, "load", out);
        }
      } finally {
        closeAll(schedulers);
      }
    }
  }

  /** The {@code trace} mode (see the class comment). */
  private static void trace(
      Options o, ModelWeights weights, Device device, BatchStep.Tuning tuning, PrintStream out) {
    int position = o.context(), capacity = 1 << 16;
    BatchStep.Limits limits =
        new BatchStep.Limits(1, 1, position + 1, KvCache.blocksFor(position + 1));
    String label =
        String.format(
            Locale.ROOT,
            "trace,engine=batchstep,tuning=%s,position=%d",
            o.tunings().isEmpty() ? "default" : Options.name(tuning),
            position);
    try (Stream setup = device.newStream();
        StreamSteps steps = StreamSteps.open(device, weights, limits, 0, tuning);
        DeviceBuffer<Long> buffer =
            DeviceBuffer.zeros(ElementType.I64, KernelTimeline.words(capacity)).syncOn(setup)) {
      buffer.slice(1, 1).write(new long[] {capacity}).syncOn(setup);
      int[] table = new int[limits.kvBlocks()];
      Arrays.setAll(table, b -> b);
      List<BatchStep.Chunk> one =
          List.of(new BatchStep.Chunk(new int[] {1}, position, table, Sampling.GREEDY));
      for (int i = 0; i < o.warmup(); i++) {
        steps.run(one);
      }
      double[] host = new double[o.steps()];
      List<KernelTimeline> timelines = new ArrayList<>();
      for (int i = 0; i < o.steps(); i++) {
        long started = System.nanoTime();
        steps.run(one);
        host[i] = (System.nanoTime() - started) / 1e3;
        steps.step().runTraced(one, buffer);
        timelines.add(KernelTimeline.read(buffer.toLongArray().syncOn(setup)));
      }
      if (timelines.getFirst().launches().isEmpty()) {
        out.println(
            label
                + (device.platform().providerId().equals("simulator")
                    ? ",records=0,note=the simulator's kernels are Java references"
                    : ",records=0,note=the committed PTX records nothing: regenerate.sh --trace DIR"
                        + " then DIR first on the class path"));
        return;
      }
      Arrays.sort(host);
      out.printf(
          Locale.ROOT,
          "%s,steps=%d,launches_traced=%d,untraced_step_us_host_p50=%.1f%n",
          label,
          o.steps(),
          timelines.getFirst().launches().size(),
          host[host.length / 2]);
      KernelTimeline.table(timelines, LlmKernels.TRACED::get)
          .lines()
          .forEach(line -> out.println("# " + line));
    }
  }

  /** Closes the engines' schedulers, last first; the first failure is thrown, the rest added. */
  private static void closeAll(List<Scheduler> schedulers) {
    RuntimeException failure = null;
    for (Scheduler s : schedulers.reversed()) {
      try {
        s.close();
      } catch (RuntimeException e) {
        if (failure == null) {
          failure = e;
        } else {
          failure.addSuppressed(e);
        }
      }
    }
    if (failure != null) {
      throw failure;
    }
  }

  /**
   * {@return the engine's tuning as a field of its lines, or nothing for the one default engine}
   */
  private static String tag(Engine engine) {
    return engine.tuning() == null ? "" : ",tuning=" + engine.tuning();
  }

  /** {@return the bytes a decode step reads of the weights but the embedding's rows} */
  private static long layerBytes(ModelWeights w) {
    long bytes = w.finalNorm().byteSize() + w.lmHead().byteSize();
    for (ModelWeights.Layer l : w.layers()) {
      for (MemorySegment s :
          List.of(
              l.attentionNorm(),
              l.q(),
              l.k(),
              l.v(),
              l.o(),
              l.mlpNorm(),
              l.gate(),
              l.up(),
              l.down())) {
        bytes += s.byteSize();
      }
    }
    return bytes;
  }

  private static long embeddingBytes(ModelWeights w) {
    return w.lmHead().equals(w.embedding()) ? 0 : w.embedding().byteSize();
  }

  private static int[] randomTokens(Random random, int length, int vocabulary) {
    int[] ids = new int[length];
    for (int i = 0; i < length; i++) {
      ids[i] = random.nextInt(vocabulary);
    }
    return ids;
  }

  /** A sink that keeps how a generation ended. */
  private static final class Outcome implements TokenSink {
    volatile boolean ended;
    volatile int completionTokens = -1;
    volatile long endNanos;
    volatile @Nullable Throwable failure;
    final CountDownLatch done = new CountDownLatch(1);

    @Override
    public void text(String piece) {}

    @Override
    public void finish(FinishReason reason, Usage usage) {
      endNanos = System.nanoTime();
      completionTokens = usage.completionTokens();
      ended = true;
      done.countDown();
    }

    @Override
    public void fail(Throwable cause) {
      endNanos = System.nanoTime();
      failure = cause;
      ended = true;
      done.countDown();
    }
  }

  /** What one decode round measured. */
  private record Round(double tokensPerSecond, double stepMillis, double meanLength) {}

  /**
   * Decodes at {@code batch} on every engine, round by round: round r of each engine, with the same
   * prompts, before round r + 1 of any.
   */
  private static void decode(Options o, List<Engine> engines, int batch, PrintStream out) {
    List<List<Round>> rounds = new ArrayList<>();
    boolean[] cut = new boolean[engines.size()];
    for (int e = 0; e < engines.size(); e++) {
      rounds.add(new ArrayList<>());
    }
    for (int r = 0; r < o.rounds(); r++) {
      for (int e = 0; e < engines.size(); e++) {
        if (cut[e]) {
          continue;
        }
        Round round =
            decodeRound(
                o, engines.get(e), batch, new Random(o.seed() * 1_000_003L + batch * 31L + r));
        if (round == null) {
          cut[e] = true;
          out.printf(
              Locale.ROOT,
              "decode,engine=scheduler%s,batch=%d,ctx=%d,status=cut,limit_s=%.0f,rounds_done=%d%n",
              tag(engines.get(e)),
              batch,
              o.context(),
              o.limitSeconds(),
              r);
        } else {
          rounds.get(e).add(round);
        }
      }
    }
    for (int e = 0; e < engines.size(); e++) {
      if (!cut[e]) {
        print(o, engines.get(e), batch, rounds.get(e), out);
      }
    }
  }

  /** Prints the decode line of {@code engine}'s rounds at {@code batch}. */
  private static void print(
      Options o, Engine engine, int batch, List<Round> rounds, PrintStream out) {
    double[] rates = rounds.stream().mapToDouble(Round::tokensPerSecond).sorted().toArray();
    double stepMillis = median(rounds.stream().mapToDouble(Round::stepMillis).toArray());
    double meanLength = median(rounds.stream().mapToDouble(Round::meanLength).toArray());
    long weights = engine.layerBytes() + batch * engine.embeddingRowBytes();
    long kv = Math.round(batch * meanLength * engine.kvBytesPerToken());
    double gbPerSecond = (weights + kv) / (stepMillis / 1e3) / 1e9;
    out.printf(
        Locale.ROOT,
        "decode,engine=scheduler%s,batch=%d,ctx=%d,steps=%d,rounds=%d,tok_s=%.1f,min=%.1f,"
            + "max=%.1f,step_ms=%.4f,mean_len=%.1f,weights_bytes=%d,kv_bytes=%d,step_bytes=%d,"
            + "gb_s=%.3f,of_bandwidth=%.5f,bandwidth_tbs=%.2f%n",
        tag(engine),
        batch,
        o.context(),
        o.steps(),
        rates.length,
        median(rates),
        rates[0],
        rates[rates.length - 1],
        stepMillis,
        meanLength,
        weights,
        kv,
        weights + kv,
        gbPerSecond,
        gbPerSecond / (o.bandwidthTbs() * 1e3),
        o.bandwidthTbs());
  }

  /**
   * One round: {@code batch} prompts prefilled, then the timed steps; null when cut by the limit.
   */
  private static Round decodeRound(Options o, Engine engine, int batch, Random random) {
    Scheduler scheduler = engine.scheduler();
    int vocabulary = engine.config().vocabSize();
    int maxTokens = o.decodeTokens(batch);
    List<Scheduler.Ticket> tickets = new ArrayList<>();
    List<Outcome> outcomes = new ArrayList<>();
    CountDownLatch timed = new CountDownLatch(1);
    long[] window = new long[4]; // t0, t1, tokens at t0, tokens at t1 (the engine thread's)
    int[] decodeSteps = {-1};
    // Written by this thread, read by the engine thread's hook.
    AtomicReferenceArray<Scheduler.Ticket> all = new AtomicReferenceArray<>(batch);
    scheduler.afterStep(
        steps -> {
          long now = System.nanoTime();
          long made = 0;
          int fewest = Integer.MAX_VALUE;
          for (int s = 0; s < batch; s++) {
            Scheduler.Ticket t = all.get(s);
            int g = t == null ? 0 : t.generatedTokens();
            made += g;
            fewest = Math.min(fewest, g);
          }
          if (decodeSteps[0] < 0) {
            if (fewest >= 1) {
              decodeSteps[0] = 0; // every sequence decodes from the next step on
            }
            return;
          }
          decodeSteps[0]++;
          if (decodeSteps[0] == o.warmup()) {
            window[0] = now;
            window[2] = made;
          }
          if (decodeSteps[0] == o.warmup() + o.steps()) {
            window[1] = now;
            window[3] = made;
            timed.countDown();
          }
        });
    try {
      for (int s = 0; s < batch; s++) {
        Outcome outcome = new Outcome();
        Scheduler.Ticket t =
            scheduler.submit(
                new GenerationRequest(
                    randomTokens(random, o.context(), vocabulary),
                    maxTokens,
                    0,
                    1,
                    null,
                    List.of()),
                outcome);
        tickets.add(t);
        outcomes.add(outcome);
        all.set(s, t);
      }
      boolean finished = timed.await(Math.round(o.limitSeconds() * 1e3), TimeUnit.MILLISECONDS);
      for (Outcome outcome : outcomes) {
        if (outcome.ended) {
          throw new IllegalStateException(
              "LlmBench.decode: batch "
                  + batch
                  + ": a generation ended before the timed steps did ("
                  + (outcome.failure != null
                      ? "failed: " + outcome.failure
                      : outcome.completionTokens + " tokens of " + maxTokens)
                  + ")",
              outcome.failure);
        }
      }
      if (!finished) {
        return null;
      }
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new IllegalStateException("LlmBench.decode: interrupted", e);
    } finally {
      scheduler.afterStep(null);
      for (Scheduler.Ticket t : tickets) {
        t.cancel();
      }
      awaitIdle(scheduler);
    }
    long tokens = window[3] - window[2];
    if (tokens != (long) batch * o.steps()) {
      throw new IllegalStateException(
          "LlmBench.decode: batch "
              + batch
              + ": the timed steps made "
              + tokens
              + " tokens, not "
              + batch
              + " x "
              + o.steps()
              + ": a step of the window was not a full decode step");
    }
    double seconds = (window[1] - window[0]) / 1e9;
    // Each sequence's mean length over the timed steps: its prompt, its tokens, half the window.
    double meanLength = o.context() + (window[2] + window[3]) / 2.0 / batch;
    return new Round(tokens / seconds, seconds * 1e3 / o.steps(), meanLength);
  }

  private static void awaitIdle(Scheduler scheduler) {
    long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(30);
    while (scheduler.stats().running() + scheduler.stats().waiting() > 0
        || scheduler.stats().usedBlocks() > 0) {
      if (System.nanoTime() > deadline) {
        throw new IllegalStateException(
            "LlmBench: the engine did not drain in 30 s after the cancels: " + scheduler.stats());
      }
      LockSupport.parkNanos(1_000_000);
    }
  }

  /**
   * Captures every bucket's graph before anything is measured, as servers do at start-up: from the
   * engine thread's after-step hook (the step's CUDA objects stay on that thread) after a one-token
   * request's step.
   */
  private static void warmGraphs(Engine engine, PrintStream out) {
    Scheduler scheduler = engine.scheduler();
    BatchStep step = engine.step().get();
    java.util.SortedSet<Integer> buckets = new java.util.TreeSet<>();
    for (int n = 1; ; n = Math.min(2 * n, step.limits().maxTokens())) {
      buckets.add(step.bucketFor(n));
      if (n == step.limits().maxTokens()) {
        break;
      }
    }
    AtomicReference<@Nullable RuntimeException> failure = new AtomicReference<>();
    long[] nanos = {0};
    CountDownLatch warmed = new CountDownLatch(1);
    scheduler.afterStep(
        steps -> {
          if (warmed.getCount() == 0) {
            return;
          }
          long start = System.nanoTime();
          try {
            step.graphs().warm(buckets);
          } catch (RuntimeException e) {
            failure.set(e);
          }
          nanos[0] = System.nanoTime() - start;
          warmed.countDown();
        });
    Outcome outcome = new Outcome();
    try {
      scheduler.submit(new GenerationRequest(new int[] {0}, 1, 0, 1, null, List.of()), outcome);
      if (!warmed.await(10, TimeUnit.MINUTES) || !outcome.done.await(1, TimeUnit.MINUTES)) {
        throw new IllegalStateException("LlmBench: the graphs' warm-up did not end in 10 minutes");
      }
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new IllegalStateException("LlmBench: interrupted while warming the graphs", e);
    } finally {
      scheduler.afterStep(null);
    }
    if (failure.get() != null) {
      throw new IllegalStateException(
          "LlmBench: warming the graphs of buckets " + buckets + " failed", failure.get());
    }
    // The one-token step captured its own bucket before the hook ran: the sum covers it too.
    long captured = 0;
    for (GraphCache.KeyStats k : step.graphs().stats().values()) {
      captured +=
          k.captureTime().toNanos() + k.instantiateTime().toNanos() + k.uploadTime().toNanos();
    }
    out.printf(
        Locale.ROOT,
        "warmup%s,buckets=%s,seconds=%.3f,warm_call_s=%.3f%n",
        tag(engine),
        String.join("/", buckets.stream().map(String::valueOf).toList()),
        captured / 1e9,
        nanos[0] / 1e9);
  }

  private static void graphs(Engine engine, String after, PrintStream out) {
    BatchStep step = engine.step().get();
    GraphCache<Integer> cache = step.graphs();
    double captureTotal = 0;
    for (Map.Entry<Integer, GraphCache.KeyStats> e :
        new java.util.TreeMap<>(cache.stats()).entrySet()) {
      GraphCache.KeyStats s = e.getValue();
      double capture = s.captureTime().toNanos() / 1e6;
      double instantiate = s.instantiateTime().toNanos() / 1e6;
      double upload = s.uploadTime().toNanos() / 1e6;
      captureTotal += capture + instantiate + upload;
      out.printf(
          Locale.ROOT,
          "graph,after=%s%s,bucket=%d,capture_ms=%.3f,instantiate_ms=%.3f,upload_ms=%.3f,"
              + "graph_bytes=%d,replays=%d%n",
          after,
          tag(engine),
          e.getKey(),
          capture,
          instantiate,
          upload,
          s.graphMemoryBytes(),
          s.replays());
    }
    GraphMemory device = engine.device().graphMemory();
    out.printf(
        Locale.ROOT,
        "graphs,after=%s%s,count=%d,total_ms=%.3f,accounted_bytes=%d,device_used_bytes=%d,"
            + "device_reserved_high_bytes=%d%n",
        after,
        tag(engine),
        cache.stats().size(),
        captureTotal,
        cache.graphMemoryBytes(),
        device.usedBytes(),
        device.reservedHighBytes());
  }

  /** One request of the load test, followed by the engine thread's after-step hook. */
  private static final class Tracked {
    final int outputTokens;
    final Outcome outcome = new Outcome();
    volatile long submitNanos;
    volatile Scheduler.@Nullable Ticket ticket;
    // The engine thread's alone.
    int seen;
    long firstNanos;
    long lastNanos;

    Tracked(int outputTokens) {
      this.outputTokens = outputTokens;
    }
  }

  private static void load(Options o, Engine engine, int kvBlocks, PrintStream out) {
    Scheduler scheduler = engine.scheduler();
    Random random = new Random(o.seed());
    int n = o.requests();
    long[] arrivals = new long[n];
    List<int[]> prompts = new ArrayList<>(n);
    List<Tracked> requests = new ArrayList<>(n);
    double at = 0;
    for (int i = 0; i < n; i++) {
      at += -Math.log(1 - random.nextDouble()) / o.rate(); // exponential gaps: Poisson arrivals
      arrivals[i] = Math.round(at * 1e9);
      int length = o.promptMin() + random.nextInt(o.promptMax() - o.promptMin() + 1);
      prompts.add(randomTokens(random, length, engine.config().vocabSize()));
      requests.add(new Tracked(o.outputMin() + random.nextInt(o.outputMax() - o.outputMin() + 1)));
    }
    ConcurrentLinkedQueue<Tracked> fresh = new ConcurrentLinkedQueue<>();
    List<Tracked> active = new ArrayList<>();
    List<Double> gaps = new ArrayList<>();
    int[] peakBlocks = {0};
    long[] stepCount = {0};
    // Counted down by the hook once it has seen a request end (its last token's time taken); the
    // hook's state is read under the lock of gaps once the engine is idle.
    CountDownLatch followed = new CountDownLatch(n);
    scheduler.afterStep(
        steps -> {
          synchronized (gaps) {
            followStep(scheduler, fresh, active, gaps, peakBlocks, stepCount, followed);
          }
        });
    long start = System.nanoTime();
    long deadline = start + Math.round(o.limitSeconds() * 1e9);
    boolean cut = false;
    try {
      for (int i = 0; i < n; i++) {
        long due = start + arrivals[i];
        for (long wait; (wait = due - System.nanoTime()) > 0; ) {
          LockSupport.parkNanos(wait);
        }
        Tracked t = requests.get(i);
        t.submitNanos = System.nanoTime();
        fresh.add(t);
        t.ticket =
            scheduler.submit(
                new GenerationRequest(prompts.get(i), t.outputTokens, 0, 1, null, List.of()),
                t.outcome);
        if (System.nanoTime() > deadline) {
          cut = true;
          break;
        }
      }
      if (!cut && !followed.await(deadline - System.nanoTime(), TimeUnit.NANOSECONDS)) {
        cut = true;
      }
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new IllegalStateException("LlmBench.load: interrupted", e);
    } finally {
      for (Tracked t : requests) {
        if (t.ticket != null) {
          t.ticket.cancel();
        }
      }
      awaitIdle(scheduler);
      scheduler.afterStep(null);
    }
    synchronized (gaps) {
      report(
          o,
          engine,
          kvBlocks,
          out,
          n,
          prompts,
          requests,
          start,
          cut,
          gaps,
          peakBlocks[0],
          stepCount[0]);
    }
  }

  /** The after-step hook of the load test: each request's new tokens and their times. */
  private static void followStep(
      Scheduler scheduler,
      ConcurrentLinkedQueue<Tracked> fresh,
      List<Tracked> active,
      List<Double> gaps,
      int[] peakBlocks,
      long[] stepCount,
      CountDownLatch followed) {
    long now = System.nanoTime();
    stepCount[0]++;
    peakBlocks[0] = Math.max(peakBlocks[0], scheduler.stats().usedBlocks());
    for (Tracked t; (t = fresh.poll()) != null; ) {
      active.add(t);
    }
    for (Iterator<Tracked> it = active.iterator(); it.hasNext(); ) {
      Tracked t = it.next();
      Scheduler.Ticket ticket = t.ticket;
      int g = ticket == null ? 0 : ticket.generatedTokens();
      if (g > t.seen) {
        if (t.seen == 0) {
          t.firstNanos = now;
        } else {
          double gap = (now - t.lastNanos) / 1e6 / (g - t.seen);
          for (int k = t.seen; k < g; k++) {
            gaps.add(gap); // one gap per token of the step (one, for a decode step)
          }
        }
        t.seen = g;
        t.lastNanos = now;
      }
      if (t.outcome.ended) {
        it.remove();
        followed.countDown();
      }
    }
  }

  private static void report(
      Options o,
      Engine engine,
      int kvBlocks,
      PrintStream out,
      int n,
      List<int[]> prompts,
      List<Tracked> requests,
      long start,
      boolean cut,
      List<Double> gaps,
      int peakBlocks,
      long stepCount) {
    int done = 0, short_ = 0;
    long outputTokens = 0, promptTokens = 0, end = start;
    List<Double> ttft = new ArrayList<>();
    for (int i = 0; i < n; i++) {
      Tracked t = requests.get(i);
      if (!t.outcome.ended || t.outcome.failure != null || t.outcome.completionTokens < 0) {
        continue;
      }
      done++;
      outputTokens += t.outcome.completionTokens;
      promptTokens += prompts.get(i).length;
      if (t.outcome.completionTokens != t.outputTokens) {
        short_++;
      }
      end = Math.max(end, t.outcome.endNanos);
      if (t.firstNanos > 0) {
        ttft.add((t.firstNanos - t.submitNanos) / 1e6);
      }
    }
    if (done == 0) {
      out.printf(
          Locale.ROOT,
          "load,engine=scheduler,requests=%d,status=cut,limit_s=%.0f,done=0%n",
          n,
          o.limitSeconds());
      return;
    }
    double seconds = (end - start) / 1e9;
    double[] firsts = ttft.stream().mapToDouble(Double::doubleValue).sorted().toArray();
    double[] between = gaps.stream().mapToDouble(Double::doubleValue).sorted().toArray();
    out.printf(
        Locale.ROOT,
        "load,engine=scheduler,requests=%d,done=%d,status=%s,rate=%.2f,prompts=%d-%d,outputs=%d-%d,"
            + "prompt_ids=random_uniform,seconds=%.3f,out_tok_s=%.1f,prompt_tok_s=%.1f,req_s=%.3f,"
            + "ttft_ms_p50=%.2f,ttft_ms_p99=%.2f,itl_ms_p50=%.3f,itl_ms_p99=%.3f,steps=%d,"
            + "kv_blocks_peak=%d,kv_blocks=%d,kv_bytes_peak=%d,short=%d%n",
        n,
        done,
        cut ? "cut" : "ok",
        o.rate(),
        o.promptMin(),
        o.promptMax(),
        o.outputMin(),
        o.outputMax(),
        seconds,
        outputTokens / seconds,
        promptTokens / seconds,
        done / seconds,
        percentile(firsts, 0.50),
        percentile(firsts, 0.99),
        percentile(between, 0.50),
        percentile(between, 0.99),
        stepCount,
        peakBlocks,
        kvBlocks,
        peakBlocks * KvCache.BLOCK_SIZE * engine.kvBytesPerToken(),
        short_);
  }

  /** {@return the median of {@code values}} */
  static double median(double[] values) {
    double[] s = values.clone();
    Arrays.sort(s);
    int n = s.length;
    return n % 2 == 1 ? s[n / 2] : (s[n / 2 - 1] + s[n / 2]) / 2;
  }

  /** {@return the nearest-rank {@code p} percentile of the sorted {@code sorted}, NaN if empty} */
  static double percentile(double[] sorted, double p) {
    if (sorted.length == 0) {
      return Double.NaN;
    }
    int rank = (int) Math.ceil(p * sorted.length);
    return sorted[Math.max(0, rank - 1)];
  }
}
