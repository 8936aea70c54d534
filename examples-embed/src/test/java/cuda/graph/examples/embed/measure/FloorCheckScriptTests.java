// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 the cuda-graph authors
package cuda.graph.examples.embed.measure;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

/**
 * The PyTorch check's floor (reference/floor_check.py, used by minilm_torch.py on the GPU host) is
 * held here to what FloorCheckTests holds FloorCheck.java to: its unit tests, which feed NaN
 * cosines and norms and see the check fail. They need the standard library only; where python3 is
 * missing they are skipped with the reason, and in CI ({@code CI=true}) they fail.
 */
class FloorCheckScriptTests {

  private static final Path REFERENCE = Path.of("").toAbsolutePath().resolve("reference");

  @Test
  void thePythonChecksUnitTestsPassTheirNanCasesIncluded()
      throws IOException, InterruptedException {
    Process p;
    try {
      // -B: no __pycache__ in the source tree.
      p =
          new ProcessBuilder(List.of("python3", "-B", "-m", "unittest", "-v", "test_floor_check"))
              .directory(REFERENCE.toFile())
              .redirectErrorStream(true)
              .start();
    } catch (IOException e) {
      String why = "python3 cannot run here (" + e.getMessage() + "): the check is untested";
      // In CI the check must run, as the decode example's NumPy check must: a skip would hide it.
      if ("true".equals(System.getenv("CI"))) {
        throw new AssertionError(why + " (CI=true: give CI a python3)", e);
      }
      org.junit.jupiter.api.Assumptions.abort(why);
      return;
    }
    String output = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
    assertTrue(p.waitFor(60, TimeUnit.SECONDS), "python3 did not finish in 60 s");
    assertEquals(0, p.exitValue(), output);
    assertTrue(output.contains("test_a_nan_cosine_fails"), output);
    assertTrue(output.contains("\nOK"), output);
  }
}
