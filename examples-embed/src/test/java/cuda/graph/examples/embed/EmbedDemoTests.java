// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 the cuda-graph authors
package cuda.graph.examples.embed;

import static org.junit.jupiter.api.Assertions.assertTrue;

import cuda.graph.CudaPlatform;
import cuda.graph.simulator.Simulator;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import org.junit.jupiter.api.Test;

/**
 * The demo on the simulator: the sentence about eating bread comes out closest to "A man is eating
 * food.", before the three others, and every embedding is within cosine 0.99999 of LangChain4j's
 * (0.9995 in fp16).
 */
class EmbedDemoTests {

  @Test
  void theDemoRanksTheSentencesAsAPersonWouldAndMatchesTheReference() {
    ByteArrayOutputStream bytes = new ByteArrayOutputStream();
    boolean held;
    try (CudaPlatform platform = CudaPlatform.forDriver(Simulator.builder().build(), "simulator");
        PrintStream out = new PrintStream(bytes, true, StandardCharsets.UTF_8)) {
      held = EmbedDemo.run(platform, out);
    }
    String printed = bytes.toString(StandardCharsets.UTF_8);
    assertTrue(held, printed);
    String[] lines = printed.lines().filter(l -> l.startsWith("  ")).toArray(String[]::new);
    double bread = Double.parseDouble(lines[0].trim().split(" ")[0]);
    for (int i = 1; i < lines.length; i++) {
      assertTrue(bread > Double.parseDouble(lines[i].trim().split(" ")[0]), printed);
    }
    assertTrue(printed.contains("LangChain4j's AllMiniLmL6V2EmbeddingModel"), printed);
    assertTrue(printed.contains("the same in the fp16 mode: "), printed);
    assertTrue(printed.contains("timings: none on the simulator"), printed);
    assertTrue(!printed.contains("BELOW"), printed);
    assertTrue(!printed.contains("OUTSIDE"), printed);
    assertTrue(printed.contains("|1 - norm| at most "), printed);
  }
}
