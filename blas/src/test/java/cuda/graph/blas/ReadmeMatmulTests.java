package cuda.graph.blas;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import cuda.graph.CudaGraph;
import cuda.graph.CudaPlatform;
import cuda.graph.DeviceBuffer;
import cuda.graph.ElementType;
import cuda.graph.Stream;
import cuda.graph.simulator.Simulator;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Random;
import org.jspecify.annotations.Nullable;
import org.junit.jupiter.api.Test;

/**
 * The README's matmul section is this test's code: the section's Java block is the text between the
 * markers below, so it compiles and runs, and gives a layer's result.
 */
class ReadmeMatmulTests {

  private static final String BEGIN = "// README begin\n";
  private static final String END = "// README end\n";

  @Test
  void theReadmeShowsThisTestsCode() throws IOException {
    Path readmePath = readme();
    String readme = Files.readString(readmePath);
    int section = readme.indexOf("\n## Matrix products");
    assertTrue(section >= 0, "the README has a section on matrix products");
    int from = readme.indexOf("```java\n", section) + "```java\n".length();
    String block = readme.substring(from, readme.indexOf("```\n", from));

    String source =
        Files.readString(
            readmePath.resolveSibling("blas/src/test/java/cuda/graph/blas/ReadmeMatmulTests.java"));
    int begin = source.indexOf(BEGIN, source.indexOf("void aLayerCapturedAsOneMatmulNode"));
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
  void aLayerCapturedAsOneMatmulNode() {
    int tokens = 4;
    Random random = new Random(7);
    float[] input = new float[tokens * 384];
    float[] weights = new float[1536 * 384];
    float[] biases = new float[1536];
    for (float[] array : List.of(input, weights, biases)) {
      for (int i = 0; i < array.length; i++) {
        array[i] = (float) (random.nextDouble() - 0.5);
      }
    }
    float[] out;
    try (CudaPlatform platform = CudaPlatform.forDriver(Simulator.builder().build(), "simulator");
        Stream stream = platform.defaultDevice().newStream()) {
      // README begin
      try (Blas blas = Blas.open(stream.device()); // one per device
          DeviceBuffer<Float> x = DeviceBuffer.fromArray(input).syncOn(stream); // tokens x 384
          DeviceBuffer<Float> w = DeviceBuffer.fromArray(weights).syncOn(stream); // 1536 x 384
          DeviceBuffer<Float> b = DeviceBuffer.fromArray(biases).syncOn(stream); // 1536
          DeviceBuffer<Float> y =
              DeviceBuffer.zeros(ElementType.F32, tokens * 1536).syncOn(stream)) {
        // y = gelu(x w^T + b), all row-major; b: one value per column of y (output feature)
        Matmul up =
            Matmul.of(
                    MatrixView.rowMajor(x, tokens, 384),
                    MatrixView.rowMajor(w, 1536, 384).transposed(),
                    MatrixView.rowMajor(y, tokens, 1536))
                .withEpilogue(Epilogue.BIAS_GELU, b);
        MatmulPlanReport plan = blas.plan(up); // planned once: algorithm and workspace need
        try (Workspace workspace = blas.workspaceFor(List.of(up)).syncOn(stream); // before capture
            CudaGraph<@Nullable Void> layer =
                CudaGraph.capture(stream, blas.matmul(up, workspace))) {
          layer.launch().syncOn(stream); // replays: no planning, no allocation
        }
        out = y.toFloatArray().syncOn(stream);
      }
      // README end
    }
    for (int token : new int[] {0, tokens - 1}) {
      for (int o : new int[] {0, 777, 1535}) {
        double sum = biases[o];
        for (int p = 0; p < 384; p++) {
          sum += (double) input[token * 384 + p] * weights[o * 384 + p];
        }
        double gelu =
            0.5
                * sum
                * (1 + Math.tanh(Math.sqrt(2 / Math.PI) * (sum + 0.044715 * sum * sum * sum)));
        assertEquals(gelu, out[token * 1536 + o], 1e-4, "token " + token + ", output " + o);
      }
    }
  }

  /**
   * {@return the repository's README}: found from the working directory up, since Maven runs the
   * tests in the module's folder and the GPU bundle from the repository's root
   */
  private static Path readme() {
    for (Path p = Path.of("").toAbsolutePath(); p != null; p = p.getParent()) {
      if (Files.exists(p.resolve("blas/pom.xml")) && Files.exists(p.resolve("README.md"))) {
        return p.resolve("README.md");
      }
    }
    throw new AssertionError(
        "no README.md beside a blas/ module above " + Path.of("").toAbsolutePath());
  }
}
