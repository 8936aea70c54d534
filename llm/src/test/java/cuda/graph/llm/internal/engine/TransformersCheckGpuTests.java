// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 the cuda-graph authors
package cuda.graph.llm.internal.engine;

import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

import cuda.graph.CudaPlatform;
import cuda.graph.simulator.Simulator;
import java.io.File;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.function.Consumer;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.DynamicTest;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.TestFactory;
import org.junit.jupiter.api.TestReporter;

/**
 * The check against transformers on the GPU ({@link TransformersCheck}): for each model
 * directory that llm/reference/make_checkpoint.py made (LlamaForCausalLM at the Llama-3.2-1B
 * config, random weights, in float32, bfloat16 or float16) and the system property {@value
 * #ANCHORS} names (a path-separator list), the engine greedy-decodes the 8 prompts of its
 * expected.json in one batch, 64 tokens, and its tokens equal {@code generate}'s of the left-padded
 * batch: in fp32 every token, in bf16 and fp16 up to a first divergence where transformers' top two
 * logits are within {@link TransformersCheck#ULPS} ulps. Each prompt's first divergent step, the
 * gap there and where transformers' batch and alone results part are report entries; so is a
 * summary line per anchor.
 *
 * <p>Skipped where the system platform is not the cuda provider (no GPU); on a GPU without {@value
 * #ANCHORS} it fails (a GPU run that forgot the anchors must not pass). With {@value #PLATFORM}
 * {@code =simulator} it runs on the simulator instead, for a small anchor ({@code
 * make_checkpoint.py --small}), to debug the check without a GPU:
 *
 * <pre>
 * python3 llm/reference/make_checkpoint.py --small --out /tmp/small-fp32 --dtype float32
 * ./mvnw -q -o -pl llm -am test-compile dependency:build-classpath -Dmdep.includeScope=test \
 *   -Dmdep.outputFile=target/test-classpath.txt
 * java -Dcuda.graph.llm.anchors=/tmp/small-fp32 -Dcuda.graph.llm.anchors.platform=simulator \
 *   -jar junit-platform-console-standalone.jar execute --details=tree \
 *   -cp llm/target/test-classes:llm/target/classes:$(cat llm/target/test-classpath.txt) \
 *   --select-class=cuda.graph.llm.internal.engine.TransformersCheckGpuTests
 * </pre>
 */
@Tag("gpu")
class TransformersCheckGpuTests {

  /** The anchors' model directories, separated by {@link File#pathSeparator}. */
  static final String ANCHORS = "cuda.graph.llm.anchors";

  /** {@code simulator} runs the check on the simulator instead of the GPU. */
  static final String PLATFORM = "cuda.graph.llm.anchors.platform";

  @TestFactory
  java.util.stream.Stream<DynamicTest> eachAnchorsPromptsDecodedInOneBatchGiveGeneratesTokens(
      TestReporter reporter) {
    boolean simulator = "simulator".equals(System.getProperty(PLATFORM));
    if (!simulator) {
      CudaPlatform system = CudaPlatform.system();
      Assumptions.assumeTrue(
          system.providerId().equals("cuda"),
          "no GPU: the system platform is '" + system.providerId() + "'");
    }
    String anchors = System.getProperty(ANCHORS, "").strip();
    if (anchors.isEmpty()) {
      fail(
          "-D"
              + ANCHORS
              + " names no model directory: on a GPU the transformers check must run; make the"
              + " anchors with llm/reference/make_checkpoint.py and name them (scripts/gpu-run.sh"
              + " llm-check does both)");
    }
    return Arrays.stream(anchors.split(File.pathSeparator))
        .filter(a -> !a.isBlank())
        .map(Path::of)
        .map(dir -> DynamicTest.dynamicTest(dir.toString(), () -> check(dir, simulator, reporter)));
  }

  private static void check(Path dir, boolean simulator, TestReporter reporter) {
    TransformersAnchor anchor = TransformersAnchor.read(dir);
    long started = System.nanoTime();
    TransformersCheck.Decoded[] decoded = new TransformersCheck.Decoded[1];
    onPlatform(
        simulator,
        platform -> {
          try (cuda.graph.Stream stream = platform.defaultDevice().newStream()) {
            decoded[0] = TransformersCheck.decode(anchor, stream);
          }
        });
    TransformersCheck.Report report = TransformersCheck.compare(anchor, decoded[0]);
    String name = dir.getFileName().toString();
    for (TransformersCheck.PromptReport p : report.prompts()) {
      reporter.publishEntry(name + " prompt " + p.prompt(), p.line());
    }
    reporter.publishEntry(
        name,
        report.summary()
            + String.format(
                java.util.Locale.ROOT,
                "; %.1f s to read and decode",
                (System.nanoTime() - started) / 1e9));
    assertTrue(report.passes(), () -> report.summary() + "\n" + lines(report));
  }

  private static String lines(TransformersCheck.Report report) {
    StringBuilder b = new StringBuilder();
    for (TransformersCheck.PromptReport p : report.prompts()) {
      b.append(p.line()).append('\n');
    }
    return b.toString();
  }

  private static void onPlatform(boolean simulator, Consumer<CudaPlatform> body) {
    if (simulator) {
      try (CudaPlatform platform =
          CudaPlatform.forDriver(Simulator.builder().build(), "simulator")) {
        body.accept(platform);
      }
    } else {
      // The system platform lives as long as the JVM.
      body.accept(CudaPlatform.system());
    }
  }
}
