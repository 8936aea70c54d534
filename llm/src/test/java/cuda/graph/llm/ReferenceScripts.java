// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 the cuda-graph authors
package cuda.graph.llm;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Assumptions;

/**
 * Runs a unit-test module of the llm module's reference/ Python scripts (the transformers anchors,
 * run by the lead on the GPU host, where PyTorch is) from JUnit, so that what runs without PyTorch
 * is held to its tests in every build. Where python3 cannot start the calling test is skipped with
 * the reason; in CI ({@code CI=true}) it fails instead, since a skip there would hide the scripts'
 * tests.
 */
public final class ReferenceScripts {

  private static final Path REFERENCE = Path.of("").toAbsolutePath().resolve("reference");

  private ReferenceScripts() {}

  /**
   * Runs {@code python3 -B -m unittest -v module} in reference/ and asserts that it passed.
   *
   * @param module the unit-test module, e.g. {@code test_llm_torch}
   * @param untested what goes untested when python3 is missing, for the skip's reason
   * @return the run's output (stdout and stderr), for the caller's further checks
   */
  public static String unitTests(String module, String untested) {
    return unitTests("python3", module, untested, "true".equals(System.getenv("CI")));
  }

  /** As {@link #unitTests(String, String)}, with the interpreter and CI's flag given. */
  static String unitTests(String python, String module, String untested, boolean ci) {
    Process p;
    try {
      // -B: no __pycache__ in the source tree.
      p =
          new ProcessBuilder(List.of(python, "-B", "-m", "unittest", "-v", module))
              .directory(REFERENCE.toFile())
              .redirectErrorStream(true)
              .start();
    } catch (IOException e) {
      String why = python + " cannot run here (" + e.getMessage() + "): " + untested;
      if (ci) {
        throw new AssertionError(why + " (CI=true: give CI a python3)", e);
      }
      Assumptions.abort(why);
      throw new AssertionError("unreachable: Assumptions.abort returned", e);
    }
    try {
      String output = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
      assertTrue(p.waitFor(60, TimeUnit.SECONDS), python + " did not finish in 60 s");
      assertEquals(0, p.exitValue(), output);
      assertTrue(output.contains("\nOK"), output);
      return output;
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new AssertionError("interrupted while " + module + " ran", e);
    }
  }
}
