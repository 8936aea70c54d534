// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 the cuda-graph authors
package cuda.graph.examples.decode;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import cuda.graph.CudaPlatform;
import cuda.graph.Stream;
import cuda.graph.simulator.Simulator;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * What {@code Decode} prints for the tiny model on the simulator: every mode's row, the stream mode
 * among them, decoding the same tokens, and no CPU time or latency of the stream mode printed as if
 * the simulator's timings meant something.
 */
class DecodeCommandTests {

  @Test
  void onTheSimulatorTheStreamModeDecodesLikeEveryModeAndItsTimingsAreNotReported()
      throws IOException {
    ByteArrayOutputStream bytes = new ByteArrayOutputStream();
    boolean passed;
    try (CudaPlatform platform = CudaPlatform.forDriver(Simulator.create(), "simulator");
        Stream stream = platform.defaultDevice().newStream();
        PrintStream out = new PrintStream(bytes, true, StandardCharsets.UTF_8)) {
      Decode.Options options =
          new Decode.Options(
              List.of(LlamaConfig.TINY), 12, 2, 7, 4, null, null, null, false, Path.of("unused"));
      passed = Decode.run(LlamaConfig.TINY, options, stream, out);
    }
    String text = bytes.toString(StandardCharsets.UTF_8);
    assertTrue(passed, text);
    List<String> rows =
        text.lines()
            .map(String::strip)
            .filter(l -> l.matches("[a-z+]+ +[0-9]+ tokens.*"))
            .map(l -> l.split(" ")[0])
            .toList();
    assertEquals(
        List.of(
            "eager",
            "graph",
            "graph+read",
            "while",
            "graph+pdl",
            "pdl+read",
            "while+pdl",
            "stream",
            "stream+paced"),
        rows);
    assertTrue(text.contains("every mode decoded the same tokens"), text);
    assertTrue(
        text.contains("stream: host CPU per token and device-to-Java latency: not meaningful"),
        text);
    assertTrue(text.contains("trace: not on the simulator"), text);
    assertFalse(Files.exists(Path.of("unused")), "the simulator wrote no trace");
    assertFalse(text.contains("p99"), text);
    assertFalse(text.contains("over eager"), text);
    assertFalse(text.contains("tok/s"), text);
  }

  @Test
  void latencyPercentilesAreNearestRankOverTheSortedSamples() {
    long[] sorted = new long[200];
    for (int i = 0; i < sorted.length; i++) {
      sorted[i] = i + 1;
    }
    assertEquals(100, Decode.percentile(sorted, 50));
    assertEquals(198, Decode.percentile(sorted, 99));
    assertEquals(200, Decode.percentile(sorted, 100));
    assertEquals(7, Decode.percentile(new long[] {7}, 99));
  }
}
