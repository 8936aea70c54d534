// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 the cuda-graph authors
package cuda.graph.spring.ai;

import static org.apiguardian.api.API.Status.EXPERIMENTAL;

import cuda.graph.embeddings.Embedder;
import io.micrometer.observation.ObservationRegistry;
import java.util.Objects;
import org.apiguardian.api.API;
import org.jspecify.annotations.Nullable;
import org.springframework.ai.document.Document;
import org.springframework.ai.document.MetadataMode;
import org.springframework.ai.embedding.EmbeddingModel;
import org.springframework.ai.embedding.EmbeddingRequest;
import org.springframework.ai.embedding.EmbeddingResponse;
import org.springframework.ai.embedding.observation.EmbeddingModelObservationConvention;

/**
 * A Spring AI {@link EmbeddingModel} over an {@link Embedder}: the embeddings LangChain4j computes
 * for the same model and text (fp32: cosine at least 0.99999), computed on the GPU.
 *
 * <p>What it guarantees. {@link #call} returns one {@link
 * org.springframework.ai.embedding.Embedding} per input, in the request's order, each with its
 * index (from 0), and response metadata naming the model ({@link
 * cuda.graph.embeddings.ModelInfo#name()}, such as {@code all-minilm-l6-v2}) with the backend and
 * precision under the keys {@code backend} and {@code precision}. A request of one text (which
 * {@link #embed(String)} and {@link #embed(Document)} make) goes through {@link
 * Embedder#embed(String)}, so single texts from many threads share batches within the embedder's
 * coalescing window; a request of several goes through {@link Embedder#embedAll(java.util.List)}.
 * {@link #dimensions()} is the model's hidden size, known without embedding anything. Each call is
 * observed as Spring AI observes embedding models ({@code gen_ai.client.operation}, provider
 * {@value #PROVIDER}), through the registry the builder was given (none by default).
 *
 * <p>Refused requests. Options that name another model or another number of dimensions (this model
 * has one of each), a {@code null} text, a text the embedder refuses (empty, whitespace, an
 * unpaired surrogate) and a document that holds media instead of text are refused with an exception
 * that names the call and the input, before anything is embedded.
 *
 * <p>Lifetime. The model owns its embedder: {@link #close()} closes it (Spring calls it when the
 * application context closes), after which every call throws {@link IllegalStateException}. Every
 * method may be called from any thread.
 *
 * {@snippet class=cuda.graph.spring.ai.JavadocSnippetsTests region=model}
 *
 * @since 0.2.0
 */
@API(status = EXPERIMENTAL, since = "0.2.0")
public sealed interface CudaGraphEmbeddingModel extends EmbeddingModel, AutoCloseable
    permits EmbedderEmbeddingModel {

  /** The provider observations name: {@value}. */
  String PROVIDER = "cuda-graph";

  /**
   * {@return a model over {@code embedder}, with the defaults}: documents embedded by their text
   * alone ({@link MetadataMode#NONE}) and no observations. The model owns the embedder.
   *
   * @param embedder the open embedder to embed with, which the model closes
   */
  static CudaGraphEmbeddingModel of(Embedder embedder) {
    return builder(embedder).build();
  }

  /**
   * {@return a builder of a model over {@code embedder}, which the model will own}
   *
   * @param embedder the open embedder to embed with, which the model closes
   */
  static Builder builder(Embedder embedder) {
    return new Builder(embedder);
  }

  /**
   * {@return one embedding per text of the request, in its order}
   *
   * @throws IllegalArgumentException if the options name another model or number of dimensions, or
   *     a text is one the embedder refuses
   * @throws NullPointerException if the request or a text is null
   * @throws IllegalStateException if the model is closed
   */
  @Override
  EmbeddingResponse call(EmbeddingRequest request);

  /**
   * {@return the embedding of {@code text}}, batched with other threads' texts
   *
   * @throws NullPointerException if {@code text} is null
   * @throws IllegalArgumentException if the embedder refuses the text
   * @throws IllegalStateException if the model is closed
   */
  @Override
  float[] embed(String text);

  /**
   * {@return the embedding of the document's text}, with its metadata as the builder's {@link
   * Builder#metadataMode} says
   *
   * @throws IllegalArgumentException if the document holds media instead of text
   */
  @Override
  float[] embed(Document document);

  /** {@return the embeddings' length, read from the model: nothing is embedded} */
  @Override
  int dimensions();

  /** {@return the embedder this model embeds with, for its model information and backend} */
  Embedder embedder();

  /** Closes the embedder; later calls throw {@link IllegalStateException}; again does nothing. */
  @Override
  void close();

  /**
   * The settings of a {@link CudaGraphEmbeddingModel}, then {@link #build()}. Not thread-safe.
   *
   * @since 0.2.0
   */
  final class Builder {
    private final Embedder embedder;
    private MetadataMode metadataMode = MetadataMode.NONE;
    private ObservationRegistry observationRegistry = ObservationRegistry.NOOP;
    private @Nullable EmbeddingModelObservationConvention observationConvention;

    private Builder(Embedder embedder) {
      this.embedder =
          Objects.requireNonNull(embedder, "CudaGraphEmbeddingModel.builder: the embedder is null");
    }

    /**
     * Sets what of a document {@link #embed(Document)} embeds: its text alone ({@link
     * MetadataMode#NONE}, the default, as Spring AI's ONNX transformers model does), or with the
     * metadata the mode selects.
     *
     * @param mode what of a document is embedded
     * @return this builder
     */
    public Builder metadataMode(MetadataMode mode) {
      this.metadataMode =
          Objects.requireNonNull(mode, "CudaGraphEmbeddingModel.Builder.metadataMode: null");
      return this;
    }

    /**
     * Sets the registry calls are observed in; {@link ObservationRegistry#NOOP} by default.
     *
     * @param registry the application's registry
     * @return this builder
     */
    public Builder observationRegistry(ObservationRegistry registry) {
      this.observationRegistry =
          Objects.requireNonNull(
              registry, "CudaGraphEmbeddingModel.Builder.observationRegistry: null");
      return this;
    }

    /**
     * Sets the convention observations are named and tagged by; Spring AI's by default.
     *
     * @param convention the convention
     * @return this builder
     */
    public Builder observationConvention(EmbeddingModelObservationConvention convention) {
      this.observationConvention =
          Objects.requireNonNull(
              convention, "CudaGraphEmbeddingModel.Builder.observationConvention: null");
      return this;
    }

    /** {@return the model}, which owns the embedder from now on */
    public CudaGraphEmbeddingModel build() {
      return new EmbedderEmbeddingModel(
          embedder, metadataMode, observationRegistry, observationConvention);
    }
  }
}
