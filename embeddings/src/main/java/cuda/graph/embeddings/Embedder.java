// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 the cuda-graph authors
package cuda.graph.embeddings;

import static org.apiguardian.api.API.Status.EXPERIMENTAL;

import cuda.graph.Buckets;
import cuda.graph.CudaPlatform;
import cuda.graph.embeddings.internal.serving.EmbedderImpl;
import java.time.Duration;
import java.util.List;
import java.util.Objects;
import java.util.function.Consumer;
import org.apiguardian.api.API;
import org.jspecify.annotations.Nullable;

/**
 * Sentence embeddings from a BERT-family encoder on a GPU, each the L2-normalised vector
 * LangChain4j computes for the same model and text (fp32: cosine at least 0.99999; fp16: at least
 * 0.9995).
 *
 * <p>How it runs. Texts are tokenized exactly as LangChain4j tokenizes them (DJL's Hugging Face
 * tokenizer over the model's {@code tokenizer.json}), padded to the smallest batch and length
 * buckets that hold them, and the whole forward pass of that shape runs as one captured CUDA graph,
 * replayed from a graph cache. {@link #embedAll} tokenizes on every core, a few thousand texts at a
 * time, while the GPU runs the batches of the texts before, each chunk's texts sorted by length
 * into batches of up to {@link Builder#maxBatch}. {@link #embed} tokenizes on the caller's thread
 * and, when nothing else runs, embeds there too; calls that overlap are coalesced: the requests
 * that arrive while a batch runs share the next one (with a {@link Builder#coalescingWindow}, a
 * request that has to wait also waits that long for others). Batches run one at a time, on one
 * stream.
 *
 * <p>Long texts. A text is cut or split exactly as LangChain4j does for the model: DJL's tokenizer
 * cuts it at the tokenizer.json's truncation (all-MiniLM-L6-v2: 128 tokens), and at 512 tokens
 * where the file asks for none or for more (bge-small-en-v1.5), for LangChain4j as here; a
 * tokenizer that kept more would have the word pieces split into runs of at most 510, each embedded
 * in its own pass, and the runs' pooled vectors averaged with their lengths as weights before the
 * normalisation. No text is refused for its length.
 *
 * <p>Refused texts. {@code null}, a text with no word pieces (empty, whitespace, or only characters
 * the tokenizer drops, such as NUL) and a text with an unpaired UTF-16 surrogate are refused with
 * an exception on the caller's thread that names the text ("text 3 of 9"), before the text joins a
 * batch, so a bad text fails no one else's request, and a list with one is refused whole.
 *
 * <p>Thread-safety and lifetime. Every method may be called from any thread. {@link #close()} waits
 * for the calls in progress to return (each caller gets its embedding), then frees the graphs,
 * weights, buffers and the tokenizer; a call that begins after close began throws {@link
 * IllegalStateException}. Closing twice does nothing.
 *
 * {@snippet class=cuda.graph.embeddings.JavadocSnippetsTests region=embedder}
 *
 * @since 0.2.0
 */
@API(status = EXPERIMENTAL, since = "0.2.0")
public sealed interface Embedder extends AutoCloseable permits EmbedderImpl {

  /**
   * {@return a builder of an embedder over {@code model}, with the defaults}: fp32, batches of up
   * to 256 texts, no coalescing window, device 0, and {@link WhenNoGpu#FAIL}
   *
   * @param model where the model comes from
   */
  static Builder builder(ModelSource model) {
    return new Builder(model);
  }

  /**
   * {@return the embedding of {@code text}}: {@link #dimension()} floats, L2-normalised, computed
   * in a batch with the requests of other threads that were waiting when it began
   *
   * @param text any text; one longer than the model takes is cut or split as LangChain4j does
   * @throws NullPointerException if {@code text} is null
   * @throws IllegalArgumentException if the text has no word pieces or an unpaired surrogate
   * @throws IllegalStateException if the embedder is closed
   */
  float[] embed(String text);

  /**
   * {@return the embedding of each text, in the list's order}; the list may be of any size
   *
   * @param texts the texts, none null
   * @throws NullPointerException if the list or a text is null (the message names its index)
   * @throws IllegalArgumentException if a text is one {@link #embed} refuses (the first such, by
   *     index); then no embedding is returned, though the batches of texts before it may have run
   *     (and been told as progress) while it was tokenized
   * @throws IllegalStateException if the embedder is closed
   */
  List<float[]> embedAll(List<String> texts);

