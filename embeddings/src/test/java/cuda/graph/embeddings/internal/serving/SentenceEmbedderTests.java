// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 the cuda-graph authors
package cuda.graph.embeddings.internal.serving;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import cuda.graph.CudaPlatform;
import cuda.graph.Stream;
import cuda.graph.embeddings.internal.gpu.GpuEncoder;
import cuda.graph.embeddings.internal.model.MiniLm;
import cuda.graph.simulator.Simulator;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import org.junit.jupiter.api.Test;

/**
 * Ingestion and single requests on the simulator: {@code embedAll} returns every text's embedding
 * in the texts' order whatever order it batched them in, with a progress line per batch, and {@code
 * embed} from several threads gives each its own text's embedding.
 */
class SentenceEmbedderTests {

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
          "Yes");

  private static void assertIsTheReferences(String text, float[] embedding) {
    float[] expected = MiniLm.Ours.ENCODER.embed(MiniLm.Ours.TOKENIZER.parts(text));
    MiniLm.assertEmbedding(embedding, expected, MiniLm.MIN_COSINE, text);
  }

  @Test
  void embedAllReturnsEachTextsEmbeddingInOrderWithAProgressLinePerBatch() {
    try (CudaPlatform platform = CudaPlatform.forDriver(Simulator.builder().build(), "simulator");
        Stream stream = platform.defaultDevice().newStream();
        SentenceEmbedder embedder =
            new SentenceEmbedder(
                new GpuEncoder(MiniLm.Ours.WEIGHTS, MiniLm.Ours.TOKENIZER, stream, 4, 64),
                4,
                Duration.ZERO)) {
      List<String> progress = new ArrayList<>();
      float[][] all = embedder.embedAll(TEXTS, p -> progress.add(p.toString()));
      assertEquals(TEXTS.size(), all.length);
      for (int i = 0; i < TEXTS.size(); i++) {
        assertIsTheReferences(TEXTS.get(i), all[i]);
      }
      assertEquals(3, progress.size(), progress::toString);
      assertTrue(progress.getLast().startsWith("embedded 9 of 9 texts"), progress::toString);
    }
  }

  @Test
  void singleRequestsFromSeveralThreadsEachGetTheirOwnTextsEmbedding() throws Exception {
    try (CudaPlatform platform = CudaPlatform.forDriver(Simulator.builder().build(), "simulator");
        Stream stream = platform.defaultDevice().newStream();
        SentenceEmbedder embedder =
            new SentenceEmbedder(
                new GpuEncoder(MiniLm.Ours.WEIGHTS, MiniLm.Ours.TOKENIZER, stream, 4, 64),
                4,
                Duration.ofMillis(20));
        ExecutorService pool = Executors.newFixedThreadPool(3)) {
      List<Future<float[]>> results = new ArrayList<>();
      List<String> asked = TEXTS.subList(0, 3);
      for (String text : asked) {
        results.add(pool.submit(() -> embedder.embed(text)));
      }
      for (int i = 0; i < asked.size(); i++) {
        assertIsTheReferences(asked.get(i), results.get(i).get());
      }
    }
  }

  @Test
  void anEmptyTextIsRefusedAndAClosedEmbedderRefusesNewRequests() {
    try (CudaPlatform platform = CudaPlatform.forDriver(Simulator.builder().build(), "simulator");
        Stream stream = platform.defaultDevice().newStream()) {
      SentenceEmbedder embedder =
          new SentenceEmbedder(
              new GpuEncoder(MiniLm.Ours.WEIGHTS, MiniLm.Ours.TOKENIZER, stream, 4, 64),
              4,
              Duration.ZERO);
      IllegalArgumentException empty =
          assertThrows(IllegalArgumentException.class, () -> embedder.embed(" "));
      assertTrue(empty.getMessage() != null && !empty.getMessage().isBlank());
      assertIsTheReferences("Hi", embedder.embed("Hi")); // a refused request harms no other
      embedder.close();
      IllegalStateException closed =
          assertThrows(IllegalStateException.class, () -> embedder.embed("Hi"));
      assertTrue(closed.getMessage().contains("closed"), closed.getMessage());
      embedder.close();
    }
  }

  @Test
  void aNullTextIsRefusedWithAnExceptionNamingTheCallAndTheEmbedderServesTheNextRequest() {
    try (CudaPlatform platform = CudaPlatform.forDriver(Simulator.builder().build(), "simulator");
        Stream stream = platform.defaultDevice().newStream();
        SentenceEmbedder embedder =
            new SentenceEmbedder(
                new GpuEncoder(MiniLm.Ours.WEIGHTS, MiniLm.Ours.TOKENIZER, stream, 4, 64),
                4,
                Duration.ZERO)) {
      // Before the fix this aborted the JVM: DJL's native tokenizer panics on a null string.
      NullPointerException e = assertThrows(NullPointerException.class, () -> embedder.embed(null));
      assertTrue(e.getMessage().startsWith("Embedder.embed: the text is null"), e.getMessage());
      assertIsTheReferences("Hi", embedder.embed("Hi"));
    }
  }

  @Test
  void aLoneSurrogateIsRefusedAsAnUnpairedSurrogateNotAsAnEmptyText() {
    try (CudaPlatform platform = CudaPlatform.forDriver(Simulator.builder().build(), "simulator");
        Stream stream = platform.defaultDevice().newStream();
        SentenceEmbedder embedder =
            new SentenceEmbedder(
                new GpuEncoder(MiniLm.Ours.WEIGHTS, MiniLm.Ours.TOKENIZER, stream, 4, 64),
                4,
                Duration.ZERO)) {
      // DJL drops a lone surrogate: "ab", U+D800, "cd" would be embedded as the one word "abcd".
      for (String text : List.of("\uDC00", "\uD800", "ab\uD800cd", "ab\uDC00\uD800cd")) {
        IllegalArgumentException e =
            assertThrows(IllegalArgumentException.class, () -> embedder.embed(text));
        String hex =
            String.format(
                "U+%04X",
                text.chars().filter(c -> c >= 0xD800 && c <= 0xDFFF).findFirst().orElseThrow());
        assertTrue(e.getMessage().startsWith("Embedder.embed: "), e.getMessage());
        assertTrue(e.getMessage().contains("unpaired"), e.getMessage());
        assertTrue(e.getMessage().contains(hex), e.getMessage());
        assertTrue(!e.getMessage().contains("whitespace"), e.getMessage());
      }
      assertIsTheReferences("Hi \uD83D\uDE00", embedder.embed("Hi \uD83D\uDE00")); // a pair is fine
    }
  }

  @Test
  void embedAllRefusesAListWithABadTextNamingTheFirstBadIndexAndWhy() {
    try (CudaPlatform platform = CudaPlatform.forDriver(Simulator.builder().build(), "simulator");
        Stream stream = platform.defaultDevice().newStream();
        SentenceEmbedder embedder =
            new SentenceEmbedder(
                new GpuEncoder(MiniLm.Ours.WEIGHTS, MiniLm.Ours.TOKENIZER, stream, 4, 64),
                4,
                Duration.ZERO)) {
      List<String> withNull = new ArrayList<>(List.of("Hi", "Ok", "Yes"));
      withNull.add(2, null);
      NullPointerException npe =
          assertThrows(NullPointerException.class, () -> embedder.embedAll(withNull, line -> {}));
      assertTrue(
          npe.getMessage().startsWith("Embedder.embedAll: text 2 of 4 is null"), npe.getMessage());

      List<String> bad = List.of("Hi", "Ok", " \t", "a\uDC00", "Yes");
      IllegalArgumentException iae =
          assertThrows(IllegalArgumentException.class, () -> embedder.embedAll(bad, line -> {}));
      assertTrue(
          iae.getMessage().startsWith("Embedder.embedAll: text 2 of 5 has no word pieces"),
          iae.getMessage());
      assertIsTheReferences("Hi", embedder.embedAll(List.of("Hi"), line -> {})[0]);
    }
  }

  @Test
  void aTextLongerThanTheEncodersMaxLengthIsRefusedOnItsThreadAndFailsNoRequestBesideIt()
      throws Exception {
    String longer = "A man is eating food while a woman is playing the violin in the garden.";
    assertTrue(MiniLm.Ours.TOKENIZER.ids(longer).length > 16);
    try (CudaPlatform platform = CudaPlatform.forDriver(Simulator.builder().build(), "simulator");
        Stream stream = platform.defaultDevice().newStream();
        SentenceEmbedder embedder =
            new SentenceEmbedder(
                new GpuEncoder(MiniLm.Ours.WEIGHTS, MiniLm.Ours.TOKENIZER, stream, 4, 16),
                4,
                Duration.ofMillis(200));
        ExecutorService pool = Executors.newFixedThreadPool(2)) {
      // Within one window: had the long text joined the batch, the batch would fail with it.
      Future<float[]> hi = pool.submit(() -> embedder.embed("Hi"));
      Future<float[]> tooLong = pool.submit(() -> embedder.embed(longer));

      java.util.concurrent.ExecutionException e =
          assertThrows(java.util.concurrent.ExecutionException.class, tooLong::get);
      assertTrue(e.getCause() instanceof IllegalArgumentException, e.getCause()::toString);
      assertTrue(
          e.getCause().getMessage().startsWith("Embedder.embed: the text is 18 tokens;"),
          e.getCause().getMessage());
      assertIsTheReferences("Hi", hi.get());
    }
  }

  @Test
  void closingWhileThreadsEmbedAnswersEveryRequestWithItsEmbeddingOrAClosedError()
      throws Exception {
    try (CudaPlatform platform = CudaPlatform.forDriver(Simulator.builder().build(), "simulator");
        Stream stream = platform.defaultDevice().newStream();
        ExecutorService pool = Executors.newFixedThreadPool(3)) {
      SentenceEmbedder embedder =
          new SentenceEmbedder(
              new GpuEncoder(MiniLm.Ours.WEIGHTS, MiniLm.Ours.TOKENIZER, stream, 4, 64),
              4,
              Duration.ofMillis(5));
      java.util.concurrent.CountDownLatch embedded = new java.util.concurrent.CountDownLatch(3);
      List<Future<Integer>> threads = new ArrayList<>();
      for (int t = 0; t < 3; t++) {
        threads.add(
            pool.submit(
                () -> {
                  int answered = 0;
                  try {
                    while (true) {
                      try {
                        assertIsTheReferences("Hi", embedder.embed("Hi"));
                      } catch (IllegalStateException closed) {
                        assertTrue(closed.getMessage().contains("closed"), closed.getMessage());
                        return answered;
                      }
                      if (++answered == 1) {
                        embedded.countDown();
                      }
                    }
                  } finally {
                    if (answered == 0) {
                      // Failed before its first embedding: the failure, through get(), not a hang.
                      embedded.countDown();
                    }
                  }
                }));
      }
      embedded.await();
      embedder.close();
      for (Future<Integer> thread : threads) {
        assertTrue(thread.get() >= 1, "each thread got an embedding before the close");
      }
    }
  }
}
