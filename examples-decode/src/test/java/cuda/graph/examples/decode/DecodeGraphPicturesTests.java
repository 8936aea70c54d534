// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 the cuda-graph authors
package cuda.graph.examples.decode;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** docs/graphs shows the decode graphs the engine captures today, not a stale drawing. */
class DecodeGraphPicturesTests {

  private static final Path COMMITTED = Path.of("").toAbsolutePath().resolveSibling("docs/graphs");

  @Test
  void theCommittedDecodePicturesAreWhatTheEngineCapturesNow(@TempDir Path drawn)
      throws IOException {
    DrawGraphs.main(new String[] {drawn.toString()});
    for (String name : List.of("decode-step.dot", "decode-loop.dot")) {
      assertEquals(
          Files.readString(COMMITTED.resolve(name)),
          Files.readString(drawn.resolve(name)),
          name + " is stale: run scripts/draw-graphs.sh");
    }
  }
}