  /**
   * As {@link #embedAll(List)}, telling {@code progress} after each batch, on the calling thread. A
   * list refused for a late bad text may have told progress of the texts before it.
   *
   * @param texts the texts, none null
   * @param progress told how many texts are done; for long runs, to log or show progress
   * @return the embedding of each text, in the list's order
   */
  List<float[]> embedAll(List<String> texts, Consumer<? super Progress> progress);

  /** {@return the embeddings' length: the model's hidden size} */
  int dimension();

  /** {@return what was read from the model: its name, source, sizes and pooling} */
  ModelInfo model();

  /** {@return where the embeddings are computed} */
  Backend backend();

  /** {@return the precision the products run in} */
  Precision precision();

  /**
   * Waits for the calls in progress to return, then frees the graphs, weights, buffers and the
   * tokenizer. Later calls throw {@link IllegalStateException}; closing again does nothing.
   *
   * @throws IllegalStateException if called from inside a call of this embedder (a progress
   *     consumer), which would wait for itself
   */
  @Override
  void close();

  /**
   * The settings of an {@link Embedder}, then {@link #open()}. Not thread-safe: build on one
   * thread.
   *
   * @since 0.2.0
   */
  final class Builder {
    private final ModelSource model;
    private Precision precision = Precision.FP32;
    private int maxBatch = 256;
    private Duration coalescingWindow = Duration.ZERO;
    private int device;
    private WhenNoGpu whenNoGpu = WhenNoGpu.FAIL;
    private long graphMemoryBudget;
    private @Nullable Buckets batchBuckets, lengthBuckets;
    private @Nullable CudaPlatform platform;

    private Builder(ModelSource model) {
      this.model = Objects.requireNonNull(model, "Embedder.builder: the model source is null");
    }

    /**
     * Sets the products' precision; {@link Precision#FP32} by default.
     *
     * @param precision the products' precision
     * @return this builder
     */
    public Builder precision(Precision precision) {
      this.precision = Objects.requireNonNull(precision, "Embedder.Builder.precision: null");
      return this;
    }

    /**
     * Sets the most texts one graph replay embeds; 256 by default. Larger batches use the GPU
     * better and need more memory for activations (see {@link #graphMemoryBudget}).
     *
     * @param maxBatch the most texts of a batch, at least 1
     * @return this builder
     * @throws IllegalArgumentException if {@code maxBatch} is below 1
     */
    public Builder maxBatch(int maxBatch) {
      if (maxBatch < 1) {
        throw new IllegalArgumentException(
            "Embedder.Builder.maxBatch: " + maxBatch + "; take at least 1 text a batch");
      }
      this.maxBatch = maxBatch;
      return this;
    }

    /**
     * Sets how long a single {@link Embedder#embed} waits for requests of other threads to share
     * its batch. By default none: a request runs at once when the GPU is idle, and the requests
     * that arrive while a batch runs share the next one, so batches grow with the load without
     * adding latency to a lone query. A window trades a lone query's latency for fuller batches.
     *
     * @param window how long a lone request waits, zero or more
     * @return this builder
     * @throws IllegalArgumentException if {@code window} is negative
     */
    public Builder coalescingWindow(Duration window) {
      Objects.requireNonNull(window, "Embedder.Builder.coalescingWindow: null");
      if (window.isNegative()) {
        throw new IllegalArgumentException(
            "Embedder.Builder.coalescingWindow: " + window + " is negative; take zero or more");
      }
      this.coalescingWindow = window;
      return this;
    }

    /**
     * Sets the ordinal of the GPU to run on; 0 by default.
     *
     * @param ordinal the device's ordinal in the platform's devices
     * @return this builder
     * @throws IllegalArgumentException if {@code ordinal} is negative
     */
    public Builder device(int ordinal) {
      if (ordinal < 0) {
        throw new IllegalArgumentException(
            "Embedder.Builder.device: " + ordinal + "; device ordinals start at 0");
      }
      this.device = ordinal;
      return this;
    }

