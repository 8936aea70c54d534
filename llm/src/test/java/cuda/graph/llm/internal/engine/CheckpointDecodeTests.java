// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 the cuda-graph authors
package cuda.graph.llm.internal.engine;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import cuda.graph.CudaPlatform;
import cuda.graph.Stream;
import cuda.graph.llm.internal.checkpoint.Checkpoint;
import cuda.graph.llm.internal.checkpoint.DType;
import cuda.graph.llm.internal.checkpoint.TinyCheckpoints;
import cuda.graph.llm.internal.reference.ReferenceModel;
import cuda.graph.simulator.Simulator;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/**
 * The check on the simulator: a tiny checkpoint written as save_pretrained writes one
 * (config.json with Llama 3's RoPE scaling, tied embeddings, safetensors in each dtype; hidden 64,
 * 2 layers, 4 heads of 16, 2 key/value heads, vocabulary 300: the checkpoint's tokenizer has 263
 * ids), read through the checkpoint package into the engine, greedy-decodes 64 tokens for 8 prompts
 * of different lengths in one batch (the prompts prefilled together in one step, then one step per
 * token for all 8), and every token equals the plain-Java fp32 {@link ReferenceModel}'s, up to the
 * first step of a sequence where the reference's top two logits are closer than the engine's
 * rounding ({@link AbstractBatchStepTests#tolerance} of the logits' size; in fp32 no such step
 * occurs, so all 512 tokens must match).
 */
class CheckpointDecodeTests {

  @TempDir Path tmp;

  @ParameterizedTest
  @EnumSource(DType.class)
  void eightPromptsGreedyDecodedTogetherGiveTheReferenceModelsTokens(DType type) {
    TinyCheckpoints.Spec spec =
        new TinyCheckpoints.Spec(64, 128, 2, 4, 2, 16, 300, 10000.0, true, true, type, 1, 52);
    Random random = new Random(3);
    List<int[]> prompts = new ArrayList<>();
    for (int length : new int[] {1, 3, 5, 8, 13, 16, 2, 11}) {
      prompts.add(AbstractBatchStepTests.randomTokens(random, length));
    }
    int steps = 64;
    try (Checkpoint checkpoint = Checkpoint.open(TinyCheckpoints.write(tmp.resolve("m"), spec));
        CudaPlatform platform = CudaPlatform.forDriver(Simulator.builder().build(), "simulator");
        Stream stream = platform.defaultDevice().newStream();
        BatchStep step =
            new BatchStep(
                ModelWeights.of(checkpoint), stream, new BatchStep.Limits(64, 8, 96, 48), 0)) {
      List<ReferenceModel.Generation> expected =
          ReferenceModel.load(checkpoint).generateGreedy(prompts, steps);
      KvCache cache = new KvCache(48);
      List<Sampling> greedy = java.util.Collections.nCopies(prompts.size(), Sampling.GREEDY);
      int[][] got = BatchDecoding.decode(step, cache, 0, prompts, greedy, steps);
      int compared = 0;
      float tolerance = AbstractBatchStepTests.tolerance(type);
      for (int s = 0; s < prompts.size(); s++) {
        ReferenceModel.Generation g = expected.get(s);
        for (int k = 0; k < steps; k++) {
          // The rounding's reach: the tolerance of logits of a few units, twice (both may move).
          if (g.topTwoGaps()[k] <= 2 * tolerance * 8) {
            break;
          }
          assertEquals(g.tokens()[k], got[s][k], "sequence " + s + ", token " + k);
          compared++;
        }
      }
      assertTrue(
          type == DType.F32 ? compared == prompts.size() * steps : compared >= steps,
          compared + " tokens compared");
    }
  }
}
