// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 the cuda-graph authors
package cuda.graph.spring.ai;

import static org.apiguardian.api.API.Status.EXPERIMENTAL;

import cuda.graph.embeddings.Embedder;
import io.micrometer.observation.ObservationRegistry;
import java.util.Locale;
import org.apiguardian.api.API;
import org.springframework.ai.embedding.EmbeddingModel;
import org.springframework.ai.embedding.observation.EmbeddingModelObservationConvention;
import org.springframework.ai.model.SpringAIModelProperties;
import org.springframework.beans.factory.ObjectProvider;
import org.springframework.boot.autoconfigure.AutoConfiguration;
import org.springframework.boot.autoconfigure.condition.ConditionalOnMissingBean;
import org.springframework.boot.autoconfigure.condition.ConditionalOnProperty;
import org.springframework.boot.context.properties.EnableConfigurationProperties;
import org.springframework.context.annotation.Bean;

/**
 * Spring Boot auto-configuration of a {@link CudaGraphEmbeddingModel} from the {@code
 * cuda.graph.embeddings.*} properties ({@link CudaGraphEmbeddingProperties}).
 *
 * <p>It applies unless the application defines an {@link EmbeddingModel} of its own, or chooses
 * another with Spring AI's {@code spring.ai.model.embedding} property (this one is {@value
 * #MODEL}); then nothing of it is bound or opened. Otherwise the application's start opens the
 * embedder (reads the model, uploads its weights) and fails, with a message that names the
 * properties, when they are wrong or, under {@code when-no-gpu=fail}, when there is no GPU. The
 * model uses the application's {@link ObservationRegistry} and {@link
 * EmbeddingModelObservationConvention} when it has one, and is closed with the application context.
 *
 * @since 0.2.0
 */
@AutoConfiguration
@ConditionalOnProperty(
    name = SpringAIModelProperties.EMBEDDING_MODEL,
    havingValue = CudaGraphEmbeddingAutoConfiguration.MODEL,
    matchIfMissing = true)
// On the class, not the method: an application that brings its own model binds none of the
// properties, so their checks (no model set, say) cannot fail its start.
@ConditionalOnMissingBean(EmbeddingModel.class)
@EnableConfigurationProperties(CudaGraphEmbeddingProperties.class)
@API(status = EXPERIMENTAL, since = "0.2.0")
public final class CudaGraphEmbeddingAutoConfiguration {

  /** This model's value of Spring AI's {@code spring.ai.model.embedding} property: {@value}. */
  public static final String MODEL = "cuda-graph";

  /** Made by Spring Boot. */
  public CudaGraphEmbeddingAutoConfiguration() {}

  /**
   * {@return the embedding model}, its embedder open
   *
   * @param properties the bound {@code cuda.graph.embeddings.*} properties
   * @param observationRegistry the application's registry, if it has one
   * @param observationConvention the application's convention for embedding observations, if any
   * @throws IllegalStateException if the embedder does not open (no GPU under {@code
   *     when-no-gpu=fail}, the model's artifact not on the class path), the embedder's message in
   *     it
   */
  @Bean
  public CudaGraphEmbeddingModel cudaGraphEmbeddingModel(
      CudaGraphEmbeddingProperties properties,
      ObjectProvider<ObservationRegistry> observationRegistry,
      ObjectProvider<EmbeddingModelObservationConvention> observationConvention) {
    Embedder embedder;
    try {
      embedder = properties.embedderBuilder().open();
    } catch (IllegalStateException e) {
      throw new IllegalStateException(
          "cuda.graph.embeddings: the embedder of "
              + properties.modelSource()
              + " did not open under when-no-gpu="
              + properties.whenNoGpu().name().toLowerCase(Locale.ROOT).replace('_', '-')
              + ": "
              + e.getMessage(),
          e);
    }
    CudaGraphEmbeddingModel.Builder model =
        CudaGraphEmbeddingModel.builder(embedder)
            .metadataMode(properties.metadataMode())
            .observationRegistry(observationRegistry.getIfUnique(() -> ObservationRegistry.NOOP));
    observationConvention.ifAvailable(model::observationConvention);
    return model.build();
  }
}
