// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 the cuda-graph authors
package cuda.graph.llm.internal.engine;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import cuda.graph.CudaPlatform;
import cuda.graph.Stream;
import cuda.graph.llm.internal.checkpoint.Checkpoint;
import cuda.graph.llm.internal.checkpoint.DType;
import cuda.graph.llm.internal.checkpoint.TinyCheckpoints;
import cuda.graph.llm.internal.reference.ReferenceModel;
import cuda.graph.simulator.Simulator;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/**
 * The transformers check itself ({@link TransformersCheck}, which {@link TransformersCheckGpuTests}
 * runs on the GPU against make_checkpoint.py's anchors), on the simulator: an anchor whose
 * expected.json holds the plain-Java fp32 reference's tokens instead of transformers' (a tiny
 * sharded checkpoint, the 8 prompt lengths of make_checkpoint.py) passes, with every token equal in
 * fp32; the same anchor with one token changed fails where that step's gap is wide and passes,
 * reporting the step, where it is a near tie; the bound is 8 ulps of the type; an anchor that
 * checks nothing fails; a malformed expected.json is refused naming what is wrong. The engine's
 * gaps, which set the bound, are the reference's of the same step.
 */
class TransformersCheckTests {

  private static final int[] PROMPT_LENGTHS = {1, 3, 6, 11, 19, 30, 47, 70};
  private static final int NEW_TOKENS = 16;

  @TempDir Path tmp;

  /** An anchor of a tiny checkpoint in {@code type} whose expectations are the reference's. */
  private TransformersAnchor referenceAnchor(DType type) {
    TinyCheckpoints.Spec spec =
        new TinyCheckpoints.Spec(64, 128, 2, 4, 2, 16, 300, 10000.0, true, true, type, 2, 52);
    Path dir = TinyCheckpoints.write(tmp.resolve("anchor-" + type), spec);
    Random random = new Random(11);
    List<int[]> prompts = new ArrayList<>();
    for (int length : PROMPT_LENGTHS) {
      prompts.add(AbstractBatchStepTests.randomTokens(random, length));
    }
    List<TransformersAnchor.Generated> expected = new ArrayList<>();
    try (Checkpoint checkpoint = Checkpoint.open(dir)) {
      for (ReferenceModel.Generation g :
          ReferenceModel.load(checkpoint).generateGreedy(prompts, NEW_TOKENS)) {
        double[] gaps = new double[NEW_TOKENS];
        for (int k = 0; k < NEW_TOKENS; k++) {
          gaps[k] = g.topTwoGaps()[k];
        }
        expected.add(new TransformersAnchor.Generated(g.tokens(), gaps));
      }
    }
    TransformersAnchor.write(dir, type, prompts, expected, expected, "ReferenceModel");
    return TransformersAnchor.read(dir);
  }

  private static TransformersCheck.Decoded decodeOnTheSimulator(TransformersAnchor anchor) {
    try (CudaPlatform platform = CudaPlatform.forDriver(Simulator.builder().build(), "simulator");
        Stream stream = platform.defaultDevice().newStream()) {
      return TransformersCheck.decode(anchor, stream);
    }
  }

  /**
   * {@code anchor} with the batch's token {@code k} of prompt {@code s} changed, gap {@code gap}.
   */
  private static TransformersAnchor changed(TransformersAnchor anchor, int s, int k, double gap) {
    List<TransformersAnchor.Generated> batch = new ArrayList<>(anchor.batch());
    int[] tokens = batch.get(s).tokens().clone();
    double[] gaps = batch.get(s).gaps().clone();
    tokens[k] = (tokens[k] + 1) % 300;
    gaps[k] = gap;
    batch.set(s, new TransformersAnchor.Generated(tokens, gaps));
    return new TransformersAnchor(
        anchor.directory(),
        anchor.dtype(),
        anchor.prompts(),
        List.copyOf(batch),
        anchor.alone(),
        anchor.versions());
  }

