// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 the cuda-graph authors
package cuda.graph.embeddings.internal.serving;

import cuda.graph.embeddings.internal.model.ModelArtifact;
import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.Method;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;

/**
 * LangChain4j's own model class from the model's jar, on the CPU: what {@code
 * WhenNoGpu.FALL_BACK_TO_CPU} runs. Called through reflection, so that the module needs LangChain4j
 * only where this fallback is chosen (its jar brings it).
 *
 * <p>Thread-safe as LangChain4j's model is.
 */
final class CpuFallback {

  private final Object model;
  private final Method embedAll;
  private final Method from;
  private final Method content;
  private final Method vector;

  private CpuFallback(Object model, Method embedAll, Method from, Method content, Method vector) {
    this.model = model;
    this.embedAll = embedAll;
    this.from = from;
    this.content = content;
    this.vector = vector;
  }

  /** Instantiates the artifact's LangChain4j model class with its no-argument constructor. */
  static CpuFallback open(ModelArtifact artifact, ClassLoader loader) {
    String name = Objects.requireNonNull(artifact.modelClass(), "a jar's model class");
    try {
      Class<?> type = Class.forName(name, true, loader);
      Class<?> api = Class.forName("dev.langchain4j.model.embedding.EmbeddingModel", true, loader);
      Class<?> segment = Class.forName("dev.langchain4j.data.segment.TextSegment", true, loader);
      Class<?> response = Class.forName("dev.langchain4j.model.output.Response", true, loader);
      Class<?> embedding = Class.forName("dev.langchain4j.data.embedding.Embedding", true, loader);
      return new CpuFallback(
          type.getConstructor().newInstance(),
          api.getMethod("embedAll", List.class),
          segment.getMethod("from", String.class),
          response.getMethod("content"),
          embedding.getMethod("vector"));
    } catch (ReflectiveOperationException | LinkageError e) {
      throw new IllegalStateException(
          "Embedder.open: WhenNoGpu.FALL_BACK_TO_CPU cannot make LangChain4j's "
              + name
              + " from "
              + artifact
              + " ("
              + e
              + "); keep the artifact's dependencies (langchain4j-embeddings, ONNX Runtime) on"
              + " the class path",
          e);
    }
  }

  /** {@return LangChain4j's embedding of each text, in order} */
  List<float[]> embedAll(List<String> texts) {
    try {
      List<Object> segments = new ArrayList<>(texts.size());
      for (String t : texts) {
        segments.add(from.invoke(null, t));
      }
      List<?> embeddings = (List<?>) content.invoke(embedAll.invoke(model, segments));
      List<float[]> out = new ArrayList<>(embeddings.size());
      for (Object e : embeddings) {
        out.add((float[]) vector.invoke(e));
      }
      return out;
    } catch (InvocationTargetException e) {
      if (e.getCause() instanceof RuntimeException r) {
        throw r;
      }
      throw new IllegalStateException("Embedder: LangChain4j's model failed", e.getCause());
    } catch (IllegalAccessException e) {
      throw new IllegalStateException("Embedder: cannot call LangChain4j's model", e);
    }
  }
}
