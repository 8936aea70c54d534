// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 the cuda-graph authors
package cuda.graph.embeddings.internal.model;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;

/**
 * The weights of all-MiniLM-L6-v2 (a BERT encoder: 6 layers, hidden size 384, 12 heads of 32, FFN
 * 1536, vocabulary 30,522, 512 positions, 2 token types) mapped from the ONNX initializers onto the
 * BERT structure.
 *
 * <p>The ONNX file is PyTorch 2.0.1's export of the Hugging Face model. Biases, LayerNorm and
 * embedding tables keep their PyTorch names, but the export renamed the six linear layers' weights
 * of each layer to {@code onnx::MatMul_<n>} and stored them transposed, as {@code [in, out]}, the
 * right operand of {@code MatMul(x, W)}. The mapping is therefore read from the graph, by the node
 * that consumes each initializer (node names are the exporter's module scopes):
 *
 * <pre>
 * embeddings
 *   word [30522, 384]      input 0 of Gather /embeddings/word_embeddings/Gather
 *   position [512, 384]    input 0 of Gather /embeddings/position_embeddings/Gather
 *   type [2, 384]          input 0 of Gather /embeddings/token_type_embeddings/Gather
 *   LayerNorm gamma, beta  the initializers of Mul /embeddings/LayerNorm/Mul and
 *                          Add /embeddings/LayerNorm/Add_1
 * layer n (0..5), with p = /encoder/layer.n
 *   query W [384, 384], b  initializer of MatMul p/attention/self/query/MatMul, and of the Add
 *                          p/attention/self/query/Add that reads the MatMul's output
 *   key, value             the same under p/attention/self/key/ and p/attention/self/value/
 *   attention output       the same under p/attention/output/dense/ ([384, 384])
 *   attention LayerNorm    Mul p/attention/output/LayerNorm/Mul, Add .../LayerNorm/Add_1
 *   intermediate W [384, 1536], b [1536]   under p/intermediate/dense/
 *   output W [1536, 384], b [384]          under p/output/dense/
 *   output LayerNorm       Mul p/output/LayerNorm/Mul, Add p/output/LayerNorm/Add_1
 * </pre>
 *
 * <p>In the 1.19.0-beta29 artifact layer n's MatMul weights are {@code onnx::MatMul_<787 + 13n>}
 * (query), {@code +1} (key), {@code +4} (value), {@code +10} (attention output), {@code +11}
 * (intermediate) and {@code +12} (output); the code does not rely on these numbers. One initializer
 * is left unmapped: {@code embeddings.position_ids}, INT64 {@code [1, 512]} holding 0..511, which
 * the graph slices to the sequence length to index the position table; the encoder uses positions
 * 0..n-1 directly. The graph's constants confirm the rest of the structure: LayerNorm epsilon
 * 1e-12, attention scores divided by 5.656854 (the square root of 32), GELU as {@code x * (1 +
 * erf(x / 1.4142135)) * 0.5}.
 */
public final class EncoderWeights {

  public static final int VOCABULARY = 30522;
  public static final int POSITIONS = 512;
  public static final int TYPES = 2;
  public static final int HIDDEN = 384;
  public static final int LAYERS = 6;
  public static final int HEADS = 12;
  public static final int HEAD_SIZE = HIDDEN / HEADS;
  public static final int FFN = 1536;

  /** The initializer the encoder does not need, and why is in the class comment. */
  public static final String POSITION_IDS = "embeddings.position_ids";

  /** A linear layer {@code y = x W + b}, with {@code W} row-major {@code [in, out]}. */
  public record Linear(
      String weightName, String biasName, int in, int out, float[] weight, float[] bias) {}

  /** LayerNorm's scale and shift, each of {@link #HIDDEN} values. */
  public record LayerNorm(String gammaName, String betaName, float[] gamma, float[] beta) {}

  /** One encoder layer. */
  public record Layer(
      Linear query,
      Linear key,
      Linear value,
      Linear attentionOutput,
      LayerNorm attentionNorm,
      Linear intermediate,
      Linear output,
      LayerNorm outputNorm) {

    List<Linear> linears() {
      return List.of(query, key, value, attentionOutput, intermediate, output);
    }
  }

  /** {@code [VOCABULARY, HIDDEN]}, row-major. */
  public final float[] wordEmbeddings;

  /** {@code [POSITIONS, HIDDEN]}, row-major. */
  public final float[] positionEmbeddings;

  /** {@code [TYPES, HIDDEN]}, row-major. */
  public final float[] typeEmbeddings;

  public final LayerNorm embeddingNorm;
  public final List<Layer> layers;
  private final Set<String> unmapped;

  private EncoderWeights(
      float[] wordEmbeddings,
      float[] positionEmbeddings,
      float[] typeEmbeddings,
      LayerNorm embeddingNorm,
      List<Layer> layers,
      Set<String> unmapped) {
    this.wordEmbeddings = wordEmbeddings;
    this.positionEmbeddings = positionEmbeddings;
    this.typeEmbeddings = typeEmbeddings;
    this.embeddingNorm = embeddingNorm;
    this.layers = layers;
    this.unmapped = unmapped;
  }

  /** Reads the weights from the artifact's ONNX model. */
  public static EncoderWeights read(ModelArtifact artifact) {
    return from(OnnxModel.parse(artifact.readModel()));
  }

