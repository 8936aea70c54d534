// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 the cuda-graph authors
package cuda.graph.llm.internal.serving;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import cuda.graph.CudaPlatform;
import cuda.graph.llm.internal.checkpoint.Checkpoint;
import cuda.graph.llm.internal.checkpoint.TinyCheckpoints;
import cuda.graph.llm.internal.engine.BatchStep;
import cuda.graph.llm.internal.engine.ModelWeights;
import cuda.graph.simulator.Simulator;
import cuda.graph.spi.HandleKind;
import cuda.graph.testkit.InstrumentedDriver;
import java.nio.file.Path;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The engine's steps, counted by the test kit's ledger: closing them gives back the stream and all
 * the step made, so that an engine (or a benchmark) can be opened and closed again on one device.
 */
class StreamStepsTests {

  @Test
  void closingTheStepsLeavesNoHandleOfTheirsBehind(@TempDir Path tmp) {
    Path model = TinyCheckpoints.write(tmp.resolve("m"), TinyCheckpoints.Spec.tiny(72));
    BatchStep.Limits limits = new BatchStep.Limits(16, 4, 64, 16);
    InstrumentedDriver driver = new InstrumentedDriver(Simulator.create());
    try (Checkpoint checkpoint = Checkpoint.open(model);
        CudaPlatform platform = CudaPlatform.forDriver(driver, "simulator")) {
      ModelWeights weights = ModelWeights.of(checkpoint);
      // Open and close one first: what the platform keeps once the kernels ran (their modules,
      // loaded once per device) is not the steps'.
      StreamSteps.open(platform.defaultDevice(), weights, limits, 0).close();
      Map<HandleKind, Long> before = driver.ledger().liveCounts();
      StreamSteps steps = StreamSteps.open(platform.defaultDevice(), weights, limits, 0);
      assertTrue(
          driver.ledger().live(HandleKind.STREAM) > before.getOrDefault(HandleKind.STREAM, 0L),
          "the steps run on a stream of their own");
      steps.close();
      assertEquals(before, driver.ledger().liveCounts(), driver.ledger().describeLive()::toString);
    }
    assertTrue(driver.violations().isEmpty(), () -> driver.violations().toString());
  }
}
