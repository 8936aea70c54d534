// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 the cuda-graph authors
package cuda.graph.llm;

import cuda.graph.CudaPlatform;
import cuda.graph.llm.internal.checkpoint.TinyCheckpoints;
import cuda.graph.simulator.Simulator;
import java.nio.file.Path;

/**
 * The public engine's tests' fixture: a tiny fp32 checkpoint written to a directory, a simulator,
 * and an {@link LlmEngine} over both of 4 sequences and 64 KV blocks; closing it closes the engine,
 * then the simulator.
 *
 * @param model the checkpoint's directory
 * @param simulator the platform the engine runs on (tests build more engines on it)
 * @param engine the engine
 */
record TinyEngine(Path model, CudaPlatform simulator, LlmEngine engine) implements AutoCloseable {

  /**
   * {@return the fixture}: the checkpoint of {@code seed} written under {@code dir}, its engine
   * stepping at most {@code maxTokensPerStep} tokens
   */
  static TinyEngine open(Path dir, long seed, int maxTokensPerStep) {
    Path model = TinyCheckpoints.write(dir.resolve("tiny"), TinyCheckpoints.Spec.tiny(seed));
    CudaPlatform simulator = CudaPlatform.forDriver(Simulator.builder().build(), "simulator");
    LlmEngine engine =
        LlmEngine.builder(model)
            .device(simulator.defaultDevice())
            .maxSequences(4)
            .maxTokensPerStep(maxTokensPerStep)
            .kvCacheBlocks(64)
            .build();
    return new TinyEngine(model, simulator, engine);
  }

  @Override
  public void close() {
    engine.close();
    simulator.close();
  }
}
