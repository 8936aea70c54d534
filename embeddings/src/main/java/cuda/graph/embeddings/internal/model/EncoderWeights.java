// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 the cuda-graph authors
package cuda.graph.embeddings.internal.model;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.jspecify.annotations.Nullable;

/**
 * The weights of a BERT encoder mapped from an ONNX model's initializers onto the BERT structure,
 * and its {@link Architecture}, both read from the graph: any BERT-family encoder as PyTorch's
 * {@code torch.onnx} exports Hugging Face's {@code BertModel} (all-MiniLM-L6-v2, bge-small-en-v1.5,
 * ...), fp32 or quantized by ONNX Runtime's dynamic quantization.
 *
 * <p>Biases, LayerNorm and embedding tables keep their PyTorch names, but the export renames the
 * linear layers' weights to {@code onnx::MatMul_<n>} and stores them transposed, as {@code [in,
 * out]}, the right operand of {@code MatMul(x, W)}. The mapping is therefore read from the graph,
 * by the node that consumes each initializer (node names are the exporter's module scopes), with
 * {@code p = /encoder/layer.n}:
 *
 * <pre>
 * embeddings
 *   word [vocabulary, hidden]   input 0 of Gather /embeddings/word_embeddings/Gather
 *   position [positions, hidden]  input 0 of Gather /embeddings/position_embeddings/Gather
 *   type [types, hidden]        input 0 of Gather /embeddings/token_type_embeddings/Gather
 *   LayerNorm gamma, beta       the initializers of Mul /embeddings/LayerNorm/Mul and
 *                               Add /embeddings/LayerNorm/Add_1
 * layer n, for every scope /encoder/layer.n/ of the graph's nodes
 *   query W [hidden, hidden], b  the bias is the initializer of Add p/attention/self/query/Add;
 *                               W is the initializer of the MatMul whose output that Add reads
 *   key, value                  the same under p/attention/self/key/ and p/attention/self/value/
 *   attention output            the same under p/attention/output/dense/
 *   attention LayerNorm         Mul p/attention/output/LayerNorm/Mul, Add .../LayerNorm/Add_1
 *   intermediate W [hidden, intermediate], b   under p/intermediate/dense/
 *   output W [intermediate, hidden], b         under p/output/dense/
 *   output LayerNorm            Mul p/output/LayerNorm/Mul, Add p/output/LayerNorm/Add_1
 * </pre>
 *
 * <p>The architecture's other numbers come from the graph's constants: the heads from the {@code
 * Reshape} of the query to {@code [batch, length, heads, head size]}, checked against the constant
 * the attention scores are divided by ({@code p/attention/self/Div}, the square root of the head
 * size); the LayerNorm epsilon from each LayerNorm's {@code Add} (one value for all); and the GELU
 * is checked to be BERT's erf form ({@code x * (1 + erf(x / 1.4142135)) * 0.5}), the one both
 * encoders compute. The position table is read at positions 0..n-1: the graph's index into it must
 * be a slice from 0 of constant position ids that count 0, 1, 2, ... (all-MiniLM-L6-v2 keeps them
 * in the initializer {@code embeddings.position_ids}, bge-small-en-v1.5's export in a {@code
 * Constant} node).
 *
 * <p>Quantized models (ONNX Runtime's dynamic quantization, producer {@code onnx.quantize}) are
 * dequantized to fp32 when read, {@code w = (q - zero point) * scale}. Each linear layer is a
 * {@code MatMulInteger} of the dynamically quantized input and an INT8 weight {@code [in, out]}
 * with a scale and zero point per output column, whose product is cast to float and multiplied by
 * the input's scale times the weight's ({@code Mul(Cast(MatMulInteger(x, W, x_zp, W_zp)),
 * Mul(x_scale, W_scale))}), the output the bias {@code Add} reads; the embedding tables are UINT8,
 * gathered, then dequantized by a {@code DequantizeLinear} with one scale and zero point for the
 * table.
 */
public final class EncoderWeights {

