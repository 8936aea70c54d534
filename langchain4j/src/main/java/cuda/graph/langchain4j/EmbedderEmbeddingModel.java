// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 the cuda-graph authors
package cuda.graph.langchain4j;

import cuda.graph.Buckets;
import cuda.graph.CudaPlatform;
import cuda.graph.embeddings.Backend;
import cuda.graph.embeddings.Embedder;
import cuda.graph.embeddings.ModelInfo;
import cuda.graph.embeddings.ModelSource;
import cuda.graph.langchain4j.CudaGraphEmbeddingModel.CudaGraphEmbeddingModelBuilder;
import dev.langchain4j.data.embedding.Embedding;
import dev.langchain4j.data.segment.TextSegment;
import dev.langchain4j.model.output.Response;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.function.Supplier;
import org.jspecify.annotations.Nullable;

/**
 * The one {@link CudaGraphEmbeddingModel}: checks LangChain4j's segments, hands their texts to an
 * {@link Embedder} (single texts to its coalescing path, lists to its batching one) and wraps the
 * vectors as LangChain4j's {@link Embedding}s. The embedder's refusals are the model's, renamed to
 * the call the user made. Package-private beside the interface: the jar is an automatic module, in
 * which a sealed interface permits only classes of its own package.
 */
final class EmbedderEmbeddingModel implements CudaGraphEmbeddingModel {

  private static final String EMBED = "CudaGraphEmbeddingModel.embed";
  private static final String EMBED_ALL = "CudaGraphEmbeddingModel.embedAll";

  private final Embedder embedder;
  private volatile boolean closed;

  private EmbedderEmbeddingModel(Embedder embedder) {
    this.embedder = embedder;
  }

  /**
   * Opens the model {@code settings} describe: see {@link CudaGraphEmbeddingModelBuilder#build}.
   */
  static CudaGraphEmbeddingModel open(CudaGraphEmbeddingModelBuilder settings) {
    ModelSource source = Objects.requireNonNull(settings.modelSource(), "checked by build()");
    Embedder.Builder builder =
        Embedder.builder(source)
            .precision(settings.precision())
            .maxBatch(settings.maxBatch())
            .coalescingWindow(settings.coalescingWindow())
            .device(settings.device())
            .whenNoGpu(settings.whenNoGpu());
    if (settings.graphMemoryBudget() > 0) {
      builder.graphMemoryBudget(settings.graphMemoryBudget());
    }
    Buckets batches = settings.batchBuckets();
    if (batches != null) {
      builder.batchBuckets(batches);
    }
    Buckets lengths = settings.lengthBuckets();
    if (lengths != null) {
      builder.lengthBuckets(lengths);
    }
    CudaPlatform platform = settings.platform();
    if (platform != null) {
      builder.platform(platform);
    }
    return new EmbedderEmbeddingModel(builder.open());
  }

  @Override
  public Response<Embedding> embed(@Nullable String text) {
    if (text == null) {
      throw new IllegalArgumentException(EMBED + ": the text is null; pass the String to embed");
    }
    return Response.from(Embedding.from(embedOne(EMBED, text)));
  }

  @Override
  public Response<Embedding> embed(@Nullable TextSegment segment) {
    if (segment == null) {
      throw new IllegalArgumentException(
          EMBED + ": the segment is null; pass TextSegment.from(text)");
    }
    return Response.from(Embedding.from(embedOne(EMBED, segment.text())));
  }

  @Override
  public Response<List<Embedding>> embedAll(@Nullable List<TextSegment> segments) {
    if (segments == null) {
      throw new IllegalArgumentException(
          EMBED_ALL + ": the list of segments is null; pass a list (an empty one embeds nothing)");
    }
    List<String> texts = new ArrayList<>(segments.size());
    for (int i = 0; i < segments.size(); i++) {
      TextSegment segment = segments.get(i);
      if (segment == null) {
        throw new IllegalArgumentException(
            EMBED_ALL
                + ": segment "
                + i
                + " of "
                + segments.size()
                + " is null; leave it out, or pass TextSegment.from(text)");
      }
      texts.add(segment.text());
    }
    checkOpen(EMBED_ALL);
    if (texts.isEmpty()) {
      return Response.from(List.of());
    }
    if (texts.size() == 1) {
      // One text: the coalescing path, so that single-segment calls of many threads share batches.
      return Response.from(List.of(Embedding.from(embedOne(EMBED_ALL, texts.get(0)))));
    }
    List<float[]> vectors = call(EMBED_ALL, "Embedder.embedAll", () -> embedder.embedAll(texts));
    List<Embedding> embeddings = new ArrayList<>(vectors.size());
    for (float[] vector : vectors) {
      embeddings.add(Embedding.from(vector));
    }
    return Response.from(List.copyOf(embeddings));
  }

  private float[] embedOne(String call, String text) {
    checkOpen(call);
    return call(call, "Embedder.embed", () -> embedder.embed(text));
  }

  /**
   * {@return what {@code work} returns}, its refusals named for the user's call: the embedder's
   * messages begin with its own call ({@code inner}), which the user did not make.
   */
  private <T> T call(String call, String inner, Supplier<T> work) {
    try {
      return work.get();
    } catch (IllegalArgumentException e) {
      String message = Objects.toString(e.getMessage(), e.toString());
      String detail =
          message.startsWith(inner + ": ") ? message.substring(inner.length() + 2) : message;
      throw new IllegalArgumentException(call + ": " + detail, e);
    } catch (IllegalStateException e) {
      if (closed) {
        throw closedException(call, e);
      }
      throw e;
    }
  }

  private void checkOpen(String call) {
    if (closed) {
      throw closedException(call, null);
    }
  }

  private static IllegalStateException closedException(String call, @Nullable Throwable cause) {
    return new IllegalStateException(
        call
            + ": the model is closed; build a new one with CudaGraphEmbeddingModel.builder()"
            + " ... .build()",
        cause);
  }

  @Override
  public int dimension() {
    return embedder.dimension();
  }

  @Override
  public String modelName() {
    return embedder.model().name();
  }

  @Override
  public ModelInfo model() {
    return embedder.model();
  }

  @Override
  public Backend backend() {
    return embedder.backend();
  }

  @Override
  public void close() {
    closed = true;
    embedder.close();
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
