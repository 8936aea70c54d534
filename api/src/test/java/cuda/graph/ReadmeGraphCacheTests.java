package cuda.graph;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import cuda.graph.simulator.Simulator;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * The README's section on graph caches is this test's code: the section's Java block is the text
 * between the markers below, so it compiles and runs.
 */
class ReadmeGraphCacheTests {

  private static final String BEGIN = "// README begin\n";
  private static final String END = "// README end\n";

  @Test
  void theReadmeShowsThisTestsCode() throws IOException {
    Path readmePath = readme();
    String readme = Files.readString(readmePath);
    int section = readme.indexOf("\n## Many shapes");
    assertTrue(section >= 0, "the README has a section on many shapes");
    int from = readme.indexOf("```java\n", section) + "```java\n".length();
    String block = readme.substring(from, readme.indexOf("```\n", from));
    String source =
        Files.readString(
            readmePath.resolveSibling("api/src/test/java/cuda/graph/ReadmeGraphCacheTests.java"));
    int begin = source.indexOf(BEGIN, source.indexOf("void aStepPerBucketFromACache"));
    String code = source.substring(begin + BEGIN.length(), source.indexOf(END, begin));
    String indent = "      ";
    StringBuilder dedented = new StringBuilder();
    for (String line : code.split("\n", -1)) {
      dedented.append(line.startsWith(indent) ? line.substring(indent.length()) : line.strip());
      dedented.append('\n');
    }
    assertEquals(dedented.toString().stripTrailing() + "\n", block);
  }

  @Test
  void aStepPerBucketFromACache() {
    float[] out;
    List<GraphCache.NotGraphed<Integer>> report;
    try (CudaPlatform platform = CudaPlatform.forDriver(Simulator.create(), "simulator");
        Stream stream = platform.defaultDevice().newStream()) {
      // README begin
      Buckets batches = Buckets.batchSizes(64); // 1, 2, 4, 8, 16, 24, ..., 64: 11 buckets
      try (DeviceBuffer<Float> y = DeviceBuffer.zeros(ElementType.F32, 64 * 384).syncOn(stream);
          GraphCache<Integer> steps =
              GraphCache.create(
                  stream,
                  GraphCache.Settings.budget(256L << 20), // the graph memory they may hold
                  (rows, scope) -> { // records the step of one bucket, once
                    DeviceBuffer<Float> h = scope.temporary(ElementType.F32, rows * 384L);
                    scope.record(h.fill(1f)); // h lives only while a replay runs
                    scope.record(y.slice(0, rows * 384L).copyFrom(h)); // a prefix of y
                  })) {
        steps.warm(batches.sizes()); // all 11 captured up front (or each on first use)
        Buckets.Bucket bucket = batches.cover(13); // 13 requests: bucket 16, 3 rows of padding
        steps.launch(bucket.size()).syncOn(stream); // a hit: a lookup and one cuGraphLaunch
        report = steps.notGraphed(); // keys that failed, were refused or evicted, and why
        out = y.toFloatArray().syncOn(stream);
      }
      // README end
    }
    assertEquals(List.of(), report);
    assertEquals(1f, out[16 * 384 - 1]);
    assertEquals(0f, out[16 * 384]);
  }

  /** {@return the repository's README}, found from the working directory up */
  private static Path readme() {
    for (Path p = Path.of("").toAbsolutePath(); p != null; p = p.getParent()) {
      if (Files.exists(p.resolve("api/pom.xml")) && Files.exists(p.resolve("README.md"))) {
        return p.resolve("README.md");
      }
    }
    throw new AssertionError(
        "no README.md beside an api/ module above " + Path.of("").toAbsolutePath());
  }
}