  /**
   * A linear layer {@code y = x W + b}.
   *
   * @param weightName the weight's initializer
   * @param biasName the bias's initializer
   * @param in the input's width
   * @param out the output's width
   * @param weight {@code W}, row-major {@code [in, out]} (dequantized if stored as int8)
   * @param bias {@code b}, {@code out} values
   */
  public record Linear(
      String weightName, String biasName, int in, int out, float[] weight, float[] bias) {}

  /**
   * LayerNorm's scale and shift.
   *
   * @param gammaName the scale's initializer
   * @param betaName the shift's initializer
   * @param gamma the scale, {@code hidden} values
   * @param beta the shift, {@code hidden} values
   */
  public record LayerNorm(String gammaName, String betaName, float[] gamma, float[] beta) {}

  /**
   * One encoder layer.
   *
   * @param query the query projection
   * @param key the key projection
   * @param value the value projection
   * @param attentionOutput the attention's output projection
   * @param attentionNorm the LayerNorm after attention and its residual
   * @param intermediate the feed-forward up projection (GELU follows)
   * @param output the feed-forward down projection
   * @param outputNorm the LayerNorm after the feed-forward and its residual
   */
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

  /** The sizes and constants read from the graph. */
  public final Architecture architecture;

  /** {@code [vocabulary, hidden]}, row-major. */
  public final float[] wordEmbeddings;

  /** {@code [positions, hidden]}, row-major. */
  public final float[] positionEmbeddings;

  /** {@code [types, hidden]}, row-major. */
  public final float[] typeEmbeddings;

  /** The LayerNorm of the summed embeddings. */
  public final LayerNorm embeddingNorm;

  /** The encoder layers, in order. */
  public final List<Layer> layers;

  private final Set<String> unmapped;

  private EncoderWeights(
      Architecture architecture,
      float[] wordEmbeddings,
      float[] positionEmbeddings,
      float[] typeEmbeddings,
      LayerNorm embeddingNorm,
      List<Layer> layers,
      Set<String> unmapped) {
    this.architecture = architecture;
    this.wordEmbeddings = wordEmbeddings;
    this.positionEmbeddings = positionEmbeddings;
    this.typeEmbeddings = typeEmbeddings;
    this.embeddingNorm = embeddingNorm;
    this.layers = layers;
    this.unmapped = unmapped;
  }

  /**
   * {@return the weights of {@code artifact}'s ONNX model, mapped by {@link #from}}
   *
   * @param artifact the model artifact
   */
  public static EncoderWeights read(ModelArtifact artifact) {
    return from(OnnxModel.parse(artifact.readModel()));
  }

