// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 the cuda-graph authors
package cuda.graph.spring.ai;

import cuda.graph.embeddings.Embedder;
import io.micrometer.observation.ObservationRegistry;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.concurrent.atomic.AtomicBoolean;
import org.jspecify.annotations.Nullable;
import org.springframework.ai.chat.metadata.EmptyUsage;
import org.springframework.ai.document.Document;
import org.springframework.ai.document.MetadataMode;
import org.springframework.ai.embedding.Embedding;
import org.springframework.ai.embedding.EmbeddingOptions;
import org.springframework.ai.embedding.EmbeddingRequest;
import org.springframework.ai.embedding.EmbeddingResponse;
import org.springframework.ai.embedding.EmbeddingResponseMetadata;
import org.springframework.ai.embedding.observation.DefaultEmbeddingModelObservationConvention;
import org.springframework.ai.embedding.observation.EmbeddingModelObservationContext;
import org.springframework.ai.embedding.observation.EmbeddingModelObservationConvention;
import org.springframework.ai.embedding.observation.EmbeddingModelObservationDocumentation;

/**
 * The one {@link CudaGraphEmbeddingModel}. Package-private: the module is an automatic module on
 * the module path (see the package's documentation), where every package is exported, so the
 * implementation hides in the API's package instead of an internal one.
 */
final class EmbedderEmbeddingModel implements CudaGraphEmbeddingModel {

  private static final EmbeddingModelObservationConvention DEFAULT_CONVENTION =
      new DefaultEmbeddingModelObservationConvention();

  private final Embedder embedder;
  private final MetadataMode metadataMode;
  private final ObservationRegistry observationRegistry;
  private final @Nullable EmbeddingModelObservationConvention observationConvention;
  private final AtomicBoolean closed = new AtomicBoolean();

  EmbedderEmbeddingModel(
      Embedder embedder,
      MetadataMode metadataMode,
      ObservationRegistry observationRegistry,
      @Nullable EmbeddingModelObservationConvention observationConvention) {
    this.embedder = embedder;
    this.metadataMode = metadataMode;
    this.observationRegistry = observationRegistry;
    this.observationConvention = observationConvention;
  }

  @Override
  public EmbeddingResponse call(EmbeddingRequest request) {
    Objects.requireNonNull(request, "CudaGraphEmbeddingModel.call: the request is null");
    List<String> texts =
        Objects.requireNonNull(
            request.getInstructions(), "CudaGraphEmbeddingModel.call: the request has no list");
    checkOpen();
    checkOptions(request.getOptions());
    EmbeddingModelObservationContext context =
        EmbeddingModelObservationContext.builder()
            .embeddingRequest(request)
            .provider(PROVIDER)
            .build();
    return Objects.requireNonNull(
        EmbeddingModelObservationDocumentation.EMBEDDING_MODEL_OPERATION
            .observation(
                observationConvention, DEFAULT_CONVENTION, () -> context, observationRegistry)
            .observe(
                () -> {
                  EmbeddingResponse response = respond(embedAll(texts));
                  context.setResponse(response);
                  return response;
                }));
  }

  /** One text through the coalescing {@link Embedder#embed}, several through embedAll. */
  private List<float[]> embedAll(List<String> texts) {
    for (int i = 0; i < texts.size(); i++) {
      if (texts.get(i) == null) {
        throw new NullPointerException(
            "CudaGraphEmbeddingModel.call: text " + i + " of " + texts.size() + " is null");
      }
    }
    try {
      return texts.size() == 1
          ? List.of(embedder.embed(texts.getFirst()))
          : embedder.embedAll(texts);
    } catch (IllegalArgumentException e) {
      // The embedder's message names the text; this names the call the user made.
      throw new IllegalArgumentException("CudaGraphEmbeddingModel.call: " + e.getMessage(), e);
    }
  }

  private EmbeddingResponse respond(List<float[]> vectors) {
    List<Embedding> embeddings = new ArrayList<>(vectors.size());
    for (int i = 0; i < vectors.size(); i++) {
      embeddings.add(new Embedding(vectors.get(i), i));
    }
    return new EmbeddingResponse(
        embeddings,
        new EmbeddingResponseMetadata(
            embedder.model().name(),
            new EmptyUsage(),
            Map.of(
                "backend", embedder.backend().name(), "precision", embedder.precision().name())));
  }

  /** This model has one model and one dimension: options asking for others are refused. */
  private void checkOptions(@Nullable EmbeddingOptions options) {
    if (options == null) {
      return;
    }
    String name = embedder.model().name();
    String model = options.getModel();
    if (model != null && !model.isBlank() && !model.equals(name)) {
      throw new IllegalArgumentException(
          "CudaGraphEmbeddingModel.call: the request's options ask for model '"
              + model
              + "', but this model embeds with '"
              + name
              + "' (one model a bean); leave the option's model unset or name '"
              + name
              + "'");
    }
    Integer dimensions = options.getDimensions();
    if (dimensions != null && dimensions != embedder.dimension()) {
      throw new IllegalArgumentException(
          "CudaGraphEmbeddingModel.call: the request's options ask for "
              + dimensions
              + " dimensions, but "
              + name
              + " gives "
              + embedder.dimension()
              + "; leave the option's dimensions unset or ask for "
              + embedder.dimension());
    }
  }

  @Override
  public float[] embed(String text) {
    Objects.requireNonNull(text, "CudaGraphEmbeddingModel.embed: the text is null");
    return call(new EmbeddingRequest(List.of(text), null)).getResult().getOutput();
  }

  @Override
  public float[] embed(Document document) {
    return embed(getEmbeddingContent(document));
  }

  /**
   * The document's text, with metadata as the mode says; a document of media is refused here, so
   * that Spring AI's batched {@code embed(List<Document>, ...)} refuses it too.
   */
  @Override
  public String getEmbeddingContent(Document document) {
    Objects.requireNonNull(document, "CudaGraphEmbeddingModel.embed: the document is null");
    if (!document.isText()) {
      throw new IllegalArgumentException(
          "CudaGraphEmbeddingModel.embed: document "
              + document.getId()
              + " holds media, not text; this model embeds text only");
    }
    return document.getFormattedContent(metadataMode);
  }

  @Override
  public int dimensions() {
    return embedder.dimension();
  }

  @Override
  public Embedder embedder() {
    return embedder;
  }

  private void checkOpen() {
    if (closed.get()) {
      throw new IllegalStateException(
          "CudaGraphEmbeddingModel.call: the model is closed (its application context closed, or"
              + " close() was called); use the model of a running context, or build a new one");
    }
  }

  @Override
  public void close() {
    if (closed.compareAndSet(false, true)) {
      embedder.close();
    }
  }

  @Override
  public String toString() {
    return "CudaGraphEmbeddingModel["
        + embedder.model().name()
        + ", "
        + embedder.backend()
        + ", "
        + embedder.precision()
        + "]";
  }
}