  @ParameterizedTest
  @EnumSource(
      value = DType.class,
      names = {"F32", "BF16"})
  void anAnchorOfTheReferencesTokensPassesAndAChangedTokenFailsUnlessItsGapIsANearTie(DType type) {
    TransformersAnchor anchor = referenceAnchor(type);
    TransformersCheck.Decoded decoded = decodeOnTheSimulator(anchor);

    TransformersCheck.Report report = TransformersCheck.compare(anchor, decoded);
    assertTrue(report.passes(), () -> report.summary() + "\n" + report.prompts());
    if (type == DType.F32) {
      assertEquals(PROMPT_LENGTHS.length * NEW_TOKENS, report.agreed(), report.summary());
    }
    // The engine's gaps are the reference's step for step: within the bound in bf16; in fp32
    // within 64 ulps (the engine's fp32 sums round where the reference's double ones do not).
    double gapUlps = type == DType.F32 ? 64 : TransformersCheck.ULPS;
    for (TransformersCheck.PromptReport p : report.prompts()) {
      assertTrue(p.largestGapError() <= gapUlps, p.line());
    }
    // The prompt that agreed longest, changed half-way through its agreement.
    TransformersCheck.PromptReport longest = report.prompts().getFirst();
    for (TransformersCheck.PromptReport p : report.prompts()) {
      assertNull(p.batchVsAlone(), "the anchor's batch and alone are the same");
      longest = p.agreed() > longest.agreed() ? p : longest;
    }
    assertTrue(longest.agreed() >= 2, report.summary());
    int s = longest.prompt(), k = longest.agreed() / 2;

    TransformersCheck.Report wide = TransformersCheck.compare(changed(anchor, s, k, 10.0), decoded);
    assertFalse(wide.passes(), wide.summary());
    TransformersCheck.PromptReport parted = wide.prompts().get(s);
    assertEquals(k, parted.firstDifference(), parted.line());
    assertTrue(parted.line().contains("BEYOND ROUNDING"), parted.line());

    TransformersCheck.Report tie = TransformersCheck.compare(changed(anchor, s, k, 0.0), decoded);
    assertTrue(tie.passes(), tie.summary());
    assertEquals(k, tie.prompts().get(s).firstDifference(), tie.prompts().get(s).line());
    assertTrue(
        tie.prompts().get(s).line().contains("first divergent step " + k + ", "),
        tie.prompts().get(s).line());
    // A gap a transformers run could not have made (NaN) never passes.
    assertFalse(TransformersCheck.compare(changed(anchor, s, k, Double.NaN), decoded).passes());
  }

  @Test
  void theBoundIsEightUlpsOfTheTypeAtTheStepsLargestLogitAndNoneInFp32() {
    assertEquals(0.5, TransformersCheck.bound(DType.BF16, 10f)); // bf16 ulp in [8, 16): 2^-4
    assertEquals(0.5, TransformersCheck.bound(DType.BF16, -9f));
    assertEquals(0.25, TransformersCheck.bound(DType.BF16, 7.9f));
    assertEquals(0.0625, TransformersCheck.bound(DType.F16, 10f)); // fp16: 2^-7
    assertEquals(8 * 0x1p-24, TransformersCheck.bound(DType.F16, 1e-9f)); // fp16's subnormals
    assertEquals(0.0, TransformersCheck.bound(DType.F32, 10f));
  }

  @Test
  void anAnchorWhoseEveryPromptPartsAtItsFirstStepChecksNothingAndFails() {
    int[] expected = {5, 6}, got = {7, 6};
    TransformersAnchor anchor =
        new TransformersAnchor(
            tmp,
            DType.BF16,
            List.of(new int[] {1}),
            List.of(new TransformersAnchor.Generated(expected, new double[] {0, 1})),
            List.of(new TransformersAnchor.Generated(expected, new double[] {0, 1})),
            "{}");
    TransformersCheck.Decoded decoded =
        new TransformersCheck.Decoded(
            DType.BF16, new int[][] {got}, new float[][] {{3f, 3f}}, new float[][] {{0f, 1f}});
    TransformersCheck.Report report = TransformersCheck.compare(anchor, decoded);
    assertTrue(report.prompts().getFirst().passes(), "a near tie at step 0 may part");
    assertEquals(0, report.agreed());
    assertFalse(report.passes(), report.summary());
  }

  @Test
  void aMalformedExpectedJsonIsRefusedNamingTheFileAndWhatIsWrong() throws IOException {
    Path dir = Files.createDirectories(tmp.resolve("m"));
    var missing = assertThrows(UncheckedIOException.class, () -> TransformersAnchor.read(dir));
    assertTrue(missing.getMessage().contains("expected.json"), missing.getMessage());
    assertTrue(missing.getMessage().contains("make_checkpoint.py"), missing.getMessage());

    TransformersAnchor.Generated g =
        new TransformersAnchor.Generated(new int[] {1, 2}, new double[] {0.5});
    TransformersAnchor.write(dir, DType.F32, List.of(new int[] {3}), List.of(g), List.of(g), "t");
    var shortGaps =
        assertThrows(IllegalArgumentException.class, () -> TransformersAnchor.read(dir));
    assertTrue(
        shortGaps.getMessage().contains("prompt 0 has 2 tokens and 1 gaps"),
        shortGaps.getMessage());

    Files.writeString(dir.resolve(TransformersAnchor.EXPECTED), "{\"dtype\": \"float64\"}");
    var dtype = assertThrows(IllegalArgumentException.class, () -> TransformersAnchor.read(dir));
    assertTrue(dtype.getMessage().contains("\"float64\""), dtype.getMessage());
  }
}