  /** Maps {@code onnx}'s initializers onto the BERT structure, checking every shape. */
  public static EncoderWeights from(OnnxModel onnx) {
    Mapper m = new Mapper(onnx);
    float[] word = m.table("/embeddings/word_embeddings/Gather", VOCABULARY);
    float[] position = m.table("/embeddings/position_embeddings/Gather", POSITIONS);
    float[] type = m.table("/embeddings/token_type_embeddings/Gather", TYPES);
    LayerNorm embeddingNorm = m.layerNorm("/embeddings/LayerNorm");
    List<Layer> layers = new ArrayList<>();
    for (int n = 0; n < LAYERS; n++) {
      String p = "/encoder/layer." + n;
      layers.add(
          new Layer(
              m.linear(p + "/attention/self/query", HIDDEN, HIDDEN),
              m.linear(p + "/attention/self/key", HIDDEN, HIDDEN),
              m.linear(p + "/attention/self/value", HIDDEN, HIDDEN),
              m.linear(p + "/attention/output/dense", HIDDEN, HIDDEN),
              m.layerNorm(p + "/attention/output/LayerNorm"),
              m.linear(p + "/intermediate/dense", HIDDEN, FFN),
              m.linear(p + "/output/dense", FFN, HIDDEN),
              m.layerNorm(p + "/output/LayerNorm")));
    }
    Set<String> unmapped = new LinkedHashSet<>(onnx.names());
    unmapped.removeAll(m.used);
    return new EncoderWeights(
        word, position, type, embeddingNorm, List.copyOf(layers), Set.copyOf(unmapped));
  }

  /** The initializers no part of the structure took (see the class comment). */
  public Set<String> unmapped() {
    return unmapped;
  }

  /** How many weights the structure holds, every table, matrix, bias and LayerNorm counted. */
  public long parameters() {
    long count = wordEmbeddings.length + positionEmbeddings.length + typeEmbeddings.length;
    count += 2L * HIDDEN;
    for (Layer layer : layers) {
      for (Linear l : layer.linears()) {
        count += l.weight().length + l.bias().length;
      }
      count += 4L * HIDDEN;
    }
    return count;
  }

  /** Finds initializers through the nodes that read them, and records which it took. */
  private static final class Mapper {
    private final OnnxModel onnx;
    private final Set<String> used = new LinkedHashSet<>();

    public Mapper(OnnxModel onnx) {
      this.onnx = onnx;
    }

    public float[] table(String gather, int rows) {
      OnnxModel.Node node = node(gather, "Gather");
      if (node.inputs().isEmpty() || !onnx.isInitializer(node.inputs().get(0))) {
        throw new IllegalArgumentException(
            "EncoderWeights: Gather " + gather + " does not read an initializer table");
      }
      return take(node.inputs().get(0), rows, HIDDEN).data();
    }

    public LayerNorm layerNorm(String scope) {
      OnnxModel.FloatTensor gamma = take(initializerOf(node(scope + "/Mul", "Mul")), HIDDEN);
      OnnxModel.FloatTensor beta = take(initializerOf(node(scope + "/Add_1", "Add")), HIDDEN);
      return new LayerNorm(gamma.name(), beta.name(), gamma.data(), beta.data());
    }

    public Linear linear(String scope, int in, int out) {
      OnnxModel.Node matmul = node(scope + "/MatMul", "MatMul");
      OnnxModel.Node add = node(scope + "/Add", "Add");
      if (!add.inputs().contains(matmul.outputs().get(0))) {
        throw new IllegalArgumentException(
            "EncoderWeights: " + add.name() + " does not add a bias to " + matmul.name());
      }
      OnnxModel.FloatTensor weight = take(initializerOf(matmul), in, out);
      OnnxModel.FloatTensor bias = take(initializerOf(add), out);
      return new Linear(weight.name(), bias.name(), in, out, weight.data(), bias.data());
    }

    private OnnxModel.Node node(String name, String opType) {
      List<OnnxModel.Node> found =
          onnx.nodes().stream().filter(n -> n.name().equals(name)).toList();
      if (found.size() != 1 || !found.get(0).opType().equals(opType)) {
        throw new IllegalArgumentException(
            "EncoderWeights: expected one "
                + opType
                + " node named "
                + name
                + " in the graph, found "
                + found.stream().map(OnnxModel.Node::opType).toList()
                + "; the model is not the PyTorch export of all-MiniLM-L6-v2 this mapping reads");
      }
      return found.get(0);
    }

    private String initializerOf(OnnxModel.Node node) {
      List<String> inits = node.inputs().stream().filter(onnx::isInitializer).toList();
      if (inits.size() != 1) {
        throw new IllegalArgumentException(
            "EncoderWeights: "
                + node.opType()
                + " "
                + node.name()
                + " reads initializers "
                + inits
                + ", not exactly one weight");
      }
      return inits.get(0);
    }

    private OnnxModel.FloatTensor take(String name, int... shape) {
      OnnxModel.FloatTensor t = onnx.floats(name);
      if (!Arrays.equals(t.shape(), shape)) {
        throw new IllegalArgumentException(
            "EncoderWeights: initializer "
                + name
                + " has shape "
                + t.dims()
                + ", expected "
                + Arrays.toString(shape));
      }
      if (!used.add(name)) {
        throw new IllegalArgumentException(
            "EncoderWeights: initializer " + name + " is read as two different weights");
      }
      return t;
    }
  }
}
