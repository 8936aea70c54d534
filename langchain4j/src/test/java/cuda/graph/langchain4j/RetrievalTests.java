// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 the cuda-graph authors
package cuda.graph.langchain4j;

import static cuda.graph.langchain4j.Anchor.MINILM;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import cuda.graph.CudaPlatform;
import cuda.graph.simulator.Simulator;
import dev.langchain4j.data.document.Document;
import dev.langchain4j.data.segment.TextSegment;
import dev.langchain4j.model.embedding.EmbeddingModel;
import dev.langchain4j.rag.content.ContentMetadata;
import dev.langchain4j.rag.content.retriever.ContentRetriever;
import dev.langchain4j.rag.content.retriever.EmbeddingStoreContentRetriever;
import dev.langchain4j.rag.query.Query;
import dev.langchain4j.store.embedding.EmbeddingSearchRequest;
import dev.langchain4j.store.embedding.EmbeddingStore;
import dev.langchain4j.store.embedding.EmbeddingStoreIngestor;
import dev.langchain4j.store.embedding.inmemory.InMemoryEmbeddingStore;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * A real LangChain4j retrieval flow, written as a LangChain4j application writes it: documents
 * ingested into an in-memory store by an {@link EmbeddingStoreIngestor}, then queries answered by
 * an {@link EmbeddingStoreContentRetriever}. Run once with this module's model on the simulator and
 * once with LangChain4j's own all-MiniLM-L6-v2, the two flows must return the same three segments
 * in the same order for every query.
 */
class RetrievalTests {

  /** Ten topics, three short documents each. */
  static final List<String> CORPUS =
      List.of(
          "The cat curled up on the warm windowsill and slept all afternoon.",
          "Kittens need several small meals a day and a quiet place to sleep.",
          "My neighbour's tabby cat hunts mice in the garden at night.",
          "The recipe calls for two cups of flour, three eggs and a pinch of salt.",
          "Knead the bread dough for ten minutes, then let it rise for an hour.",
          "Bake the cake at 180 degrees until a skewer comes out clean.",
          "The striker scored twice in the second half to win the match.",
          "The goalkeeper saved a penalty in the final minute of the game.",
          "The football season starts in August and ends in May.",
          "The central bank raised interest rates by a quarter of a percent.",
          "Inflation slowed last month as energy prices fell.",
          "Shares of the company dropped after its quarterly earnings report.",
          "The telescope captured images of a galaxy billions of light years away.",
          "Astronauts on the space station grow lettuce in microgravity.",
          "A comet passes close to the sun every seventy-six years.",
          "Regular exercise lowers blood pressure and improves sleep.",
          "The doctor prescribed antibiotics for the throat infection.",
          "Drinking enough water helps the kidneys work properly.",
          "The train to Lyon leaves the station at seven in the morning.",
          "We booked a small hotel near the beach for our summer holiday.",
          "The flight was delayed by three hours because of the storm.",
          "The compiler turns source code into machine instructions.",
          "A graphics card runs thousands of threads in parallel.",
          "The database index makes the query a hundred times faster.",
          "Heavy rain and strong winds are expected along the coast tomorrow.",
          "The temperature dropped below freezing and the lake froze over.",
          "A heatwave pushed temperatures past forty degrees in the south.",
          "The orchestra played Beethoven's ninth symphony to a full hall.",
          "She practises the piano for two hours every evening.",
          "The band released its first album after ten years of touring.");

  static final List<String> QUERIES =
      List.of(
          "Where do cats like to sleep?",
          "How do I bake bread at home?",
          "Who won the football game?",
          "What is happening with interest rates and prices?",
          "What can telescopes see in space?",
          "How can I stay healthy?",
          "When does my train leave?",
          "How do GPUs and compilers work?",
          "What will the weather be like?",
          "Tell me about classical music concerts.",
          "Which animal hunts mice?",
          "Why was the plane late?");

