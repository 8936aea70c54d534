// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 the cuda-graph authors
package cuda.graph.spring.ai;

import static org.junit.jupiter.api.Assertions.assertEquals;

import cuda.graph.CudaPlatform;
import cuda.graph.embeddings.Backend;
import cuda.graph.embeddings.Precision;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;

/**
 * The auto-configured model on a GPU, as an application gets it: the model property alone, the
 * default when-no-gpu=fail, and the cuda provider (cuda-graph-driver) on the class path. Skipped
 * only where the system platform is not the cuda provider (no GPU). Runs on JUnit 5's launcher of
 * the GPU bundle as well as on JUnit 6: it uses neither Spring's JUnit extension nor AssertJ.
 */
@Tag("gpu")
class CudaGraphEmbeddingModelGpuTests {

  /** Short and long texts, more than one batch of the default 256 is not needed: 40 texts. */
  private static final List<String> TEXTS = texts();

  @BeforeAll
  static void onAGpu() {
    CudaPlatform system = CudaPlatform.system();
    Assumptions.assumeTrue(
        system.providerId().equals("cuda"),
        "no GPU: the system platform is '" + system.providerId() + "'");
  }

  @ParameterizedTest(name = "precision={0}")
  @CsvSource({"fp32, 0.99999", "fp16, 0.9995"})
  void theDefaultPolicyOpensOnTheGpuAndEmbedsAsLangChain4jDoes(String precision, double floor) {
    new ApplicationContextRunner()
        .withConfiguration(AutoConfigurations.of(CudaGraphEmbeddingAutoConfiguration.class))
        .withPropertyValues(
            "cuda.graph.embeddings.model=" + MiniLmAnchor.ARTIFACT,
            "cuda.graph.embeddings.precision=" + precision)
        .run(
            context -> {
              if (context.getStartupFailure() != null) {
                throw new AssertionError("the context did not start", context.getStartupFailure());
              }
              CudaGraphEmbeddingModel model = context.getBean(CudaGraphEmbeddingModel.class);
              assertEquals(Backend.GPU, model.embedder().backend());
              assertEquals(
                  Precision.valueOf(precision.toUpperCase(java.util.Locale.ROOT)),
                  model.embedder().precision());
              List<float[]> vectors = model.embed(TEXTS);
              for (int i = 0; i < TEXTS.size(); i++) {
                MiniLmAnchor.assertEmbeds(vectors.get(i), TEXTS.get(i), floor);
              }
              String one = "A man is riding a horse.";
              MiniLmAnchor.assertEmbeds(model.embed(one), one, floor);
            });
  }

  private static List<String> texts() {
    List<String> texts = new ArrayList<>();
    for (int i = 0; i < 39; i++) {
      texts.add(
          "Sentence " + i + ": " + "graphs are captured once and replayed. ".repeat(i % 7 + 1));
    }
    // Past the model's 128 tokens: cut where LangChain4j cuts it.
    texts.add("A long text about GPUs and graphs, replayed many times over. ".repeat(40));
    return texts;
  }
}
