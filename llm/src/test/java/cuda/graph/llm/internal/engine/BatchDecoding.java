// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 the cuda-graph authors
package cuda.graph.llm.internal.engine;

import java.util.ArrayList;
import java.util.List;

/**
 * Decoding of a batch of prompts through one {@link BatchStep}, as the engine's tests and the
 * transformers check run it: every prompt prefilled whole in one step, then one step of one token
 * per sequence, all sequences together, for a fixed number of tokens (no early stop, as {@code
 * generate} with a fixed length).
 */
final class BatchDecoding {

  /** Sees each step's results (for example its logits) right after the step ran. */
  @FunctionalInterface
  interface AfterStep {
    /**
     * Called after the step that made token {@code k} of every sequence.
     *
     * @param k the index of the tokens the step made (0: the prefill's)
     * @param step the step, whose {@link BatchStep#logits()} are this step's
     */
    void ran(int k, BatchStep step);
  }

  private BatchDecoding() {}

  /**
   * Decodes {@code steps} tokens for each prompt, all in one batch, the sequences numbered from
   * {@code firstId} in {@code cache}; returns the tokens, {@code [prompt][k]}.
   */
  static int[][] decode(
      BatchStep step,
      KvCache cache,
      long firstId,
      List<int[]> prompts,
      List<Sampling> sampling,
      int steps) {
    return decode(step, cache, firstId, prompts, sampling, steps, (k, s) -> {});
  }

  /** As {@link #decode(BatchStep, KvCache, long, List, List, int)}, calling {@code afterStep}. */
  static int[][] decode(
      BatchStep step,
      KvCache cache,
      long firstId,
      List<int[]> prompts,
      List<Sampling> sampling,
      int steps,
      AfterStep afterStep) {
    int n = prompts.size();
    int[][] out = new int[n][steps];
    List<BatchStep.Chunk> prefill = new ArrayList<>();
    for (int s = 0; s < n; s++) {
      int[] p = prompts.get(s);
      prefill.add(
          AbstractBatchStepTests.chunk(cache, firstId + s, p, 0, p.length, sampling.get(s)));
    }
    int[] next = step.run(prefill);
    afterStep.ran(0, step);
    for (int k = 0; k < steps; k++) {
      List<BatchStep.Chunk> decodes = new ArrayList<>();
      for (int s = 0; s < n; s++) {
        out[s][k] = next[s];
        int pos = prompts.get(s).length + k;
        int[] token = new int[pos + 1];
        token[pos] = next[s];
        decodes.add(
            AbstractBatchStepTests.chunk(cache, firstId + s, token, pos, pos + 1, sampling.get(s)));
      }
      if (k + 1 < steps) {
        next = step.run(decodes);
        afterStep.ran(k + 1, step);
      }
    }
    return out;
  }
}
