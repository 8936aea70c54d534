// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 the cuda-graph authors
package cuda.graph.llm;

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
 * The transformers anchor (reference/make_checkpoint.py, run by the lead on the GPU host, where
 * PyTorch is) is held here to what runs without PyTorch: its plan (reference/checkpoint_plan.py:
 * the configs, the prompts, left padding, the top-two gap) and that the script compiles. The tests
 * need the standard library only; where python3 is missing they are skipped with the reason, and in
 * CI ({@code CI=true}) they fail.
 */
class MakeCheckpointScriptTests {

  private static final Path REFERENCE = Path.of("").toAbsolutePath().resolve("reference");

  @Test
  void theCheckpointPlanPassesItsTestsAndTheScriptCompiles()
      throws IOException, InterruptedException {
    Process p;
    try {
      // -B: no __pycache__ in the source tree.
      p =
          new ProcessBuilder(
                  List.of("python3", "-B", "-m", "unittest", "-v", "test_checkpoint_plan"))
              .directory(REFERENCE.toFile())
              .redirectErrorStream(true)
              .start();
    } catch (IOException e) {
      String why = "python3 cannot run here (" + e.getMessage() + "): the plan is untested";
      if ("true".equals(System.getenv("CI"))) {
        throw new AssertionError(why + " (CI=true: give CI a python3)", e);
      }
      Assumptions.abort(why);
      return;
    }
    String output = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
    assertTrue(p.waitFor(60, TimeUnit.SECONDS), "python3 did not finish in 60 s");
    assertEquals(0, p.exitValue(), output);
    assertTrue(output.contains("test_make_checkpoint_compiles"), output);
    assertTrue(output.contains("\nOK"), output);
  }
}
