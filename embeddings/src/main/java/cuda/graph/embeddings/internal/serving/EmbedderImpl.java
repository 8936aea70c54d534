// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 the cuda-graph authors
package cuda.graph.embeddings.internal.serving;

import cuda.graph.CudaPlatform;
import cuda.graph.CudaProviderException;
import cuda.graph.Stream;
import cuda.graph.embeddings.Backend;
import cuda.graph.embeddings.Embedder;
import cuda.graph.embeddings.ModelInfo;
import cuda.graph.embeddings.ModelSource;
import cuda.graph.embeddings.Precision;
import cuda.graph.embeddings.Progress;
import cuda.graph.embeddings.internal.gpu.GpuEncoder;
import cuda.graph.embeddings.internal.model.Architecture;
import cuda.graph.embeddings.internal.model.BertTokenizer;
import cuda.graph.embeddings.internal.model.EncoderWeights;
import cuda.graph.embeddings.internal.model.ModelArtifact;
import cuda.graph.embeddings.internal.model.OnnxModel;
import java.util.Arrays;
import java.util.List;
import java.util.Objects;
import java.util.concurrent.locks.ReentrantReadWriteLock;
import java.util.function.Consumer;
import org.jspecify.annotations.Nullable;

/**
 * The one {@link Embedder}: texts are checked and tokenized here, on the caller's thread, then
 * embedded by a backend: the GPU encoder behind a {@link SentenceEmbedder} (on the cuda provider
 * or, when asked for, the simulator), or LangChain4j's own model on the CPU ({@link CpuFallback}).
 */
public final class EmbedderImpl implements Embedder {

  private static final System.Logger LOG = System.getLogger("cuda.graph.embeddings");

  private final ModelInfo model;
  private final Backend backend;
  private final Precision precision;
  private final BertTokenizer tokenizer;
  private final @Nullable SentenceEmbedder gpu;
  private final @Nullable CpuFallback cpu;
  private final @Nullable Stream stream;

  /**
   * Calls hold the read lock from their check of {@link #closed} until they return, so that {@link
   * #close()}, which takes the write lock, frees nothing a call still uses (the tokenizer is native
   * memory: a use after free would kill the JVM). Fair, so that a stream of calls cannot hold a
   * close off: calls that begin after it waits get the closed error.
   */
  private final ReentrantReadWriteLock lifecycle = new ReentrantReadWriteLock(true);

  private boolean closed; // written under the write lock, read under the read lock

  private EmbedderImpl(
      ModelInfo model,
      Backend backend,
      Precision precision,
      BertTokenizer tokenizer,
      @Nullable SentenceEmbedder gpu,
      @Nullable CpuFallback cpu,
      @Nullable Stream stream) {
    this.model = model;
    this.backend = backend;
    this.precision = precision;
    this.tokenizer = tokenizer;
    this.gpu = gpu;
    this.cpu = cpu;
    this.stream = stream;
  }

  /**
   * {@return the embedder {@code settings} describe, opened}: see {@link Embedder.Builder#open()}
   *
   * @param settings the builder's settings
   */
  public static Embedder open(Embedder.Builder settings) {
    ClassLoader loader = loader();
    ModelArtifact artifact = ModelArtifact.of(settings.model(), loader);
    CudaPlatform platform = settings.platform();
    Backend backend;
    if (platform != null) {
      backend = platform.providerId().equals("cuda") ? Backend.GPU : Backend.SIMULATOR;
    } else {
      String refusal = null;
      try {
        platform = CudaPlatform.system();
        if (!platform.providerId().equals("cuda")) {
          refusal =
              "the system platform chose provider '"
                  + platform.providerId()
                  + "' ("
                  + String.join("; ", platform.selectionReport())
                  + ")";
        } else if (platform.devices().size() <= settings.device()) {
          refusal =
              "the cuda provider sees "
                  + platform.devices().size()
                  + " GPUs and device "
                  + settings.device()
                  + " was asked for";
        }
      } catch (CudaProviderException e) {
        refusal = "no provider could be used (" + e.getMessage() + ")";
      }
      if (refusal == null) {
        backend = Backend.GPU;
      } else {
        switch (settings.whenNoGpu()) {
          case FAIL ->
              throw new IllegalStateException(
                  "Embedder.open: no GPU to embed on: "
                      + refusal
                      + ". Run on a host with an NVIDIA GPU and its driver, with"
                      + " io.github.cudagraph:cuda-graph-driver on the class path and"
                      + " --enable-native-access=ALL-UNNAMED; or choose"
                      + " WhenNoGpu.FALL_BACK_TO_CPU to embed with LangChain4j on the CPU.");
          case FALL_BACK_TO_CPU -> {
            return cpuFallback(settings, artifact, loader, refusal);
          }
          case USE_SIMULATOR -> {
            if (platform == null) {
              throw new IllegalStateException(
                  "Embedder.open: WhenNoGpu.USE_SIMULATOR, but "
                      + refusal
                      + "; put"
                      + " io.github.cudagraph:cuda-graph-simulator on the class path");
            }
          }
        }
        backend = platform.providerId().equals("cuda") ? Backend.GPU : Backend.SIMULATOR;
      }
    }
    EncoderWeights weights = EncoderWeights.from(OnnxModel.parse(artifact.readModel()));
    BertTokenizer tokenizer = BertTokenizer.load(artifact);
    ModelInfo info = info(artifact, weights);
    Stream stream = platform.device(settings.device()).newStream();
    try {
      GpuEncoder.Precision precision =
          settings.precision() == Precision.FP16
              ? GpuEncoder.Precision.FP16
              : GpuEncoder.Precision.FP32;
      GpuEncoder encoder =
          new GpuEncoder(
              weights,
              tokenizer,
              stream,
              settings.maxBatch(),
              GpuEncoder.maxLength(weights.architecture, tokenizer),
              precision,
              GpuEncoder.Gelu.defaultFor(precision),
              artifact.pooling(),
              new GpuEncoder.Sizing(
                  settings.batchBuckets(), settings.lengthBuckets(), settings.graphMemoryBudget()));
      SentenceEmbedder gpu =
          new SentenceEmbedder(
              encoder, settings.maxBatch(), settings.coalescingWindow(), info.name());
      LOG.log(
          System.Logger.Level.INFO,
          "cuda.graph.embeddings: {0} on {1} ({2}, {3})",
          info.name(),
          platform.device(settings.device()).name(),
          platform.providerId(),
          settings.precision());
      return new EmbedderImpl(info, backend, settings.precision(), tokenizer, gpu, null, stream);
    } catch (RuntimeException | Error e) {
      stream.close();
      tokenizer.close();
      throw e;
    }
  }