  /**
   * {@return {@code onnx}'s initializers mapped onto the BERT structure}, its architecture read
   * from the graph and every shape checked against it
   *
   * @param onnx the parsed model
   * @throws IllegalArgumentException if the graph is not a BERT encoder as the class comment
   *     describes; the message names the node or initializer that differs
   */
  public static EncoderWeights from(OnnxModel onnx) {
    Mapper m = new Mapper(onnx);
    Table word = m.table("/embeddings/word_embeddings/Gather");
    int hidden = word.columns();
    Table position = m.table("/embeddings/position_embeddings/Gather");
    Table type = m.table("/embeddings/token_type_embeddings/Gather");
    for (Table t : List.of(position, type)) {
      m.check(t.columns() == hidden, t.name() + " is " + t.columns() + " wide, not " + hidden);
    }
    m.checkPositionIds("/embeddings/position_embeddings/Gather", position.rows());
    LayerNorm embeddingNorm = m.layerNorm("/embeddings/LayerNorm", hidden);
    int count = m.layerCount();
    int heads = 0, intermediate = 0;
    List<Layer> layers = new ArrayList<>();
    for (int n = 0; n < count; n++) {
      String p = "/encoder/layer." + n;
      int h = m.heads(p, hidden);
      m.check(n == 0 || h == heads, p + " has " + h + " heads, layer 0 " + heads);
      heads = h;
      m.checkGelu(p + "/intermediate/intermediate_act_fn");
      Linear up = m.linear(p + "/intermediate/dense");
      intermediate = n == 0 ? up.out() : intermediate;
      Layer layer =
          new Layer(
              m.linear(p + "/attention/self/query"),
              m.linear(p + "/attention/self/key"),
              m.linear(p + "/attention/self/value"),
              m.linear(p + "/attention/output/dense"),
              m.layerNorm(p + "/attention/output/LayerNorm", hidden),
              up,
              m.linear(p + "/output/dense"),
              m.layerNorm(p + "/output/LayerNorm", hidden));
      for (Linear l : List.of(layer.query(), layer.key(), layer.value(), layer.attentionOutput())) {
        m.checkShape(l, hidden, hidden);
      }
      m.checkShape(layer.intermediate(), hidden, intermediate);
      m.checkShape(layer.output(), intermediate, hidden);
      layers.add(layer);
    }
    Architecture architecture =
        new Architecture(
            count,
            hidden,
            heads,
            intermediate,
            word.rows(),
            position.rows(),
            type.rows(),
            m.epsilon(),
            m.quantized);
    Set<String> unmapped = new LinkedHashSet<>(onnx.names());
    unmapped.removeAll(m.used);
    return new EncoderWeights(
        architecture,
        word.data(),
        position.data(),
        type.data(),
        embeddingNorm,
        List.copyOf(layers),
        Set.copyOf(unmapped));
  }

  /**
   * {@return weights given array by array}, for measurements that need a model's shape and not its
   * values (the tests' QueryBreakdown on random weights); every array's length is checked
   *
   * @param architecture the sizes
   * @param word {@code [vocabulary, hidden]}
   * @param position {@code [positions, hidden]}
   * @param type {@code [types, hidden]}
   * @param embeddingNorm the embeddings' LayerNorm
   * @param layers {@code architecture.layers()} layers
   * @throws IllegalArgumentException if an array's length is not the architecture's; the message
   *     names it
   */
  public static EncoderWeights of(
      Architecture architecture,
      float[] word,
      float[] position,
      float[] type,
      LayerNorm embeddingNorm,
      List<Layer> layers) {
    Architecture a = architecture;
    int h = a.hidden(), f = a.intermediate();
    checkLength("the word table", word.length, (long) a.vocabulary() * h);
    checkLength("the position table", position.length, (long) a.positions() * h);
    checkLength("the type table", type.length, (long) a.types() * h);
    checkLength("the embeddings' LayerNorm", embeddingNorm.gamma().length, h);
    checkLength("the embeddings' LayerNorm shift", embeddingNorm.beta().length, h);
    if (layers.size() != a.layers()) {
      throw new IllegalArgumentException(
          "EncoderWeights.of: "
              + layers.size()
              + " layers given; the architecture has "
              + a.layers());
    }
    for (int n = 0; n < layers.size(); n++) {
      Layer l = layers.get(n);
      for (Linear linear : l.linears()) {
        int in = linear == l.output() ? f : h, out = linear == l.intermediate() ? f : h;
        checkLength(
            "layer " + n + "'s " + linear.weightName(), linear.weight().length, (long) in * out);
        checkLength("layer " + n + "'s " + linear.biasName(), linear.bias().length, out);
      }
      for (LayerNorm norm : List.of(l.attentionNorm(), l.outputNorm())) {
        checkLength("layer " + n + "'s " + norm.gammaName(), norm.gamma().length, h);
        checkLength("layer " + n + "'s " + norm.betaName(), norm.beta().length, h);
      }
    }
    return new EncoderWeights(
        a, word, position, type, embeddingNorm, List.copyOf(layers), Set.of());
  }

  private static void checkLength(String what, long length, long expected) {
    if (length != expected) {
      throw new IllegalArgumentException(
          "EncoderWeights.of: "
              + what
              + " has "
              + length
              + " values; the architecture needs "
              + expected);
    }
  }

