// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 the cuda-graph authors
package cuda.graph.embeddings.internal.gpu;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.Test;

/**
 * The PyTorch anchor (reference/minilm_torch.py, run on the GPU host by examples-embed's bench.sh)
 * is held here to what runs without a GPU: its plan (reference/anchor_plan.py: EmbedBench's
 * queries, GpuEncoder's length buckets, the pipeline's sorted batches, the histogram, EmbedBench's
 * percentiles) and its imports as bench.sh runs it (the script moved here without the
 * floor_check.py it imports, and nothing noticed until the GPU host). The unit tests need the
 * standard library only; where python3 is missing they are skipped with the reason, and in CI
 * ({@code CI=true}) they fail.
 */
class TorchAnchorScriptTests {

  private static final Path REFERENCE = Path.of("").toAbsolutePath().resolve("reference");

  @Test
  void theAnchorsPlanMatchesEmbedBenchAndTheScriptFindsItsImports()
      throws IOException, InterruptedException {
    Process p;
    try {
      // -B: no __pycache__ in the source tree.
      p =
          new ProcessBuilder(List.of("python3", "-B", "-m", "unittest", "-v", "test_anchor_plan"))
              .directory(REFERENCE.toFile())
              .redirectErrorStream(true)
              .start();
    } catch (IOException e) {
      String why =
          "python3 cannot run here (" + e.getMessage() + "): the anchor's plan is untested";
      if ("true".equals(System.getenv("CI"))) {
        throw new AssertionError(why + " (CI=true: give CI a python3)", e);
      }
      Assumptions.abort(why);
      return;
    }
    String output = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
    assertTrue(p.waitFor(60, TimeUnit.SECONDS), "python3 did not finish in 60 s");
    assertEquals(0, p.exitValue(), output);
    assertTrue(output.contains("test_minilm_torch_finds_floor_check_and_anchor_plan"), output);
    assertTrue(output.contains("\nOK"), output);
  }
}