  @Test
  void theIngestorAndRetrieverFindTheSameTopThreeSegmentsAsWithLangChain4jsOwnModel() {
    Map<String, List<Hit>> anchor = retrieve(Anchor.MODEL);
    Map<String, List<Hit>> ours;
    try (CudaPlatform simulator = CudaPlatform.forDriver(Simulator.create(), "simulator");
        CudaGraphEmbeddingModel model =
            CudaGraphEmbeddingModel.builder()
                .modelArtifact(MINILM)
                .maxBatch(16)
                .platform(simulator)
                .build()) {
      ours = retrieve(model);
    }

    assertSameTopThree(anchor, ours);
  }

  /**
   * Fails unless every query's top three are the same segments in the same order in both flows,
   * with scores this close: far inside the anchor's gaps (checked below), so that the order is the
   * models' agreement, not luck. A NaN score fails it.
   */
  static void assertSameTopThree(Map<String, List<Hit>> anchor, Map<String, List<Hit>> ours) {
    double worst = 0;
    for (String query : QUERIES) {
      List<Hit> expected = anchor.get(query), found = ours.get(query);
      assertEquals(3, expected.size(), query);
      assertEquals(
          expected.stream().map(Hit::text).toList(),
          found.stream().map(Hit::text).toList(),
          () -> "the top three for: " + query);
      for (int i = 0; i < 3; i++) {
        double difference = Math.abs(expected.get(i).score() - found.get(i).score());
        worst = difference > worst || Double.isNaN(difference) ? difference : worst;
      }
    }
    double worstScoreDifference = worst;
    assertTrue(
        worstScoreDifference <= MIN_GAP / 10,
        () -> "the two flows' scores differ by up to " + worstScoreDifference);
  }

  /**
   * The check above is only as strong as its corpus: were two of LangChain4j's scores closer than
   * what the floor lets our embeddings differ by, the same order would be luck. Each query's first
   * four scores are at least {@link #MIN_GAP} apart, ten times the most the two flows' scores may
   * differ by ({@link #assertSameTopThree}).
   */
  @Test
  void theAnchorsTopFourScoresAreFarEnoughApartThatTheOrderIsNoCoinToss() {
    EmbeddingStore<TextSegment> store = ingest(Anchor.MODEL);
    List<String> close = new ArrayList<>();
    double smallest = Double.MAX_VALUE;
    for (String query : QUERIES) {
      var matches =
          store
              .search(
                  EmbeddingSearchRequest.builder()
                      .queryEmbedding(Anchor.MODEL.embed(query).content())
                      .maxResults(4)
                      .build())
              .matches();
      for (int i = 0; i + 1 < matches.size(); i++) {
        double gap = matches.get(i).score() - matches.get(i + 1).score();
        smallest = Math.min(smallest, gap);
        if (!(gap >= MIN_GAP)) {
          close.add(
              String.format(Locale.ROOT, "%s: ranks %d and %d %.2e", query, i + 1, i + 2, gap));
        }
      }
    }
    assertEquals(List.of(), close, "scores too close to rank reliably; smallest gap " + smallest);
  }

  /** The least gap between consecutive scores of the anchor's top four, for every query. */
  private static final double MIN_GAP = 1e-3;

  /** A retrieved segment's text and its score. */
  record Hit(String text, double score) {}

  /** {@return each query's top three segments}, through LangChain4j's own classes */
  static Map<String, List<Hit>> retrieve(EmbeddingModel model) {
    EmbeddingStore<TextSegment> store = ingest(model);
    ContentRetriever retriever =
        EmbeddingStoreContentRetriever.builder()
            .embeddingStore(store)
            .embeddingModel(model)
            .maxResults(3)
            .build();
    Map<String, List<Hit>> found = new LinkedHashMap<>();
    for (String query : QUERIES) {
      found.put(
          query,
          retriever.retrieve(Query.from(query)).stream()
              .map(
                  c ->
                      new Hit(
                          c.textSegment().text(),
                          ((Number) c.metadata().get(ContentMetadata.SCORE)).doubleValue()))
              .toList());
    }
    return found;
  }

  private static EmbeddingStore<TextSegment> ingest(EmbeddingModel model) {
    InMemoryEmbeddingStore<TextSegment> store = new InMemoryEmbeddingStore<>();
    EmbeddingStoreIngestor.builder()
        .embeddingModel(model)
        .embeddingStore(store)
        .build()
        .ingest(CORPUS.stream().map(Document::from).toList());
    return store;
  }
}