  /**
   * {@return the initializers no part of the structure took} (the position ids, checked, count as
   * taken): none in the models this mapping was written for
   */
  public Set<String> unmapped() {
    return unmapped;
  }

  /** {@return how many weights the structure holds, every table, matrix, bias and LayerNorm} */
  public long parameters() {
    long count = wordEmbeddings.length + positionEmbeddings.length + typeEmbeddings.length;
    count += embeddingNorm.gamma().length + embeddingNorm.beta().length;
    for (Layer layer : layers) {
      for (Linear l : layer.linears()) {
        count += l.weight().length + l.bias().length;
      }
      for (LayerNorm norm : List.of(layer.attentionNorm(), layer.outputNorm())) {
        count += norm.gamma().length + norm.beta().length;
      }
    }
    return count;
  }

  /** An embedding table, fp32 (dequantized if it was stored as 8-bit values). */
  private record Table(String name, int rows, int columns, float[] data) {}

  /** Finds initializers through the nodes that read them, and records which it took. */
  private static final class Mapper {
    private static final Pattern LAYER = Pattern.compile("^/encoder/layer\\.(\\d+)/");

    private final OnnxModel onnx;
    private final Set<String> used = new LinkedHashSet<>();
    private final Map<String, List<OnnxModel.Node>> byName = new HashMap<>();
    private final Map<String, OnnxModel.Node> producers = new HashMap<>();
    private final Map<String, List<OnnxModel.Node>> consumers = new HashMap<>();

    /** The epsilon of each LayerNorm read so far, by scope. */
    private final Map<String, Float> epsilons = new java.util.LinkedHashMap<>();

    private boolean quantized;

    Mapper(OnnxModel onnx) {
      this.onnx = onnx;
      for (OnnxModel.Node n : onnx.nodes()) {
        byName.computeIfAbsent(n.name(), k -> new ArrayList<>()).add(n);
        for (String out : n.outputs()) {
          producers.put(out, n);
        }
        for (String in : n.inputs()) {
          consumers.computeIfAbsent(in, k -> new ArrayList<>()).add(n);
        }
      }
    }

    void check(boolean condition, String problem) {
      if (!condition) {
        throw new IllegalArgumentException(
            "EncoderWeights: "
                + problem
                + "; the model is not a BERT encoder as torch.onnx exports it (optionally"
                + " quantized by ONNX Runtime), which this mapping reads");
      }
    }

    /** {@return how many {@code /encoder/layer.N/} scopes the nodes have, checked to be 0..L-1} */
    int layerCount() {
      TreeSet<Integer> found = new TreeSet<>();
      for (OnnxModel.Node n : onnx.nodes()) {
        Matcher matcher = LAYER.matcher(n.name());
        if (matcher.find()) {
          found.add(Integer.parseInt(matcher.group(1)));
        }
      }
      check(!found.isEmpty(), "no node is in a scope /encoder/layer.N/");
      check(
          found.first() == 0 && found.last() == found.size() - 1,
          "the layer scopes are " + found + ", not 0 to " + (found.size() - 1));
      return found.size();
    }

    Table table(String gather) {
      OnnxModel.Node node = node(gather, "Gather");
      String name = node.inputs().isEmpty() ? "" : node.inputs().get(0);
      check(onnx.isInitializer(name), "Gather " + gather + " does not read an initializer table");
      int[] shape = onnx.shape(name);
      check(shape.length == 2, "the table " + name + " has shape " + Arrays.toString(shape));
      if (onnx.dataType(name).equals("FLOAT")) {
        return new Table(name, shape[0], shape[1], take(name, shape).data());
      }
      // ONNX Runtime's quantized Gather: 8-bit rows, dequantized after they are gathered.
      OnnxModel.Node dequantize = onlyConsumer(node, "DequantizeLinear");
      List<String> in = dequantize.inputs();
      return new Table(
          name,
          shape[0],
          shape[1],
          dequantized(name, in.get(1), in.size() > 2 ? in.get(2) : null, shape));
    }

