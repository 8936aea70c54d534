// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 the cuda-graph authors
package cuda.graph.examples.decode;

import static org.junit.jupiter.api.Assertions.assertDoesNotThrow;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;
import static org.junit.jupiter.api.Assumptions.abort;

import cuda.graph.CudaPlatform;
import cuda.graph.Stream;
import cuda.graph.simulator.Simulator;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.opentest4j.AssertionFailedError;
import org.opentest4j.TestAbortedException;

/**
 * The engine's tiny decode on the simulator, checked by the independent implementation in
 * reference/llama_reference.py (its NumPy path) on the weights file the engine wrote: the same
 * check the H200 run makes with PyTorch. Where python3 with NumPy is missing it is skipped, with
 * the reason, except in CI ({@code CI=true}), where it fails: CI's machines ship NumPy (and .ci/run
 * installs Debian's where its python3 lacks it), so a missing NumPy there is a broken environment,
 * and a skip would pass the build without the independent check.
 */
class IndependentReferenceTests {

  private static final Path SCRIPT =
      Path.of("").toAbsolutePath().resolve("reference/llama_reference.py");

  @Test
  void theNumpyReferenceAgreesWithTheEngineOnTheWeightsItWrote(@TempDir Path dir)
      throws IOException, InterruptedException {
    numpyOrSkip(run(List.of("python3", "-c", "import numpy")).exit() == 0, System.getenv("CI"));
    Path weightsFile = dir.resolve("tiny.safetensors");
    Path dump = dir.resolve("dump");
    int steps = 16;
    try (Weights weights = Weights.generate(LlamaConfig.TINY, 11);
        CudaPlatform platform = CudaPlatform.forDriver(Simulator.create(), "simulator");
        Stream stream = platform.defaultDevice().newStream();
        DecodeEngine engine = new DecodeEngine(weights, stream)) {
      weights.write(weightsFile);
      engine.reset(steps);
      List<float[]> logits = new ArrayList<>();
      for (int s = 0; s < steps; s++) {
        logits.add(engine.step(null).andThen(engine.logits.toFloatArray()).syncOn(stream));
      }
      Decode.dump(dump, LlamaConfig.TINY, engine.tokens(steps), logits);
    }
    Result check =
        run(
            List.of(
                "python3",
                SCRIPT.toString(),
                "check",
                "--weights",
                weightsFile.toString(),
                "--dump",
                dump.toString(),
                "--device",
                "cpu"));
    assertEquals(0, check.exit(), check.output());
    assertTrue(check.output().contains("check: PASS steps=16 tokens_equal=yes"), check.output());
  }

  @Test
  void inCiAMissingNumpyFailsTheCheckInsteadOfSkippingIt() {
    AssertionFailedError e =
        assertThrows(AssertionFailedError.class, () -> numpyOrSkip(false, "true"));
    assertTrue(
        e.getMessage().contains("CI=true") && e.getMessage().contains("NumPy"), e::getMessage);
  }

  @Test
  void outsideCiAMissingNumpySkipsTheCheckWithTheReason() {
    TestAbortedException e =
        assertThrows(TestAbortedException.class, () -> numpyOrSkip(false, null));
    assertTrue(e.getMessage().contains("cannot run"), e::getMessage);
    assertThrows(TestAbortedException.class, () -> numpyOrSkip(false, "false"));
  }

  @Test
  void withNumpyTheCheckRunsInCiAndOutside() {
    assertDoesNotThrow(() -> numpyOrSkip(true, "true"));
    assertDoesNotThrow(() -> numpyOrSkip(true, null));
  }

  /**
   * Returns where NumPy is there; otherwise fails in CI ({@code ci}, the CI variable, is "true")
   * and skips elsewhere, saying why.
   */
  static void numpyOrSkip(boolean numpy, String ci) {
    if (numpy) {
      return;
    }
    String why = "python3 with NumPy is not installed here: the independent check cannot run";
    if ("true".equalsIgnoreCase(ci)) {
      fail(
          why
              + " (CI=true: in CI it must run; give the python3 on PATH NumPy, e.g. Debian's"
              + " python3-numpy, as .ci/run does)");
    }
    abort(why);
  }

  private record Result(int exit, String output) {}

  private static Result run(List<String> command) throws IOException, InterruptedException {
    Process p;
    try {
      p = new ProcessBuilder(command).redirectErrorStream(true).start();
    } catch (IOException e) {
      return new Result(-1, e.getMessage());
    }
    String output = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
    assertTrue(p.waitFor(120, TimeUnit.SECONDS), "python3 did not finish in 120 s");
    return new Result(p.exitValue(), output);
  }
}
