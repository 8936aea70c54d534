// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 the cuda-graph authors
package cuda.graph.benchmarks;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The graph pictures in docs/graphs are what the examples capture today, not a stale drawing. */
class GraphPicturesTests {

  private static final Path COMMITTED = Path.of("").toAbsolutePath().resolveSibling("docs/graphs");

  @Test
  void theCommittedPicturesAreWhatTheExamplesCaptureNow(@TempDir Path drawn) throws IOException {
    GraphPictures.main(new String[] {drawn.toString()});
    List<String> names = dotFiles(drawn);
    assertEquals(
        List.of("parallel-branches.dot", "saxpy.dot", "self-advancing-step.dot", "while-loop.dot"),
        names);
    assertTrue(
        dotFiles(COMMITTED).containsAll(names), "run scripts/draw-graphs.sh to redraw docs/graphs");
    for (String name : names) {
      assertEquals(
          Files.readString(COMMITTED.resolve(name)),
          Files.readString(drawn.resolve(name)),
          name + " is stale: run scripts/draw-graphs.sh");
    }
  }

  private static List<String> dotFiles(Path folder) throws IOException {
    try (Stream<Path> files = Files.list(folder)) {
      return files
          .map(p -> p.getFileName().toString())
          .filter(n -> n.endsWith(".dot"))
          .sorted()
          .toList();
    }
  }
}
