// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 the cuda-graph authors
package cuda.graph.llm;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import cuda.graph.CudaPlatform;
import cuda.graph.llm.internal.checkpoint.TinyCheckpoints;
import cuda.graph.simulator.Simulator;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The examples in the public types' Javadoc, compiled and run here (on the simulator). */
class JavadocSnippetsTests {

  @TempDir Path tmp;

  @Test
  void theEngineExampleAnswersAChatAndStreamsItsText() {
    Path modelDirectory = TinyCheckpoints.write(tmp.resolve("m"), TinyCheckpoints.Spec.tiny(1));
    try (CudaPlatform simulator =
        CudaPlatform.forDriver(Simulator.builder().build(), "simulator")) {
      // @start region=engine
      try (LlmEngine engine =
          LlmEngine.builder(modelDirectory)
              // @replace substring="simulator" replacement="platform"
              .device(simulator.defaultDevice()) // by default the system platform's
              .maxSequences(8)
              .kvCacheBlocks(256)
              .build()) {
        StringBuilder streamed = new StringBuilder(); // appended to on the engine thread
        Generation answer =
            engine.chat(
                List.of(new ChatMessage("user", "Hello!")),
                GenerationOptions.greedy(32).withStop(List.of("\n\n")),
                streamed::append);
        Completion done = answer.completion().join(); // after the last piece
        // @end
        assertEquals(done.text(), streamed.toString());
        assertTrue(done.completionTokens() >= 1 && done.completionTokens() <= 32, done.toString());
        assertTrue(done.promptTokens() > 3, done.toString());
      }
    }
  }
}
