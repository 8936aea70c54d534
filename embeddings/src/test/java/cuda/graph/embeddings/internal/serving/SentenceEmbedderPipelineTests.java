// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 the cuda-graph authors
package cuda.graph.embeddings.internal.serving;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import cuda.graph.CudaPlatform;
import cuda.graph.Stream;
import cuda.graph.embeddings.Progress;
import cuda.graph.embeddings.internal.gpu.GpuEncoder;
import cuda.graph.embeddings.internal.model.MiniLm;
import cuda.graph.simulator.Simulator;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.AbstractList;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.ForkJoinPool;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import jdk.jfr.Recording;
import jdk.jfr.consumer.RecordedEvent;
import jdk.jfr.consumer.RecordingFile;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Ingestion as a pipeline, on the simulator: texts are tokenized a chunk at a time on a pool of
 * threads while the batches of earlier chunks run, yet {@code embedAll} still returns each text's
 * embedding in the texts' order, refuses a list with a bad text naming the lowest bad index however
 * late the text comes, tells progress from the call's start, and never runs a batch at once with a
 * single query's; a lone query runs on its caller's thread.
 */
class SentenceEmbedderPipelineTests {

  /** Thirteen texts of varied lengths: chunks of 4 (the last of 1), batches of 2. */
  private static final List<String> TEXTS =
      List.of(
          "A man is eating food.",
          "Hi",
          "The girl is carrying a baby, and the baby is laughing at the dog in the garden.",
          "A man is riding a horse.",
          "Ok",
          "A woman is playing violin.",
          "Two men are pushing carts through the woods.",
          "A cheetah is running behind its prey.",
          "Yes",
          "The quick brown fox jumps over the lazy dog near the river bank.",
          "Rain",
          "A child reads a book under a tree on a sunny afternoon.",
          "Stop");

  private CudaPlatform platform;
  private Stream stream;
  private SentenceEmbedder embedder;

  @BeforeEach
  void open() {
    platform = CudaPlatform.forDriver(Simulator.builder().build(), "simulator");
    stream = platform.defaultDevice().newStream();
    embedder =
        new SentenceEmbedder(
            new GpuEncoder(MiniLm.Ours.WEIGHTS, MiniLm.Ours.TOKENIZER, stream, 2, 64),
            2,
            Duration.ZERO,
            "minilm",
            4);
  }

  @AfterEach
  void close() {
    embedder.close();
    stream.close();
    platform.close();
  }

  private static void assertIsTheReferences(String text, float[] embedding) {
    float[] expected = MiniLm.Ours.ENCODER.embed(MiniLm.Ours.TOKENIZER.parts(text));
    MiniLm.assertEmbedding(embedding, expected, MiniLm.MIN_COSINE, text);
  }

  @Test
  void eachTextGetsItsOwnEmbeddingInInputOrderThoughChunksAreSortedAndBatchedApart() {
    List<Progress> progress = new ArrayList<>();
    float[][] all = embedder.embedAll(TEXTS, progress::add);
    assertEquals(TEXTS.size(), all.length);
    for (int i = 0; i < TEXTS.size(); i++) {
      assertIsTheReferences(TEXTS.get(i), all[i]);
    }
    // Chunks of 4, 4, 4 and 1 texts: 2 + 2 + 2 + 1 batches of up to 2, a line after each.
    assertEquals(
        List.of(2, 4, 6, 8, 10, 12, 13), progress.stream().map(Progress::embedded).toList());
    assertTrue(progress.stream().allMatch(p -> p.total() == TEXTS.size()), progress::toString);
  }

  @Test
  void aBadTextInALateChunkFailsTheWholeCallNamingTheLowestBadIndex() {
    List<String> bad = new ArrayList<>(TEXTS);
    bad.set(9, " \t"); // chunk 2
    bad.set(10, "a\uDC00"); // chunk 2, after it
    bad.set(12, null); // chunk 3, which may be tokenized first
    List<Progress> progress = new ArrayList<>();
    IllegalArgumentException e =
        assertThrows(IllegalArgumentException.class, () -> embedder.embedAll(bad, progress::add));
    assertTrue(
        e.getMessage().startsWith("Embedder.embedAll: text 9 of 13 has no word pieces"),
        e.getMessage());
    // The chunks before it ran while it was tokenized: their progress was told, no later one.
    assertTrue(progress.size() <= 4, progress::toString);
    assertTrue(progress.stream().allMatch(p -> p.embedded() <= 8), progress::toString);

    List<String> early = new ArrayList<>(TEXTS);
    early.set(1, "\uD800"); // chunk 0: refused before any batch runs
    early.set(12, " ");
    progress.clear();
    IllegalArgumentException first =
        assertThrows(IllegalArgumentException.class, () -> embedder.embedAll(early, progress::add));
    assertTrue(
        first.getMessage().startsWith("Embedder.embedAll: text 1 of 13 "), first.getMessage());
    assertEquals(List.of(), progress);
    assertIsTheReferences("Hi", embedder.embedAll(List.of("Hi"), p -> {})[0]);
  }

