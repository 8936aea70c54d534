// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 the cuda-graph authors
package consumer.springboot;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertTrue;

import cuda.graph.embeddings.Backend;
import cuda.graph.spring.ai.CudaGraphEmbeddingModel;
import dev.langchain4j.model.embedding.onnx.allminilml6v2.AllMiniLmL6V2EmbeddingModel;
import java.lang.module.ModuleDescriptor;
import java.lang.module.ModuleFinder;
import java.nio.file.Path;
import java.util.List;
import java.util.Locale;
import org.junit.jupiter.api.Test;
import org.springframework.ai.embedding.EmbeddingModel;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.test.context.SpringBootTest;

/**
 * What a Spring Boot application gets from the installed cuda-graph-spring-ai artifact and the one
 * line of application.properties: an EmbeddingModel bean whose embeddings are LangChain4j's own
 * all-MiniLM-L6-v2's, within the fp32 floor. No GPU here: the simulator, asked for.
 */
@SpringBootTest(
    properties = {
      "cuda.graph.embeddings.when-no-gpu=use-simulator",
      "cuda.graph.embeddings.max-batch=4"
    })
class ConsumerApplicationTests {

  private static final List<String> SENTENCES =
      List.of(
          "A man is eating food.",
          "A man is riding a white horse on an enclosed ground.",
          "The new movie is awesome.",
          "Graphs of GPU work are captured once and replayed many times.");

  @Autowired EmbeddingModel model;
  @Autowired ConsumerApplication.NearestSentence nearest;

  @Test
  void theInjectedModelEmbedsAsLangChain4jsOwnModelDoes() {
    assertEquals(
        Backend.SIMULATOR,
        assertInstanceOf(CudaGraphEmbeddingModel.class, model).embedder().backend(),
        "this project has no GPU provider");
    AllMiniLmL6V2EmbeddingModel langChain4j = new AllMiniLmL6V2EmbeddingModel();
    assertEquals(langChain4j.dimension(), model.dimensions());

    List<float[]> ours = model.embed(SENTENCES);

    assertEquals(SENTENCES.size(), ours.size());
    for (int i = 0; i < SENTENCES.size(); i++) {
      float[] a = ours.get(i), b = langChain4j.embed(SENTENCES.get(i)).content().vector();
      double dot = 0, na = 0, nb = 0;
      for (int j = 0; j < a.length; j++) {
        dot += (double) a[j] * b[j];
        na += (double) a[j] * a[j];
        nb += (double) b[j] * b[j];
      }
      double cosine = dot / Math.sqrt(na * nb), normError = Math.abs(Math.sqrt(na) - 1);
      String sentence = SENTENCES.get(i);
      // Written so that a NaN fails: both comparisons are false for NaN.
      assertTrue(
          cosine >= 0.99999 && normError <= 1e-5,
          () ->
              String.format(
                  Locale.ROOT, "cosine %.9f, |1 - norm| %.2e: %s", cosine, normError, sentence));
    }
  }

  @Test
  void theApplicationFindsTheNearestSentence() {
    assertEquals(1, nearest.of("Someone on horseback.", SENTENCES));
  }

  @Test
  void theInstalledJarIsTheAutomaticModuleCudaGraphSpringAi() throws Exception {
    Path jar =
        Path.of(
            CudaGraphEmbeddingModel.class
                .getProtectionDomain()
                .getCodeSource()
                .getLocation()
                .toURI());
    assertTrue(jar.getFileName().toString().endsWith(".jar"), "the installed jar: " + jar);

    ModuleDescriptor module = ModuleFinder.of(jar).findAll().iterator().next().descriptor();

    assertEquals("cuda.graph.spring.ai", module.name());
    assertTrue(module.isAutomatic(), "named in the manifest, no module-info");
  }
}