  private static Embedder cpuFallback(
      Embedder.Builder settings, ModelArtifact artifact, ClassLoader loader, String refusal) {
    if (!(settings.model() instanceof ModelSource.LangChain4jJar)) {
      throw new IllegalStateException(
          "Embedder.open: no GPU to embed on ("
              + refusal
              + "), and WhenNoGpu.FALL_BACK_TO_CPU runs LangChain4j's model class, which files on"
              + " disk do not have; open the model from its LangChain4j jar, or run on a GPU");
    }
    EncoderWeights weights = EncoderWeights.from(OnnxModel.parse(artifact.readModel()));
    BertTokenizer tokenizer = BertTokenizer.load(artifact);
    CpuFallback cpu = CpuFallback.open(artifact, loader);
    LOG.log(
        System.Logger.Level.WARNING,
        "cuda.graph.embeddings: no GPU ({0}); {1} embeds on the CPU with LangChain4j''s {2}, at"
            + " CPU speed",
        refusal,
        artifact.name(),
        artifact.modelClass());
    return new EmbedderImpl(
        info(artifact, weights),
        Backend.CPU_FALLBACK,
        settings.precision(),
        tokenizer,
        null,
        cpu,
        null);
  }

  /** {@return what the graph says of the model (its architecture) and what its source says} */
  private static ModelInfo info(ModelArtifact artifact, EncoderWeights weights) {
    Architecture a = weights.architecture;
    return new ModelInfo(
        artifact.name(),
        artifact.description(),
        a.layers(),
        a.hidden(),
        a.heads(),
        a.intermediate(),
        a.vocabulary(),
        a.positions(),
        artifact.pooling(),
        a.quantized());
  }

  private static ClassLoader loader() {
    ClassLoader context = Thread.currentThread().getContextClassLoader();
    return context != null ? context : EmbedderImpl.class.getClassLoader();
  }

  /** Takes the read lock for a call, or throws if the embedder is closed. */
  private void enter(String call) {
    lifecycle.readLock().lock();
    if (closed) {
      lifecycle.readLock().unlock();
      throw new IllegalStateException(
          call + ": the embedder is closed; open a new one with Embedder.builder(...).open()");
    }
  }

  @Override
  public float[] embed(String text) {
    enter("Embedder.embed");
    try {
      if (gpu != null) {
        return gpu.embed(text);
      }
      tokenizer.parts(text, "Embedder.embed", "the text"); // the same refusals on every backend
      return Objects.requireNonNull(cpu).embedAll(List.of(text)).get(0);
    } finally {
      lifecycle.readLock().unlock();
    }
  }

  @Override
  public List<float[]> embedAll(List<String> texts) {
    return embedAll(texts, p -> {});
  }

  @Override
  public List<float[]> embedAll(List<String> texts, Consumer<? super Progress> progress) {
    Objects.requireNonNull(progress, "Embedder.embedAll: progress is null; pass p -> {}");
    enter("Embedder.embedAll");
    try {
      return embedAllEntered(texts, progress);
    } finally {
      lifecycle.readLock().unlock();
    }
  }

  private List<float[]> embedAllEntered(List<String> texts, Consumer<? super Progress> progress) {
    if (gpu != null) {
      return Arrays.asList(gpu.embedAll(texts, progress));
    }
    Objects.requireNonNull(texts, "Embedder.embedAll: the list of texts is null");
    for (int i = 0; i < texts.size(); i++) {
      tokenizer.parts(texts.get(i), "Embedder.embedAll", "text " + i + " of " + texts.size());
    }
    long started = System.nanoTime();
    List<float[]> out = Objects.requireNonNull(cpu).embedAll(texts);
    progress.accept(
        new Progress(
            texts.size(), texts.size(), java.time.Duration.ofNanos(System.nanoTime() - started)));
    return out;
  }

  @Override
  public int dimension() {
    return model.hidden();
  }

  @Override
  public ModelInfo model() {
    return model;
  }

  @Override
  public Backend backend() {
    return backend;
  }

  @Override
  public Precision precision() {
    return precision;
  }

  @Override
  public void close() {
    if (lifecycle.getReadHoldCount() > 0) {
      // The write lock cannot be had while this thread holds the read lock: it would wait forever.
      throw new IllegalStateException(
          "Embedder.close: called from inside a call of this embedder (a progress consumer?);"
              + " close it after the call returns");
    }
    lifecycle.writeLock().lock();
    try {
      if (closed) {
        return;
      }
      closed = true;
    } finally {
      lifecycle.writeLock().unlock();
    }
    try {
      if (gpu != null) {
        gpu.close();
      }
    } finally {
      if (stream != null) {
        stream.close();
      }
      tokenizer.close();
    }
  }

  @Override
  public String toString() {
    return "Embedder[" + model.name() + ", " + backend + ", " + precision + "]";
  }
}
