package cuda.graph.examples.embed;

import cuda.graph.CudaPlatform;
import cuda.graph.Stream;
import dev.langchain4j.model.embedding.onnx.allminilml6v2.AllMiniLmL6V2EmbeddingModel;
import java.io.PrintStream;
import java.util.List;

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

  private EmbedDemo() {}

  public static void main(String[] args) {
    CudaPlatform platform = CudaPlatform.system();
    System.exit(run(platform, System.out) >= 0.99999 ? 0 : 1);
  }

  /**
   * Prints the table and the check. {@return the smallest cosine between an embedding and the
   * reference's}
   */
  static double run(CudaPlatform platform, PrintStream out) {
    MiniLmArtifact artifact = MiniLmArtifact.locate();
    MiniLmWeights weights = MiniLmWeights.from(OnnxWeights.parse(artifact.readModel()));
    MiniLmTokenizer tokenizer = MiniLmTokenizer.load(artifact);
    ReferenceEncoder reference = new ReferenceEncoder(weights);
    float[][] embeddings;
    try (Stream stream = platform.defaultDevice().newStream();
        GpuEncoder encoder = new GpuEncoder(weights, tokenizer, stream, SENTENCES.size(), 128)) {
      embeddings = encoder.embed(SENTENCES);
    }
    out.printf(
        "all-MiniLM-L6-v2 on %s (%s), %d sentences in one graph%n",
        platform.defaultDevice().name(), platform.providerId(), SENTENCES.size());
    out.printf("%nsimilarity to \"%s\"%n", SENTENCES.getFirst());
    for (int i = 1; i < SENTENCES.size(); i++) {
      out.printf("  %6.3f  %s%n", cosine(embeddings[0], embeddings[i]), SENTENCES.get(i));
    }
    double worst = 1;
    for (int i = 0; i < SENTENCES.size(); i++) {
      worst =
          Math.min(
              worst, cosine(embeddings[i], reference.embed(tokenizer.parts(SENTENCES.get(i)))));
    }
    out.printf(
        "%ncosine to the plain-Java reference, worst of %d: %.9f (%s 0.99999)%n",
        SENTENCES.size(), worst, worst >= 0.99999 ? "at least" : "BELOW");
    return Math.min(worst, againstLangChain4j(embeddings, out));
  }

  /**
   * Prints the worst cosine to LangChain4j's {@code AllMiniLmL6V2EmbeddingModel} (ONNX Runtime on
   * the CPU) where it runs. {@return that cosine, or 1 where LangChain4j cannot run (a host that
   * carries no ONNX Runtime): the reference, checked against it in every build, stands in}
   */
  private static double againstLangChain4j(float[][] embeddings, PrintStream out) {
    try {
      var model = new AllMiniLmL6V2EmbeddingModel();
      double worst = 1;
      for (int i = 0; i < SENTENCES.size(); i++) {
        worst =
            Math.min(
                worst, cosine(embeddings[i], model.embed(SENTENCES.get(i)).content().vector()));
      }
      out.printf(
          "cosine to LangChain4j's AllMiniLmL6V2EmbeddingModel (ONNX Runtime, CPU), worst of %d:"
              + " %.9f (%s 0.99999)%n",
          SENTENCES.size(), worst, worst >= 0.99999 ? "at least" : "BELOW");
      return worst;
    } catch (LinkageError e) {
      out.println(
          "LangChain4j cannot run here ("
              + e
              + "): the reference, checked against it in every build, stands in");
      return 1;
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