    /**
     * Sets what {@link #open()} does without a GPU; {@link WhenNoGpu#FAIL} by default.
     *
     * @param policy the policy
     * @return this builder
     */
    public Builder whenNoGpu(WhenNoGpu policy) {
      this.whenNoGpu = Objects.requireNonNull(policy, "Embedder.Builder.whenNoGpu: null");
      return this;
    }

    /**
     * Sets the bytes of graph memory (the activations of the graphs kept ready) the embedder's
     * graph cache may hold; by default as much as the largest batch needs, so that every shape's
     * graph can stay ready once it has run. A shape whose graph needs more than the budget runs its
     * nodes one by one, without a graph: slower, the same embeddings.
     *
     * @param bytes the budget, positive
     * @return this builder
     * @throws IllegalArgumentException if {@code bytes} is not positive
     */
    public Builder graphMemoryBudget(long bytes) {
      if (bytes <= 0) {
        throw new IllegalArgumentException(
            "Embedder.Builder.graphMemoryBudget: " + bytes + " bytes; take a positive budget");
      }
      this.graphMemoryBudget = bytes;
      return this;
    }

    /**
     * Sets the batch sizes graphs are captured for: a batch is padded to the smallest that holds
     * it. By default 1, 2, 4, then every multiple of 8 up to {@link #maxBatch}.
     *
     * @param buckets the batch sizes, the largest at least maxBatch
     * @return this builder
     */
    public Builder batchBuckets(Buckets buckets) {
      this.batchBuckets = Objects.requireNonNull(buckets, "Embedder.Builder.batchBuckets: null");
      return this;
    }

    /**
     * Sets the token lengths graphs are captured for: a batch is padded to the smallest that holds
     * its longest text. By default 16, then every multiple of 8 up to 128, then of 64, up to the
     * longest text the model takes.
     *
     * @param buckets the token lengths
     * @return this builder
     */
    public Builder lengthBuckets(Buckets buckets) {
      this.lengthBuckets = Objects.requireNonNull(buckets, "Embedder.Builder.lengthBuckets: null");
      return this;
    }

    /**
     * Runs on {@code platform} instead of the system platform, whatever its provider: for tests
     * that open a simulator platform of their own. The caller keeps owning the platform and closes
     * it after the embedder.
     *
     * @param platform an open platform the caller owns
     * @return this builder
     */
    public Builder platform(CudaPlatform platform) {
      this.platform = Objects.requireNonNull(platform, "Embedder.Builder.platform: null");
      return this;
    }

    /**
     * {@return a new embedder}: reads the model (a few hundred milliseconds for a small model),
     * uploads its weights, and is ready for texts; graphs are captured on first use of each shape
     *
     * @throws IllegalStateException if there is no GPU and the policy is {@link WhenNoGpu#FAIL}, or
     *     the model is not on the class path
     * @throws IllegalArgumentException if the model is not a BERT-family encoder this embedder
     *     reads (the message names what was missing)
     * @throws java.io.UncheckedIOException if a model file cannot be read
     */
    public Embedder open() {
      return EmbedderImpl.open(this);
    }

    /** {@return the model source} */
    public ModelSource model() {
      return model;
    }

    /** {@return the precision} */
    public Precision precision() {
      return precision;
    }

    /** {@return the most texts of a batch} */
    public int maxBatch() {
      return maxBatch;
    }

    /** {@return the coalescing window} */
    public Duration coalescingWindow() {
      return coalescingWindow;
    }

    /** {@return the device ordinal} */
    public int device() {
      return device;
    }

    /** {@return the policy without a GPU} */
    public WhenNoGpu whenNoGpu() {
      return whenNoGpu;
    }

    /** {@return the graph memory budget in bytes, or 0 for the default} */
    public long graphMemoryBudget() {
      return graphMemoryBudget;
    }

    /** {@return the batch buckets, or null for the default} */
    public @Nullable Buckets batchBuckets() {
      return batchBuckets;
    }

    /** {@return the length buckets, or null for the default} */
    public @Nullable Buckets lengthBuckets() {
      return lengthBuckets;
    }

    /** {@return the platform set with {@link #platform}, or null for the system platform} */
    public @Nullable CudaPlatform platform() {
      return platform;
    }
  }
}