  @Test
  void theFirstBatchRunsWhileLaterChunksAreStillBeingTokenized() {
    CountDownLatch firstBatch = new CountDownLatch(1);
    AtomicBoolean waitedInVain = new AtomicBoolean();
    // Texts of the third chunk arrive only once a batch has run: with every text tokenized before
    // the first batch, each of them would wait its 5 seconds in vain.
    List<String> texts =
        new AbstractList<>() {
          @Override
          public String get(int i) {
            if (i >= 8) {
              awaitOrNote(firstBatch, waitedInVain);
            }
            return TEXTS.get(i);
          }

          @Override
          public int size() {
            return TEXTS.size();
          }
        };
    float[][] all = embedder.embedAll(texts, p -> firstBatch.countDown());
    assertTrue(!waitedInVain.get(), "a text of the third chunk waited for a batch that never ran");
    for (int i = 0; i < TEXTS.size(); i++) {
      assertIsTheReferences(TEXTS.get(i), all[i]);
    }
  }

  /** Waits up to 5 s for {@code latch}, telling a fork-join pool that this thread blocks. */
  private static void awaitOrNote(CountDownLatch latch, AtomicBoolean timedOut) {
    try {
      ForkJoinPool.managedBlock(
          new ForkJoinPool.ManagedBlocker() {
            @Override
            public boolean block() throws InterruptedException {
              if (!latch.await(5, TimeUnit.SECONDS)) {
                timedOut.set(true);
              }
              return true;
            }

            @Override
            public boolean isReleasable() {
              return latch.getCount() == 0;
            }
          });
    } catch (InterruptedException e) {
      throw new AssertionError(e);
    }
  }

  @Test
  void progressCountsTheTimeFromTheCallsStartTokenizationIncluded() {
    // The first text takes a second to come (a slow source): the first line's elapsed time holds
    // it.
    List<String> texts =
        new AbstractList<>() {
          @Override
          public String get(int i) {
            if (i == 0) {
              try {
                Thread.sleep(1000);
              } catch (InterruptedException e) {
                throw new AssertionError(e);
              }
            }
            return TEXTS.get(i);
          }

          @Override
          public int size() {
            return 4;
          }
        };
    List<Progress> progress = new ArrayList<>();
    embedder.embedAll(texts, progress::add);
    assertTrue(
        progress.getFirst().elapsed().compareTo(Duration.ofMillis(1000)) >= 0, progress::toString);
  }

  @Test
  void singleQueriesDuringIngestionNeverRunAtOnceWithABatch(@TempDir Path dir) throws Exception {
    Path file = dir.resolve("batches.jfr");
    List<String> queries = List.of("Hi", "A man is riding a horse.", "Yes");
    try (Recording recording = new Recording();
        ExecutorService pool = Executors.newFixedThreadPool(3)) {
      recording.enable("cuda.graph.embeddings.Batch").withThreshold(Duration.ZERO);
      recording.start();
      Future<float[][]> ingestion = pool.submit(() -> embedder.embedAll(TEXTS, p -> {}));
      List<Future<List<float[]>>> asked = new ArrayList<>();
      for (int t = 0; t < 2; t++) {
        asked.add(
            pool.submit(
                () -> {
                  List<float[]> got = new ArrayList<>();
                  for (String q : queries) {
                    got.add(embedder.embed(q));
                  }
                  return got;
                }));
      }
      float[][] all = ingestion.get();
      for (int i = 0; i < TEXTS.size(); i++) {
        assertIsTheReferences(TEXTS.get(i), all[i]);
      }
      for (Future<List<float[]>> f : asked) {
        List<float[]> got = f.get();
        for (int q = 0; q < queries.size(); q++) {
          assertIsTheReferences(queries.get(q), got.get(q));
        }
      }
      recording.stop();
      recording.dump(file);
    }
    List<RecordedEvent> batches =
        new ArrayList<>(
            RecordingFile.readAllEvents(file).stream()
                .filter(e -> e.getEventType().getName().equals("cuda.graph.embeddings.Batch"))
                .toList());
    batches.sort(Comparator.comparing(RecordedEvent::getStartTime));
    assertEquals(
        TEXTS.size() + 2 * queries.size(),
        batches.stream().mapToInt(e -> e.getInt("texts")).sum(),
        "every text and query in a recorded batch");
    for (int b = 1; b < batches.size(); b++) {
      Instant previousEnd = batches.get(b - 1).getEndTime();
      Instant start = batches.get(b).getStartTime();
      assertTrue(
          !start.isBefore(previousEnd),
          "batch "
              + b
              + " began at "
              + start
              + ", before batch "
              + (b - 1)
              + " ended at "
              + previousEnd);
    }
  }

