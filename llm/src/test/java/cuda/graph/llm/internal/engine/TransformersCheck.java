// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 the cuda-graph authors
package cuda.graph.llm.internal.engine;

import cuda.graph.Stream;
import cuda.graph.llm.internal.checkpoint.Checkpoint;
import cuda.graph.llm.internal.checkpoint.DType;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Locale;
import org.jspecify.annotations.Nullable;

/**
 * The check against transformers: a {@link TransformersAnchor}'s model read through the
 * checkpoint package into the engine ({@link ModelWeights}, {@link BatchStep}: the public {@code
 * LlmEngine} takes text, not token ids, and joins generations as they come rather than in one
 * step), its prompts prefilled together in one step and greedy-decoded together, one step a token
 * ({@link BatchDecoding}), and the tokens compared with {@code generate}'s of the left-padded
 * batch.
 *
 * <p><b>When tokens may part.</b> Greedy decoding follows one token per step, so the first step
 * where the engine and transformers pick different tokens ends the comparison of that prompt (what
 * follows continues different texts). Such a step is allowed only where transformers' two largest
 * logits are within the rounding of each other: in fp32 never (the tokens must be equal at every
 * step); in bf16 and fp16 where transformers' gap is at most {@link #ULPS} units in the last place
 * of the type at the logit's magnitude (the engine's largest logit of that step). Why 8: the
 * transformers model rounds both logits to the type (together up to 1 ulp on their gap) and rounds
 * its residual stream and every product's output to the type in each of 16 layers, which moves a
 * logit by about 1 to 2 ulps (relative errors of 2^-9 in bf16, a few dozen roundings, most of them
 * independent); the engine keeps the residual stream in fp32 and so adds less; the two logits of a
 * gap each move. That is up to about 5 ulps on the gap; 8 leaves a margin, and the report gives the
 * largest gap difference seen on agreeing steps, in ulps, so the bound can be checked against the
 * run. Below the first parting, the comparison is exact.
 *
 * <p><b>Batch and alone.</b> The engine's tokens are compared with transformers' left-padded batch
 * (the engine decodes the prompts as one batch too); the report also gives, for each prompt, where
 * transformers' batch and alone results part and where the engine's and transformers' alone part.
 */
final class TransformersCheck {

  /** The units in the last place of bf16 or fp16 within which two logits may swap (see above). */
  static final int ULPS = 8;

  private TransformersCheck() {}

  /**
   * The engine's greedy decoding of an anchor's prompts.
   *
   * @param type the weights' type
   * @param tokens the tokens, {@code [prompt][k]}
   * @param topLogits the largest logit of each step, {@code [prompt][k]}
   * @param gaps the largest logit minus the second largest, {@code [prompt][k]}
   */
  record Decoded(DType type, int[][] tokens, float[][] topLogits, float[][] gaps) {}

  /**
   * Reads the anchor's model and greedy-decodes its prompts in one batch on {@code stream}'s
   * device.
   *
   * @throws IllegalArgumentException when the checkpoint's weights are not of the anchor's dtype
   */
  static Decoded decode(TransformersAnchor anchor, Stream stream) {
    List<int[]> prompts = anchor.prompts();
    int n = prompts.size(), steps = anchor.newTokens();
    int totalPrompt = 0, longest = 0, blocks = 0;
    for (int[] p : prompts) {
      totalPrompt += p.length;
      longest = Math.max(longest, p.length);
      blocks += KvCache.blocksFor(p.length + steps);
    }
    // One step takes every prompt whole; each sequence's context is its prompt and its tokens.
    BatchStep.Limits limits =
        new BatchStep.Limits(Math.max(totalPrompt, n), n, longest + steps, blocks);
    try (Checkpoint checkpoint = Checkpoint.open(anchor.directory())) {
      ModelWeights weights = ModelWeights.of(checkpoint);
      if (weights.type() != anchor.dtype()) {
        throw new IllegalArgumentException(
            "TransformersCheck.decode: "
                + anchor.directory()
                + " holds "
                + weights.type()
                + " weights, but its expected.json was made in "
                + anchor.dtype()
                + "; make the anchor again with make_checkpoint.py");
      }
      float[][] top = new float[n][steps];
      float[][] gaps = new float[n][steps];
      try (BatchStep step = new BatchStep(weights, stream, limits, 0)) {
        int[][] tokens =
            BatchDecoding.decode(
                step,
                new KvCache(blocks),
                0,
                prompts,
                Collections.nCopies(n, Sampling.GREEDY),
                steps,
                (k, s) -> {
                  float[][] logits = s.logits();
                  for (int i = 0; i < n; i++) {
                    float[] l = logits[i];
                    int best = 0;
                    for (int v = 1; v < l.length; v++) {
                      if (l[v] > l[best]) {
                        best = v;
                      }
                    }
                    float second = Float.NEGATIVE_INFINITY;
                    for (int v = 0; v < l.length; v++) {
                      if (v != best && l[v] > second) {
                        second = l[v];
                      }
                    }
                    top[i][k] = l[best];
                    gaps[i][k] = l[best] - second;
                  }
                });
        return new Decoded(weights.type(), tokens, top, gaps);
      }
    }
  }

  /** {@return one unit in the last place of {@code type} at the magnitude of {@code x}} */
  static double ulp(DType type, float x) {
    return switch (type) {
      // bf16 keeps 7 of float32's 23 fraction bits, fp16 10 (its subnormals' spacing below).
      case BF16 -> Math.ulp(x) * 0x1p16;
      case F16 -> Math.max(Math.ulp(x) * 0x1p13, 0x1p-24);
      case F32 -> Math.ulp(x);
    };
  }

