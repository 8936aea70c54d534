// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 the cuda-graph authors
package consumer.springboot;

import java.util.List;
import org.springframework.ai.embedding.EmbeddingModel;
import org.springframework.boot.SpringApplication;
import org.springframework.boot.autoconfigure.SpringBootApplication;
import org.springframework.stereotype.Service;

/** A Spring Boot application with nothing of cuda-graph in its code: Spring AI's interface only. */
@SpringBootApplication
public class ConsumerApplication {

  public static void main(String[] args) {
    SpringApplication.run(ConsumerApplication.class, args);
  }

  /** The application's use of the model: which of a few sentences is nearest a query. */
  @Service
  public static class NearestSentence {
    private final EmbeddingModel model;

    public NearestSentence(EmbeddingModel model) {
      this.model = model;
    }

    /** {@return the index of the sentence whose embedding is nearest that of {@code query}} */
    public int of(String query, List<String> sentences) {
      float[] q = model.embed(query);
      List<float[]> all = model.embed(sentences);
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