  @Test
  void aLoneQueryRunsOnItsCallersThread(@TempDir Path dir) throws Exception {
    Path file = dir.resolve("lone.jfr");
    try (Recording recording = new Recording()) {
      recording.enable("cuda.graph.embeddings.Batch").withThreshold(Duration.ZERO);
      recording.start();
      assertIsTheReferences("Hi", embedder.embed("Hi"));
      recording.stop();
      recording.dump(file);
    }
    List<RecordedEvent> batches =
        RecordingFile.readAllEvents(file).stream()
            .filter(e -> e.getEventType().getName().equals("cuda.graph.embeddings.Batch"))
            .toList();
    assertEquals(1, batches.size(), batches::toString);
    assertEquals(Thread.currentThread().getName(), batches.getFirst().getThread().getJavaName());
  }

  @Test
  void aRecordingOfAnIngestionShowsWhereItsTimeWentAndItsTextsLengths(@TempDir Path dir)
      throws Exception {
    Path file = dir.resolve("ingestion.jfr");
    try (Recording recording = new Recording()) {
      recording.enable("cuda.graph.embeddings.Ingestion").withThreshold(Duration.ZERO);
      recording.start();
      embedder.embedAll(TEXTS, p -> {});
      recording.stop();
      recording.dump(file);
    }
    List<RecordedEvent> events =
        RecordingFile.readAllEvents(file).stream()
            .filter(e -> e.getEventType().getName().equals("cuda.graph.embeddings.Ingestion"))
            .toList();
    assertEquals(1, events.size(), events::toString);
    RecordedEvent e = events.getFirst();
    assertEquals(TEXTS.size(), e.getInt("texts"));
    assertEquals(7, e.getInt("batches"));
    int[] histogram = new int[5];
    for (String text : TEXTS) {
      int tokens = MiniLm.Ours.TOKENIZER.ids(text).length;
      histogram[tokens <= 16 ? 0 : tokens <= 32 ? 1 : tokens <= 64 ? 2 : tokens <= 128 ? 3 : 4]++;
    }
    assertEquals(
        List.of(histogram[0], histogram[1], histogram[2], histogram[3], histogram[4]),
        List.of(
            e.getInt("tokens1To16"),
            e.getInt("tokens17To32"),
            e.getInt("tokens33To64"),
            e.getInt("tokens65To128"),
            e.getInt("tokensOver128")));
    long wall = e.getDuration().toNanos();
    long tokenize = e.getLong("tokenizeNanos");
    long stream = e.getLong("streamWaitNanos");
    long stall = e.getLong("tokenizedWaitNanos");
    long lock = e.getLong("lockWaitNanos");
    long prepare = e.getLong("prepareNanos");
    assertTrue(tokenize > 0 && stream > 0 && prepare > 0, e::toString);
    // The caller's thread's parts add up to no more than the call's time.
    assertTrue(stream + stall + lock <= wall, e::toString);
    assertTrue(e.getLong("paddedTokens") >= e.getLong("tokens"), e::toString);
  }

  @Test
  void ingestionAndQueriesAfterCloseAreRefusedAsClosed() {
    embedder.close();
    IllegalStateException e =
        assertThrows(IllegalStateException.class, () -> embedder.embedAll(TEXTS, p -> {}));
    assertTrue(e.getMessage().contains("closed"), e.getMessage());
    assertThrows(IllegalStateException.class, () -> embedder.embed("Hi"));
  }
}
