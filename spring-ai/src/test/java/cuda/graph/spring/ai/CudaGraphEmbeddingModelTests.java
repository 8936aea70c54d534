// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 the cuda-graph authors
package cuda.graph.spring.ai;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import cuda.graph.CudaPlatform;
import cuda.graph.embeddings.Embedder;
import cuda.graph.embeddings.ModelSource;
import cuda.graph.simulator.Simulator;
import io.micrometer.observation.Observation;
import io.micrometer.observation.ObservationHandler;
import io.micrometer.observation.ObservationRegistry;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;
import org.springframework.ai.content.Media;
import org.springframework.ai.document.Document;
import org.springframework.ai.document.MetadataMode;
import org.springframework.ai.embedding.Embedding;
import org.springframework.ai.embedding.EmbeddingOptions;
import org.springframework.ai.embedding.EmbeddingRequest;
import org.springframework.ai.embedding.EmbeddingResponse;
import org.springframework.ai.embedding.TokenCountBatchingStrategy;
import org.springframework.ai.embedding.observation.EmbeddingModelObservationContext;
import org.springframework.core.io.ByteArrayResource;
import org.springframework.util.MimeTypeUtils;

/**
 * The model as Spring AI's callers use it, over one embedder on the simulator, against
 * LangChain4j's own all-MiniLM-L6-v2. The simulator embeds about four sentences a second: each test
 * embeds a few short texts.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class CudaGraphEmbeddingModelTests {

  private CudaPlatform simulator;
  private CudaGraphEmbeddingModel model;
  private final List<EmbeddingModelObservationContext> observed = new ArrayList<>();

  @BeforeAll
  void open() {
    simulator = CudaPlatform.forDriver(Simulator.create(), "simulator");
    ObservationRegistry registry = ObservationRegistry.create();
    registry
        .observationConfig()
        .observationHandler(
            new ObservationHandler<EmbeddingModelObservationContext>() {
              @Override
              public void onStop(EmbeddingModelObservationContext context) {
                observed.add(context);
              }

              @Override
              public boolean supportsContext(Observation.Context context) {
                return context instanceof EmbeddingModelObservationContext;
              }
            });
    model =
        CudaGraphEmbeddingModel.builder(open(simulator))
            .metadataMode(MetadataMode.EMBED)
            .observationRegistry(registry)
            .build();
  }

  static Embedder open(CudaPlatform platform) {
    return Embedder.builder(ModelSource.langChain4j(MiniLmAnchor.ARTIFACT))
        .maxBatch(2)
        .coalescingWindow(Duration.ZERO)
        .platform(platform)
        .open();
  }

  @BeforeEach
  void forgetObservations() {
    observed.clear();
  }

  @AfterAll
  void close() {
    model.close();
    simulator.close();
  }

  @Test
  void aRequestOfThreeTextsGetsLangChain4jsEmbeddingsIndexedInOrderWithTheModelsName() {
    List<String> texts = List.of("A man is eating food.", "Hi", "A woman is playing violin.");

    EmbeddingResponse response = model.call(new EmbeddingRequest(texts, null));

    List<Embedding> results = response.getResults();
    assertEquals(3, results.size());
    for (int i = 0; i < texts.size(); i++) {
      assertEquals(i, results.get(i).getIndex());
      MiniLmAnchor.assertEmbeds(results.get(i).getOutput(), texts.get(i));
    }
    assertEquals("all-minilm-l6-v2", response.getMetadata().getModel());
    assertEquals("SIMULATOR", response.getMetadata().get("backend"));
    assertEquals("FP32", response.getMetadata().get("precision"));
  }

  @Test
  void everyCallIsObservedAsAnEmbeddingOfThisProviderAndModel() {
    model.embed("A man is riding a horse.");

    assertEquals(1, observed.size(), observed::toString);
    EmbeddingModelObservationContext context = observed.getFirst();
    assertEquals("cuda-graph", context.getOperationMetadata().provider());
    assertEquals("embedding", context.getOperationMetadata().operationType());
    assertNotNull(context.getResponse());
    assertEquals("all-minilm-l6-v2", context.getResponse().getMetadata().getModel());
  }

  @Test
  void dimensionsAreReadFromTheModelWithoutEmbeddingAnything() {
    assertEquals(384, model.dimensions());
    assertEquals(List.of(), observed, "dimensions() embedded a text");
  }

  @Test
  void aDocumentIsEmbeddedWithTheMetadataTheModeSelects() {
    Document document = new Document("A cat sits on the mat.", Map.of("topic", "cats"));
    String content = model.getEmbeddingContent(document);
    assertTrue(content.contains("topic: cats") && content.contains("A cat sits on the mat."));

    MiniLmAnchor.assertEmbeds(model.embed(document), content);
  }

  @Test
  void springAisBatchedDocumentEmbeddingGoesThroughTheModel() {
    List<Document> documents = List.of(new Document("First."), new Document("Second one."));

    List<float[]> vectors =
        model.embed(
            documents, EmbeddingOptions.builder().build(), new TokenCountBatchingStrategy());

    assertEquals(2, vectors.size());
    MiniLmAnchor.assertEmbeds(vectors.get(1), model.getEmbeddingContent(documents.get(1)));
  }

  @Test
  void optionsNamingThisModelAndItsDimensionsAreAccepted() {
    EmbeddingOptions options =
        EmbeddingOptions.builder().model("all-minilm-l6-v2").dimensions(384).build();

    EmbeddingResponse response = model.call(new EmbeddingRequest(List.of("Hello."), options));

    assertEquals(1, response.getResults().size());
  }

  @Test
  void optionsNamingAnotherModelAreRefusedBeforeAnythingIsEmbedded() {
    EmbeddingOptions options = EmbeddingOptions.builder().model("text-embedding-3-small").build();

    IllegalArgumentException e =
        assertThrows(
            IllegalArgumentException.class,
            () -> model.call(new EmbeddingRequest(List.of("Hello."), options)));

    assertEquals(
        "CudaGraphEmbeddingModel.call: the request's options ask for model"
            + " 'text-embedding-3-small', but this model embeds with 'all-minilm-l6-v2' (one model"
            + " a bean); leave the option's model unset or name 'all-minilm-l6-v2'",
        e.getMessage());
    assertEquals(List.of(), observed);
  }

  @Test
  void optionsAskingForOtherDimensionsAreRefused() {
    EmbeddingOptions options = EmbeddingOptions.builder().dimensions(256).build();

    IllegalArgumentException e =
        assertThrows(
            IllegalArgumentException.class,
            () -> model.call(new EmbeddingRequest(List.of("Hello."), options)));

    assertTrue(
        e.getMessage().contains("ask for 256 dimensions, but all-minilm-l6-v2 gives 384"),
        e.getMessage());
  }

  @Test
  void aNullTextIsRefusedByItsIndex() {
    List<String> texts = Arrays.asList("One.", null, "Three.");

    NullPointerException e =
        assertThrows(
            NullPointerException.class, () -> model.call(new EmbeddingRequest(texts, null)));

    assertEquals("CudaGraphEmbeddingModel.call: text 1 of 3 is null", e.getMessage());
  }

  @Test
  void aTextWithNoWordPiecesIsRefusedNamingTheCallAndTheText() {
    IllegalArgumentException e =
        assertThrows(
            IllegalArgumentException.class,
            () -> model.call(new EmbeddingRequest(List.of("Fine.", "   "), null)));

    assertTrue(
        e.getMessage().startsWith("CudaGraphEmbeddingModel.call: Embedder.embedAll: text 1 of 2"),
        e.getMessage());
  }

  @Test
  void aDocumentOfMediaIsRefused() {
    Document picture =
        Document.builder()
            .id("picture-1")
            .media(new Media(MimeTypeUtils.IMAGE_PNG, new ByteArrayResource(new byte[] {1, 2, 3})))
            .build();

    IllegalArgumentException e =
        assertThrows(IllegalArgumentException.class, () -> model.embed(picture));

    assertEquals(
        "CudaGraphEmbeddingModel.embed: document picture-1 holds media, not text; this model"
            + " embeds text only",
        e.getMessage());
  }

  @Test
  void closingTheModelClosesItsEmbedderAndLaterCallsSaySo() {
    try (CudaPlatform own = CudaPlatform.forDriver(Simulator.create(), "simulator")) {
      CudaGraphEmbeddingModel closing = CudaGraphEmbeddingModel.of(open(own));

      closing.close();
      closing.close(); // again: nothing

      IllegalStateException call =
          assertThrows(IllegalStateException.class, () -> closing.embed("Too late."));
      assertTrue(call.getMessage().startsWith("CudaGraphEmbeddingModel.call: the model is closed"));
      IllegalStateException embedder =
          assertThrows(IllegalStateException.class, () -> closing.embedder().embed("Too late."));
      assertTrue(embedder.getMessage().contains("the embedder is closed"), embedder.getMessage());
    }
  }
}