    /**
     * Checks that the position table at {@code gather} is indexed by positions 0, 1, 2, ...: a
     * {@code Slice} from 0 of constant ids that count up from 0, at least {@code positions} of
     * them.
     */
    void checkPositionIds(String gather, int positions) {
      OnnxModel.Node node = node(gather, "Gather");
      String index = node.inputs().get(1);
      OnnxModel.Node slice = producers.get(index);
      check(
          slice != null
              && slice.opType().equals("Slice")
              && slice.inputs().size() >= 2
              && onnx.isConstant(slice.inputs().get(0))
              && onnx.isConstant(slice.inputs().get(1)),
          gather
              + " reads the position table at "
              + index
              + ", not at a Slice of constant position ids; this encoder embeds positions 0 to"
              + " n-1");
      String ids = slice.inputs().get(0);
      long[] values = onnx.int64s(ids);
      boolean counting = values.length >= positions;
      for (int i = 0; counting && i < values.length; i++) {
        counting = values[i] == i;
      }
      check(counting, "the position ids " + ids + " do not count 0, 1, 2, ... " + positions);
      check(
          Arrays.equals(onnx.int64s(slice.inputs().get(1)), new long[] {0}),
          "the position ids are sliced from "
              + Arrays.toString(onnx.int64s(slice.inputs().get(1))));
      if (slice.inputs().size() >= 5) {
        long[] steps = onnx.int64s(slice.inputs().get(4));
        check(
            Arrays.equals(steps, new long[] {1}),
            "the position ids are sliced in steps of " + Arrays.toString(steps));
      }
      if (onnx.isInitializer(ids)) {
        used.add(ids);
      }
    }

    LayerNorm layerNorm(String scope, int hidden) {
      OnnxModel.FloatTensor gamma = take(initializerOf(node(scope + "/Mul", "Mul")), hidden);
      OnnxModel.FloatTensor beta = take(initializerOf(node(scope + "/Add_1", "Add")), hidden);
      epsilons.put(scope, scalar(node(scope + "/Add", "Add")));
      return new LayerNorm(gamma.name(), beta.name(), gamma.data(), beta.data());
    }

    /** {@return the one epsilon every LayerNorm adds} */
    float epsilon() {
      check(
          epsilons.values().stream().distinct().count() == 1,
          "the LayerNorms add different epsilons " + epsilons);
      return epsilons.values().iterator().next();
    }

    /**
     * {@return the heads of layer {@code p}'s attention}: the query reshaped to {@code [batch,
     * length, heads, head size]}, the scores divided by the square root of the head size
     */
    int heads(String p, int hidden) {
      OnnxModel.Node query = node(p + "/attention/self/query/Add", "Add");
      List<OnnxModel.Node> reshapes =
          consumers.getOrDefault(query.outputs().get(0), List.of()).stream()
              .filter(n -> n.opType().equals("Reshape"))
              .toList();
      check(reshapes.size() == 1, "the query of " + p + " is reshaped by " + reshapes);
      long[] shape = constantShape(reshapes.get(0).inputs().get(1));
      check(
          shape.length == 4 && shape[2] > 0 && shape[3] > 0,
          reshapes.get(0).name() + " reshapes the query to " + Arrays.toString(shape));
      int heads = Math.toIntExact(shape[2]), headSize = Math.toIntExact(shape[3]);
      check(
          heads * headSize == hidden,
          p + " has " + heads + " heads of " + headSize + ", not " + hidden + " wide");
      float divisor = scalar(node(p + "/attention/self/Div", "Div"));
      check(
          Math.abs(divisor - Math.sqrt(headSize)) <= 1e-6 * Math.sqrt(headSize),
          p
              + " divides the attention scores by "
              + divisor
              + ", not by the square root of its head size "
              + headSize);
      return heads;
    }

