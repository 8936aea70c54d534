// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 the cuda-graph authors
package cuda.graph.spring.ai.application;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;

import cuda.graph.embeddings.Backend;
import cuda.graph.spring.ai.CudaGraphEmbeddingModel;
import cuda.graph.spring.ai.MiniLmAnchor;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.springframework.ai.embedding.EmbeddingModel;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.test.context.SpringBootTest;

/**
 * The application started by Spring Boot from src/test/resources/application.properties, its
 * embeddings held to LangChain4j's own all-MiniLM-L6-v2 (on the simulator: a few short texts).
 */
@SpringBootTest
class EmbeddingApplicationTests {

  @Autowired EmbeddingModel model;
  @Autowired EmbeddingApplication.Search search;

  @Test
  void theInjectedModelEmbedsAsLangChain4jDoes() {
    List<String> texts = List.of("A man is eating food.", "A man is riding a horse.");

    List<float[]> vectors = model.embed(texts);

    assertEquals(2, vectors.size());
    for (int i = 0; i < texts.size(); i++) {
      MiniLmAnchor.assertEmbeds(vectors.get(i), texts.get(i));
    }
    String one = "Someone plays the violin.";
    MiniLmAnchor.assertEmbeds(model.embed(one), one);
    assertEquals(
        Backend.SIMULATOR,
        assertInstanceOf(CudaGraphEmbeddingModel.class, model).embedder().backend());
  }

  @Test
  void theApplicationsSearchFindsTheNearestSentence() {
    assertEquals(
        1,
        search.nearest(
            "Who is on horseback?", List.of("A man is eating food.", "A man is riding a horse.")));
  }
}