  /**
   * {@return the largest top-two gap at which the engine and transformers may pick different
   * tokens}: 0 in fp32, {@link #ULPS} ulps of the type at {@code topLogit}'s magnitude otherwise
   */
  static double bound(DType type, float topLogit) {
    return type == DType.F32 ? 0 : ULPS * ulp(type, topLogit);
  }

  /**
   * What the check found for one prompt.
   *
   * @param prompt the prompt's index
   * @param promptLength its tokens
   * @param steps the tokens generated
   * @param firstDifference the first step whose token differs from transformers' batch, or null
   * @param gapThere transformers' gap at that step (NaN without one)
   * @param engineGapThere the engine's gap there (NaN without one)
   * @param boundThere the bound there (NaN without one)
   * @param largestGapError the largest {@code |engine gap - transformers gap|} over the agreeing
   *     steps, in ulps of the type at the step's logit (for fp32: of fp32)
   * @param batchVsAlone the first step where transformers' batch and alone tokens differ, or null
   * @param engineVsAlone the first step where the engine's and transformers' alone tokens differ,
   *     or null
   */
  record PromptReport(
      int prompt,
      int promptLength,
      int steps,
      @Nullable Integer firstDifference,
      double gapThere,
      double engineGapThere,
      double boundThere,
      double largestGapError,
      @Nullable Integer batchVsAlone,
      @Nullable Integer engineVsAlone) {

    /** {@return the steps compared equal: those before the first difference} */
    int agreed() {
      return firstDifference == null ? steps : firstDifference;
    }

    /** {@return whether the tokens are equal, or part first where the gap is within the bound} */
    boolean passes() {
      // NaN gaps (a broken anchor) compare false: they fail.
      return firstDifference == null || gapThere <= boundThere;
    }

    /** {@return one line for the report} */
    String line() {
      String head =
          String.format(
              Locale.ROOT,
              "prompt %d (%d tokens): %s; largest gap difference on agreeing steps %.2f ulps;"
                  + " transformers batch vs alone: %s; engine vs transformers alone: %s",
              prompt,
              promptLength,
              firstDifference == null
                  ? "all " + steps + " tokens equal"
                  : String.format(
                      Locale.ROOT,
                      "first divergent step %d, transformers' gap there %.6g (engine's %.6g),"
                          + " bound %.6g: %s",
                      firstDifference,
                      gapThere,
                      engineGapThere,
                      boundThere,
                      passes() ? "within rounding" : "BEYOND ROUNDING"),
              largestGapError,
              batchVsAlone == null ? "equal" : "part at step " + batchVsAlone,
              engineVsAlone == null ? "equal" : "part at step " + engineVsAlone);
      return head;
    }
  }

  /**
   * What the check found.
   *
   * @param anchor the anchor
   * @param prompts one report per prompt
   */
  record Report(TransformersAnchor anchor, List<PromptReport> prompts) {

    /** {@return the tokens compared equal, over all prompts} */
    int agreed() {
      return prompts.stream().mapToInt(PromptReport::agreed).sum();
    }

    /**
     * {@return whether every prompt passes and at least one token was compared} (an anchor whose
     * every prompt parts at its first step checks nothing, and so does not pass)
     */
    boolean passes() {
      return agreed() > 0 && prompts.stream().allMatch(PromptReport::passes);
    }

    /** {@return the summary line} */
    String summary() {
      int steps = anchor.newTokens() * prompts.size();
      return String.format(
          Locale.ROOT,
          "%s (%s, %s): %s; %d of %d tokens equal to generate's before the first divergence of"
              + " each prompt; bound %s",
          anchor.directory().getFileName(),
          anchor.dtype(),
          anchor.versions(),
          passes() ? "PASS" : "FAIL",
          agreed(),
          steps,
          anchor.dtype() == DType.F32
              ? "0 (fp32: every token equal)"
              : ULPS + " ulps of " + anchor.dtype() + " at the step's largest logit");
    }
  }

  /** Compares the engine's tokens with the anchor's. */
  static Report compare(TransformersAnchor anchor, Decoded decoded) {
    List<PromptReport> out = new ArrayList<>();
    for (int s = 0; s < anchor.prompts().size(); s++) {
      int[] expected = anchor.batch().get(s).tokens();
      double[] gaps = anchor.batch().get(s).gaps();
      int[] got = decoded.tokens()[s];
      Integer first = firstDifference(expected, got);
      double largestError = 0;
      for (int k = 0; k < (first == null ? expected.length : first); k++) {
        double error = Math.abs(decoded.gaps()[s][k] - gaps[k]);
        largestError =
            Math.max(
                largestError, error / ulp(decoded.type(), Math.abs(decoded.topLogits()[s][k])));
      }
      out.add(
          new PromptReport(
              s,
              anchor.prompts().get(s).length,
              expected.length,
              first,
              first == null ? Double.NaN : gaps[first],
              first == null ? Double.NaN : decoded.gaps()[s][first],
              first == null ? Double.NaN : bound(decoded.type(), decoded.topLogits()[s][first]),
              largestError,
              firstDifference(expected, anchor.alone().get(s).tokens()),
              firstDifference(anchor.alone().get(s).tokens(), got)));
    }
    return new Report(anchor, List.copyOf(out));
  }

  private static @Nullable Integer firstDifference(int[] a, int[] b) {
    for (int k = 0; k < Math.min(a.length, b.length); k++) {
      if (a[k] != b[k]) {
        return k;
      }
    }
    return a.length == b.length ? null : Math.min(a.length, b.length);
  }
}