    /** {@return the values of a shape: a constant, or a Concat of constants and unknowns (-1)} */
    private long[] constantShape(String value) {
      if (onnx.isConstant(value)) {
        return onnx.int64s(value);
      }
      OnnxModel.Node concat = producers.get(value);
      check(
          concat != null && concat.opType().equals("Concat"),
          "the shape " + value + " is neither a constant nor a Concat");
      long[] shape = new long[0];
      for (String part : concat.inputs()) {
        // A part that is not constant is one dimension taken from the input (an Unsqueeze).
        long[] values = onnx.isConstant(part) ? onnx.int64s(part) : new long[] {-1};
        shape =
            java.util.stream.LongStream.concat(Arrays.stream(shape), Arrays.stream(values))
                .toArray();
      }
      return shape;
    }

    /** Checks that {@code scope} is GELU in its erf form, {@code x * (1 + erf(x / sqrt 2)) / 2}. */
    void checkGelu(String scope) {
      List<String> ops =
          onnx.nodes().stream()
              .filter(n -> n.name().startsWith(scope + "/") && !n.opType().equals("Constant"))
              .map(OnnxModel.Node::opType)
              .toList();
      check(
          ops.contains("Erf") && byName.containsKey(scope + "/Div"),
          scope + " computes " + ops + ", not GELU in its erf form, which this encoder computes");
      float divisor = scalar(node(scope + "/Div", "Div"));
      check(
          Math.abs(divisor - Math.sqrt(2)) <= 1e-6,
          scope + " divides by " + divisor + " before erf, not by the square root of 2");
    }

    /**
     * {@return the linear layer of {@code scope}}: the bias of its {@code Add}, and the weight of
     * the {@code MatMul} (or ONNX Runtime's quantized product, dequantized) whose output it adds to
     */
    Linear linear(String scope) {
      OnnxModel.Node add = node(scope + "/Add", "Add");
      String biasName = initializerOf(add);
      String product =
          add.inputs().stream().filter(in -> !in.equals(biasName)).findFirst().orElse("");
      OnnxModel.Node producer = producers.get(product);
      check(producer != null, add.name() + " adds a bias to " + product + ", which no node makes");
      String weightName;
      int[] shape;
      float[] weight;
      if (producer.opType().equals("MatMul")) {
        weightName = initializerOf(producer);
        shape = onnx.shape(weightName);
        check(shape.length == 2, weightName + " has shape " + Arrays.toString(shape));
        weight = take(weightName, shape).data();
      } else {
        // Mul(Cast(MatMulInteger(x, W, x_zp, W_zp)), Mul(x_scale, W_scale))
        check(
            producer.opType().equals("Mul") && producer.inputs().size() == 2,
            add.name() + " adds a bias to " + producer.opType() + " " + producer.name());
        OnnxModel.Node cast = producerOf(producer, "Cast");
        OnnxModel.Node scales = producerOf(producer, "Mul");
        OnnxModel.Node integer = producers.get(cast.inputs().get(0));
        check(
            integer != null && integer.opType().equals("MatMulInteger"),
            cast.name() + " casts " + cast.inputs().get(0) + ", not a MatMulInteger's product");
        List<String> in = integer.inputs();
        weightName = in.get(1);
        check(onnx.isInitializer(weightName), integer.name() + " reads no initializer weight");
        shape = onnx.shape(weightName);
        check(shape.length == 2, weightName + " has shape " + Arrays.toString(shape));
        weight =
            dequantized(weightName, initializerOf(scales), in.size() > 3 ? in.get(3) : null, shape);
      }
      float[] bias = take(biasName, shape[1]).data();
      return new Linear(weightName, biasName, shape[0], shape[1], weight, bias);
    }

    void checkShape(Linear l, int in, int out) {
      check(
          l.in() == in && l.out() == out,
          "the weight "
              + l.weightName()
              + " is ["
              + l.in()
              + ", "
              + l.out()
              + "], expected ["
              + in
              + ", "
              + out
              + "]");
    }

