// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 the cuda-graph authors
package cuda.graph.examples.decode;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

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

/**
 * The engine's tiny decode on the simulator, checked by the independent implementation in
 * reference/llama_reference.py (its NumPy path) on the weights file the engine wrote: the same
 * check the H200 run makes with PyTorch. Skipped, with the reason, where python3 with NumPy is
 * missing.
 */
class IndependentReferenceTests {

  private static final Path SCRIPT =
      Path.of("").toAbsolutePath().resolve("reference/llama_reference.py");

  @Test
  void theNumpyReferenceAgreesWithTheEngineOnTheWeightsItWrote(@TempDir Path dir)
      throws IOException, InterruptedException {
    assumeTrue(
        run(List.of("python3", "-c", "import numpy")).exit() == 0,
        "python3 with NumPy is not installed here: the independent check cannot run");
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
