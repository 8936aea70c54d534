// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 the cuda-graph authors
package cuda.graph.spring.ai.application;

import org.springframework.ai.embedding.EmbeddingModel;
import org.springframework.boot.SpringApplication;
import org.springframework.boot.autoconfigure.SpringBootApplication;
import org.springframework.stereotype.Service;

/**
 * A Spring Boot application as a user writes one: nothing of cuda-graph in its code, the model
 * chosen in application.properties, an {@link EmbeddingModel} injected where it is needed.
 */
@SpringBootApplication
public class EmbeddingApplication {

  /** Runs the application. */
  public static void main(String[] args) {
    SpringApplication.run(EmbeddingApplication.class, args);
  }

  /** The application's use of the model: a search over a few sentences. */
  @Service
  public static class Search {
    private final EmbeddingModel model;

    /** Made by Spring, with the application's embedding model. */
    public Search(EmbeddingModel model) {
      this.model = model;
    }

    /** {@return the index of the sentence nearest {@code query}} */
    public int nearest(String query, java.util.List<String> sentences) {
      float[] q = model.embed(query);
      java.util.List<float[]> all = model.embed(sentences);
      int best = -1;
      double bestScore = Double.NEGATIVE_INFINITY;
      for (int i = 0; i < all.size(); i++) {
        double score = 0;
        for (int j = 0; j < q.length; j++) {
          score += q[j] * all.get(i)[j];
        }
        if (score > bestScore) {
          bestScore = score;
          best = i;
        }
      }
      return best;
    }
  }
}