    /**
     * {@return the 8-bit {@code values} as floats, {@code (q - zeroPoint) * scale}}: one scale and
     * zero point for the tensor, or one for each column (the last dimension)
     */
    private float[] dequantized(
        String values, String scale, @Nullable String zeroPoint, int[] shape) {
      OnnxModel.IntTensor q = onnx.integers(values);
      check(
          Arrays.equals(q.shape(), shape),
          values
              + " has shape "
              + Arrays.toString(q.shape())
              + ", expected "
              + Arrays.toString(shape));
      float[] scales = onnx.floats(scale).data();
      int[] zeros = zeroPoint == null ? new int[] {0} : onnx.integers(zeroPoint).data();
      int columns = shape[shape.length - 1];
      for (int length : List.of(scales.length, zeros.length)) {
        check(
            length == 1 || length == columns,
            "the scale "
                + scale
                + " or zero point "
                + zeroPoint
                + " of "
                + values
                + " holds "
                + length
                + " values, neither one nor one per column ("
                + columns
                + ")");
      }
      for (String name : new String[] {values, scale, zeroPoint}) {
        if (name != null) {
          check(used.add(name), "initializer " + name + " is read as two different weights");
        }
      }
      float[] w = new float[q.data().length];
      for (int i = 0; i < w.length; i++) {
        int column = i % columns;
        int zero = zeros[zeros.length == 1 ? 0 : column];
        w[i] = (q.data()[i] - zero) * scales[scales.length == 1 ? 0 : column];
      }
      quantized = true;
      return w;
    }

    private OnnxModel.Node node(String name, String opType) {
      List<OnnxModel.Node> found = byName.getOrDefault(name, List.of());
      check(
          found.size() == 1 && found.get(0).opType().equals(opType),
          "expected one "
              + opType
              + " node named "
              + name
              + " in the graph, found "
              + found.stream().map(OnnxModel.Node::opType).toList());
      return found.get(0);
    }

    /** {@return the one node that reads {@code node}'s output}, checked to be an {@code opType} */
    private OnnxModel.Node onlyConsumer(OnnxModel.Node node, String opType) {
      List<OnnxModel.Node> found = consumers.getOrDefault(node.outputs().get(0), List.of());
      check(
          found.size() == 1 && found.get(0).opType().equals(opType),
          node.name()
              + " is read by "
              + found.stream().map(n -> n.opType() + " " + n.name()).toList()
              + ", not by one "
              + opType);
      return found.get(0);
    }

    /** {@return the node of {@code opType} that makes one of {@code node}'s inputs} */
    private OnnxModel.Node producerOf(OnnxModel.Node node, String opType) {
      List<OnnxModel.Node> found =
          node.inputs().stream()
              .map(producers::get)
              .filter(p -> p != null && p.opType().equals(opType))
              .toList();
      check(found.size() == 1, node.name() + " reads " + found.size() + " " + opType + " outputs");
      return found.get(0);
    }

    private String initializerOf(OnnxModel.Node node) {
      List<String> inits = node.inputs().stream().filter(onnx::isInitializer).toList();
      check(
          inits.size() == 1,
          node.opType() + " " + node.name() + " reads initializers " + inits + ", not one weight");
      return inits.get(0);
    }

    /** {@return the one scalar FLOAT constant {@code node} reads} */
    private float scalar(OnnxModel.Node node) {
      List<String> found = node.inputs().stream().filter(onnx::isConstant).toList();
      check(
          found.size() == 1
              && onnx.dataType(found.get(0)).equals("FLOAT")
              && onnx.floats(found.get(0)).data().length == 1,
          node.opType() + " " + node.name() + " reads constants " + found + ", not one scalar");
      return onnx.floats(found.get(0)).data()[0];
    }

    private OnnxModel.FloatTensor take(String name, int... shape) {
      OnnxModel.FloatTensor t = onnx.floats(name);
      check(
          Arrays.equals(t.shape(), shape),
          "initializer "
              + name
              + " has shape "
              + t.dims()
              + ", expected "
              + Arrays.toString(shape));
      check(used.add(name), "initializer " + name + " is read as two different weights");
      return t;
    }
  }
}
