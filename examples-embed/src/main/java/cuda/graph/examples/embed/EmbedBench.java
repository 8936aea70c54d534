package cuda.graph.examples.embed;

import cuda.graph.CudaPlatform;
import cuda.graph.GraphCache;
import cuda.graph.Stream;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.CharacterCodingException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import java.util.regex.Pattern;
import java.util.stream.IntStream;
import java.util.stream.Stream.Builder;

/**
 * A first measurement of the embedding job on real English text: sentences split from the
 * plain-text files under a folder (on a Linux host, {@code /usr/share/doc} and {@code
 * /usr/share/common-licenses}), then
 *
 * <ul>
 *   <li>their length distribution in tokens;
 *   <li>ingestion: {@code embedAll} of all of them in batches of 64 (tokenization included),
 *       sentences per second, the graphs it captured (one per batch and length bucket) and their
 *       capture time and graph memory;
 *   <li>query latency: one sentence of 8 to 32 tokens embedded at a time (tokenize, copy, one graph
 *       replay, read back), p50 and p99;
 *   <li>the check: every one of the first {@code check} sentences within cosine 0.99999 of the
 *       plain-Java reference (computed on all host cores).
 * </ul>
 *
 * <pre>java ... EmbedBench [folder ...] [--max N] [--check N]</pre>
 */
public final class EmbedBench {

  private static final Pattern SENTENCE_END = Pattern.compile("(?<=[.!?])\\s+");

  private EmbedBench() {}

  public static void main(String[] args) {
    List<Path> roots = new ArrayList<>();
    int max = 100_000, check = 2_000;
    for (int i = 0; i < args.length; i++) {
      switch (args[i]) {
        case "--max" -> max = Integer.parseInt(args[++i]);
        case "--check" -> check = Integer.parseInt(args[++i]);
        default -> roots.add(Path.of(args[i]));
      }
    }
    if (roots.isEmpty()) {
      roots = List.of(Path.of("/usr/share/doc"), Path.of("/usr/share/common-licenses"));
    }
    List<String> sentences = sentences(roots, max);
    MiniLmArtifact artifact = MiniLmArtifact.locate();
    MiniLmWeights weights = MiniLmWeights.from(OnnxWeights.parse(artifact.readModel()));
    MiniLmTokenizer tokenizer = MiniLmTokenizer.load(artifact);
    CudaPlatform platform = CudaPlatform.system();
    System.out.printf(
        "# embedding bench on %s (%s): %,d sentences from %s%n",
        platform.defaultDevice().name(), platform.providerId(), sentences.size(), roots);
    int[] lengths = sentences.stream().mapToInt(s -> tokenizer.ids(s).length).sorted().toArray();
    System.out.printf(
        "tokens per sentence: p10 %d, p50 %d, p90 %d, p99 %d, max %d%n",
        at(lengths, 0.1), at(lengths, 0.5), at(lengths, 0.9), at(lengths, 0.99), at(lengths, 1));
    try (Stream stream = platform.defaultDevice().newStream();
        SentenceEmbedder embedder =
            new SentenceEmbedder(
                new GpuEncoder(weights, tokenizer, stream, 64, 128), 64, Duration.ZERO)) {
      embedder.embedAll(sentences.subList(0, Math.min(256, sentences.size())), line -> {});
      long t0 = System.nanoTime();
      float[][] all =
          embedder.embedAll(
              sentences,
              line -> {
                if (line.contains("000 of") || line.contains(" of " + sentences.size())) {
                  System.out.println("  " + line);
                }
              });
      double seconds = (System.nanoTime() - t0) / 1e9;
      System.out.printf(
          Locale.ROOT,
          "ingestion,%d,sentences,%.3f,s,%.1f,sentences_per_s%n",
          sentences.size(),
          seconds,
          sentences.size() / seconds);
      GraphCache<GpuEncoder.Shape> graphs = embedder.encoder().graphs();
      double captureMs =
          graphs.stats().values().stream()
              .mapToDouble(
                  s ->
                      (s.captureTime().toNanos()
                              + s.instantiateTime().toNanos()
                              + s.uploadTime().toNanos())
                          / 1e6)
              .sum();
      System.out.printf(
          Locale.ROOT,
          "graphs,%d,captured_in_ms,%.1f,graph_memory_mib,%.1f,device_graph_memory_used_mib,%.1f%n",
          graphs.stats().size(),
          captureMs,
          graphs.graphMemoryBytes() / 1048576.0,
          platform.defaultDevice().graphMemory().usedBytes() / 1048576.0);

      List<String> queries =
          sentences.stream()
              .filter(s -> tokenizer.ids(s).length >= 8 && tokenizer.ids(s).length <= 32)
              .limit(200)
              .toList();
      double[] micros = new double[Math.min(2000, queries.size() * 10)];
      for (int w = 0; w < 100; w++) {
        embedder.encoder().embed(List.of(queries.get(w % queries.size())));
      }
      for (int i = 0; i < micros.length; i++) {
        long q0 = System.nanoTime();
        embedder.encoder().embed(List.of(queries.get(i % queries.size())));
        micros[i] = (System.nanoTime() - q0) / 1e3;
      }
      Arrays.sort(micros);
      System.out.printf(
          Locale.ROOT,
          "query_latency_us,p50,%.1f,p99,%.1f,queries,%d%n",
          micros[micros.length / 2],
          micros[(int) (0.99 * (micros.length - 1))],
          micros.length);

      int checked = Math.min(check, all.length);
      ReferenceEncoder reference = new ReferenceEncoder(weights);
      double worst =
          IntStream.range(0, checked)
              .parallel()
              .mapToDouble(
                  i -> EmbedDemo.cosine(all[i], reference.embed(tokenizer.parts(sentences.get(i)))))
              .min()
              .orElse(1);
      System.out.printf(
          Locale.ROOT,
          "check,%d,sentences,worst_cosine_to_reference,%.9f,%s%n",
          checked,
          worst,
          worst >= 0.99999 ? "PASS" : "FAIL");
    }
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
