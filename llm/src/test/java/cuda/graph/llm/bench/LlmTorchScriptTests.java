// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 the cuda-graph authors
package cuda.graph.llm.bench;

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
 * LlmBench's transformers anchor (reference/llm_torch.py, run by the lead on the GPU host, where
 * PyTorch is) is held here to what runs without PyTorch: its pure parts (the bytes a step reads,
 * the prompts, a round's figures, the line in LlmBench's keys, the per-configuration limit) and
 * that the script compiles. Where python3 is missing the test is skipped with the reason, and in CI
 * ({@code CI=true}) it fails.
 */
class LlmTorchScriptTests {

  private static final Path REFERENCE = Path.of("").toAbsolutePath().resolve("reference");

  @Test
  void theAnchorsPurePartsPassTheirTestsAndTheScriptCompiles()
      throws IOException, InterruptedException {
    Process p;
    try {
      // -B: no __pycache__ in the source tree.
      p =
          new ProcessBuilder(List.of("python3", "-B", "-m", "unittest", "-v", "test_llm_torch"))
              .directory(REFERENCE.toFile())
              .redirectErrorStream(true)
              .start();
    } catch (IOException e) {
      String why = "python3 cannot run here (" + e.getMessage() + "): llm_torch.py is untested";
      if ("true".equals(System.getenv("CI"))) {
        throw new AssertionError(why + " (CI=true: give CI a python3)", e);
      }
      Assumptions.abort(why);
      return;
    }
    String output = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
    assertTrue(p.waitFor(60, TimeUnit.SECONDS), "python3 did not finish in 60 s");
    assertEquals(0, p.exitValue(), output);
    assertTrue(output.contains("test_llm_torch_compiles"), output);
    assertTrue(output.contains("\nOK"), output);
  }
}
