// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 the cuda-graph authors
package cuda.graph.examples.embed;

import ai.djl.huggingface.tokenizers.HuggingFaceTokenizer;
import dev.langchain4j.model.embedding.onnx.allminilml6v2.AllMiniLmL6V2EmbeddingModel;
import java.lang.reflect.Field;
import java.lang.reflect.Method;
import java.util.List;

/**
 * What the tests share, each made once per test JVM on first use: the artifact, its weights, the
 * tokenizer and reference encoder, and LangChain4j's model (the anchor) with its tokenizer.
 */
final class MiniLm {

  private MiniLm() {}

  static final class Ours {
    static final MiniLmArtifact ARTIFACT = MiniLmArtifact.locate();
    static final OnnxWeights ONNX = OnnxWeights.parse(ARTIFACT.readModel());
    static final MiniLmWeights WEIGHTS = MiniLmWeights.from(ONNX);
    static final MiniLmTokenizer TOKENIZER = MiniLmTokenizer.load(ARTIFACT);
    static final ReferenceEncoder ENCODER = new ReferenceEncoder(WEIGHTS);

    private Ours() {}
  }

  /** LangChain4j's AllMiniLmL6V2EmbeddingModel, and the parts of it the tests compare with. */
  static final class Anchor {
    static final AllMiniLmL6V2EmbeddingModel MODEL = new AllMiniLmL6V2EmbeddingModel();

    private Anchor() {}

    static float[] embed(String text) {
      return MODEL.embed(text).content().vector();
    }

    /** The HuggingFaceTokenizer the model tokenizes with (its encoder's private field). */
    static HuggingFaceTokenizer tokenizer() {
      try {
        Object encoder = encoder();
        Field field = encoder.getClass().getDeclaredField("tokenizer");
        field.setAccessible(true);
        return (HuggingFaceTokenizer) field.get(encoder);
      } catch (ReflectiveOperationException e) {
        throw new AssertionError("LangChain4j's encoder has no tokenizer field as expected", e);
      }
    }

    /** LangChain4j's split of a token list into runs (a package-private static method). */
    @SuppressWarnings("unchecked")
    static List<List<String>> partition(List<String> tokens, int size) {
      try {
        Method method = encoder().getClass().getDeclaredMethod("partition", List.class, int.class);
        method.setAccessible(true);
        return (List<List<String>>) method.invoke(null, tokens, size);
      } catch (ReflectiveOperationException e) {
        throw new AssertionError("LangChain4j's encoder has no partition method as expected", e);
      }
    }

    private static Object encoder() throws ReflectiveOperationException {
      Method model = AllMiniLmL6V2EmbeddingModel.class.getDeclaredMethod("model");
      model.setAccessible(true);
      return model.invoke(MODEL);
    }
  }

  static double cosine(float[] a, float[] b) {
    return EmbedDemo.cosine(a, b);
  }

  /**
   * Fails unless {@code embedding} has cosine at least {@code floor} to {@code anchor} and a norm
   * of 1 within {@link FloorCheck#NORM_TOLERANCE}: the check of every end-to-end test, NaN-proof as
   * {@link FloorCheck} is (a cosine alone passes embeddings all scaled by 0.5).
   *
   * @param what the embedding in the failure's message: its text and the anchor's name
   */
  static void assertEmbedding(float[] embedding, float[] anchor, double floor, String what) {
    org.junit.jupiter.api.Assertions.assertEquals(
        HIDDEN, embedding.length, () -> "the length of " + what);
    FloorCheck check = FloorCheck.of(new float[][] {embedding}, new float[][] {anchor}, floor);
    org.junit.jupiter.api.Assertions.assertTrue(
        check.passed(), () -> EmbedDemo.judged(check) + " for " + what);
  }

  private static final int HIDDEN = MiniLmWeights.HIDDEN;

  /** A text of 882 tokens untruncated, well past the model's 512 positions. */
  static final String LONG_TEXT =
      ("Graphs of GPU work are captured once and replayed many times; each replay launches the"
              + " whole sequence of kernels with a single call, which removes most of the CPU"
              + " overhead of launching small kernels one by one. ")
          .repeat(20);
}
