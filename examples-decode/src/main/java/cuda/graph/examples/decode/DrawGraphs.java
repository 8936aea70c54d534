// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 the cuda-graph authors
package cuda.graph.examples.decode;

import cuda.graph.CudaGraph;
import cuda.graph.CudaPlatform;
import cuda.graph.Stream;
import cuda.graph.simulator.Simulator;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import org.jspecify.annotations.Nullable;

/**
 * Writes the decode example's graphs as Graphviz DOT into the folder given as the first argument
 * ({@code docs/graphs} by {@code scripts/draw-graphs.sh}): one step of the tiny model ({@code
 * decode-step.dot}) and the device loop around it ({@code decode-loop.dot}). On a simulator of its
 * own, so the pictures are the same on every machine.
 */
public final class DrawGraphs {

  private DrawGraphs() {}

  public static void main(String[] args) throws IOException {
    Path folder = Path.of(args.length > 0 ? args[0] : "docs/graphs");
    Files.createDirectories(folder);
    try (CudaPlatform platform = CudaPlatform.forDriver(Simulator.create(), "simulator");
        Stream stream = platform.defaultDevice().newStream();
        Weights weights = Weights.generate(LlamaConfig.TINY, 42);
        DecodeEngine engine = new DecodeEngine(weights, stream)) {
      try (CudaGraph<@Nullable Void> step = engine.captureStep()) {
        step.writeDot(folder.resolve("decode-step.dot"));
      }
      try (CudaGraph<@Nullable Void> loop = engine.captureLoop()) {
        loop.writeDot(folder.resolve("decode-loop.dot"));
      }
    }
  }
}
