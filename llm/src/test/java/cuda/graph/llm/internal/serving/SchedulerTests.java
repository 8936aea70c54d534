// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 the cuda-graph authors
package cuda.graph.llm.internal.serving;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import cuda.graph.CudaPlatform;
import cuda.graph.llm.internal.checkpoint.Checkpoint;
import cuda.graph.llm.internal.checkpoint.TinyCheckpoints;
import cuda.graph.llm.internal.engine.BatchStep;
import cuda.graph.llm.internal.engine.KvCache;
import cuda.graph.llm.internal.engine.ModelWeights;
import cuda.graph.llm.internal.reference.ReferenceModel;
import cuda.graph.llm.internal.server.GenerationRequest;
import cuda.graph.llm.internal.server.Generator;
import cuda.graph.llm.internal.server.TokenSink.FinishReason;
import cuda.graph.llm.internal.text.DecodeStream;
import cuda.graph.llm.internal.text.Tokenizer;
import cuda.graph.simulator.Simulator;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Random;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.atomic.AtomicReference;
import java.util.function.Function;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;
import org.junit.jupiter.api.io.TempDir;

/**
 * The scheduler on the simulator over a tiny fp32 checkpoint (in fp32 the engine's greedy tokens
 * are the reference's, CheckpointDecodeTests): prompts submitted together or at staggered steps
 * stream the text of the reference's greedy tokens; a cancel frees the blocks before the next step
 * while the others finish; a request that finds the cache full waits, then runs; a running one that
 * cannot extend ends with LENGTH; stop sequences, max tokens and end tokens end a request; seeded
 * sampling repeats; a failed step fails its requests only; bad requests are refused at submit.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class SchedulerTests {

  static final BatchStep.Limits LIMITS = new BatchStep.Limits(16, 8, 128, 64);

  private Path model;
  private Checkpoint checkpoint;
  private ModelWeights weights;
  private ReferenceModel reference;
  private Tokenizer tokenizer;
  private CudaPlatform simulator;

  @BeforeAll
  void writeModel(@TempDir Path tmp) {
    model = TinyCheckpoints.write(tmp.resolve("m"), TinyCheckpoints.Spec.tiny(71));
    checkpoint = Checkpoint.open(model);
    weights = ModelWeights.of(checkpoint);
    reference = ReferenceModel.load(checkpoint);
    tokenizer = Tokenizer.load(model.resolve("tokenizer.json"));
    simulator = CudaPlatform.forDriver(Simulator.builder().build(), "simulator");
  }

  @AfterAll
  void closeModel() {
    simulator.close();
    tokenizer.close();
    checkpoint.close();
  }

  /** Steps of a BatchStep on the simulator, {@code wrap} put around them. */
  private Scheduler scheduler(BatchStep.Limits limits, Function<Steps, Steps> wrap) {
    return new Scheduler(
        "tiny",
        limits.maxContext(),
        checkpoint.config().vocabSize(),
        tokenizer,
        checkpoint.config().eosTokenIds(),
        limits,
        () -> wrap.apply(StreamSteps.open(simulator.defaultDevice(), weights, limits, 0)));
  }

  private Scheduler scheduler(BatchStep.Limits limits) {
    return scheduler(limits, s -> s);
  }

  static GenerationRequest greedy(int[] prompt, int maxTokens) {
    return new GenerationRequest(prompt, maxTokens, 0, 1, null, List.of());
  }

  static List<int[]> prompts(long seed, int... lengths) {
    Random random = new Random(seed);
    List<int[]> out = new ArrayList<>();
    for (int length : lengths) {
      int[] p = new int[length];
      for (int i = 0; i < length; i++) {
        p[i] = random.nextInt(256);
      }
      out.add(p);
    }
    return out;
  }

  /** The reference's greedy continuation, as the scheduler streams it: text, tokens, reason. */
  record Expected(String text, int tokens, FinishReason reason) {}

  private Expected expected(int[] prompt, int maxTokens, List<String> stop) {
    int[] tokens = reference.generateGreedy(List.of(prompt), maxTokens).getFirst().tokens();
    DecodeStream stream = tokenizer.stream(stop);
    StringBuilder text = new StringBuilder();
    List<Integer> eos = checkpoint.config().eosTokenIds();
    for (int k = 0; k < tokens.length; k++) {
      if (eos.contains(tokens[k])) {
        return new Expected(text.append(stream.finish()).toString(), k + 1, FinishReason.STOP);
      }
      text.append(stream.next(tokens[k]));
      if (stream.stopped()) {
        return new Expected(text.toString(), k + 1, FinishReason.STOP);
      }
    }
    return new Expected(text.append(stream.finish()).toString(), maxTokens, FinishReason.LENGTH);
  }

  private static void assertGot(Expected expected, Recorder got, String what) {
    Recorder.Ended end = got.await();
    assertNull(end.failure(), what + " failed");
    assertEquals(expected.text(), got.text(), what + "'s text");
    assertEquals(expected.reason(), end.reason(), what + "'s finish reason");
    assertEquals(expected.tokens(), end.usage().completionTokens(), what + "'s tokens");
  }

  private static void awaitIdle(Scheduler s) {
    long deadline = System.nanoTime() + 30_000_000_000L;
    while (s.stats().running() + s.stats().waiting() > 0 || s.stats().usedBlocks() > 0) {
      assertTrue(System.nanoTime() < deadline, "still busy: " + s.stats());
      Thread.onSpinWait();
    }
  }

  @Test
  void eightPromptsSubmittedTogetherStreamTheReferencesGreedyText() {
    List<int[]> prompts = prompts(1, 1, 3, 5, 8, 13, 16, 2, 11);
    try (Scheduler s = scheduler(LIMITS)) {
      List<Recorder> got = new ArrayList<>();
      for (int[] p : prompts) {
        Recorder r = new Recorder();
        s.submit(greedy(p, 24), r);
        got.add(r);
      }
      for (int i = 0; i < prompts.size(); i++) {
        assertGot(expected(prompts.get(i), 24, List.of()), got.get(i), "prompt " + i);
      }
      awaitIdle(s);
      assertEquals(0, s.stats().usedBlocks(), "blocks left held");
    }
  }

  @Test
  void promptsSubmittedAtStaggeredStepsStreamTheReferencesGreedyText() {
    List<int[]> prompts = prompts(2, 20, 4, 9, 1, 30, 7, 12, 3);
    List<Recorder> got = new ArrayList<>();
    for (int i = 0; i < prompts.size(); i++) {
      got.add(new Recorder());
    }
    try (Scheduler s = scheduler(LIMITS)) {
      // The first two now, then one more after each of steps 1, 2, 4, 5, 7, 9.
      long[] at = {1, 2, 4, 5, 7, 9};
      s.afterStep(
          step -> {
            for (int k = 0; k < at.length; k++) {
              if (at[k] == step) {
                s.submit(greedy(prompts.get(k + 2), 20), got.get(k + 2));
              }
            }
          });
      s.submit(greedy(prompts.get(0), 20), got.get(0));
      s.submit(greedy(prompts.get(1), 20), got.get(1));
      for (int i = 0; i < prompts.size(); i++) {
        assertGot(expected(prompts.get(i), 20, List.of()), got.get(i), "prompt " + i);
      }
    }
  }

  @Test
  void aCancelFreesItsBlocksBeforeTheNextStepAndTheOthersFinish() {
    // a's 40-token prompt takes 3 blocks; b and c take one each for all of their 13 positions.
    List<int[]> prompts = prompts(3, 40, 3, 3);
    Recorder a = new Recorder(), b = new Recorder(), c = new Recorder();
    AtomicReference<Generator.Handle> handle = new AtomicReference<>();
    List<Scheduler.Stats> seen = new CopyOnWriteArrayList<>();
    AtomicReference<Integer> piecesAtCancel = new AtomicReference<>();
    try (Scheduler s = scheduler(LIMITS)) {
      s.afterStep(
          step -> {
            seen.add(s.stats());
            if (step == 5) {
              piecesAtCancel.set(a.pieceCount());
              handle.get().cancel();
            }
          });
      handle.set(s.submit(greedy(prompts.get(0), 60), a));
      s.submit(greedy(prompts.get(1), 10), b);
      s.submit(greedy(prompts.get(2), 10), c);
      assertNull(b.await().failure());
      assertNull(c.await().failure());
      awaitIdle(s);
      // Steps 1-3 prefill a (16, 16, 8 tokens, b and c beside the last), 4 and 5 decode all three.
      assertEquals(5, seen.get(4).usedBlocks(), "a's 3 blocks and b's and c's before the cancel");
      assertEquals(2, seen.get(5).usedBlocks(), "b's and c's blocks in the step after the cancel");
      assertFalse(a.ended.isDone(), "a cancelled generation was told it ended");
      assertEquals(piecesAtCancel.get(), a.pieceCount(), "text after the cancel");
      assertEquals(0, s.stats().usedBlocks());
    }
  }

  @Test
  void aRequestThatFindsTheCacheFullWaitsThenRuns() {
    // Four blocks: a holds three for its prompt of 40 and a fourth from position 48; b's prompt
    // of 20 needs two, so it waits until a ends.
    BatchStep.Limits small = new BatchStep.Limits(16, 4, 64, 4);
    List<int[]> prompts = prompts(4, 40, 20);
    List<String> events = new ArrayList<>();
    Recorder a = new Recorder("a", events), b = new Recorder("b", events);
    List<Scheduler.Stats> seen = new CopyOnWriteArrayList<>();
    try (Scheduler s = scheduler(small)) {
      s.afterStep(step -> seen.add(s.stats()));
      s.submit(greedy(prompts.get(0), 20), a);
      s.submit(greedy(prompts.get(1), 20), b);
      assertGot(expected(prompts.get(0), 20, List.of()), a, "a");
      assertGot(expected(prompts.get(1), 20, List.of()), b, "b");
      assertEquals(1, seen.get(2).waiting(), "b waiting while a decodes: " + seen.get(2));
      synchronized (events) {
        assertTrue(events.indexOf("a end") < events.indexOf("b text"), events.toString());
      }
    }
  }

  @Test
  void aRunningRequestThatCannotExtendEndsWithLengthAndTheNextTakesItsBlocks() {
    // Both prompts of 30 hold two of the four blocks; at position 32 neither can extend.
    BatchStep.Limits small = new BatchStep.Limits(64, 4, 64, 4);
    List<int[]> prompts = prompts(5, 30, 30);
    Recorder a = new Recorder(), b = new Recorder(), c = new Recorder();
    try (Scheduler s = scheduler(small)) {
      s.submit(greedy(prompts.get(0), 30), a);
      s.submit(greedy(prompts.get(1), 30), b);
      // a, first in admission order, is the first that cannot extend: it ends, and b takes its
      // blocks and goes on to its 30 tokens.
      Expected aAlone = expected(prompts.get(0), 30, List.of());
      assertTrue(aAlone.tokens() > 3, "a's greedy text ends at an end token: " + aAlone);
      Recorder.Ended aEnd = a.await();
      assertEquals(FinishReason.LENGTH, aEnd.reason());
      assertEquals(3, aEnd.usage().completionTokens(), "a's tokens at positions 30, 31, 32");
      assertGot(expected(prompts.get(1), 30, List.of()), b, "b");
      s.submit(greedy(prompts.get(0), 30), c);
      assertGot(expected(prompts.get(0), 30, List.of()), c, "the next request, alone");
      awaitIdle(s);
    }
  }

  @Test
  void maxTokensStopSequencesAndEndTokensEndARequest() {
    List<int[]> prompts = prompts(6, 5, 9, 2);
    try (Scheduler s = scheduler(LIMITS)) {
      // Max tokens.
      Recorder few = new Recorder();
      s.submit(greedy(prompts.get(0), 3), few);
      assertGot(expected(prompts.get(0), 3, List.of()), few, "three tokens");
      // A stop sequence: two characters from the middle of a text that has some (the tiny
      // model's bytes are often half characters).
      int[] prompt = null;
      String stop = "";
      for (int[] p : prompts(9, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16)) {
        String text = expected(p, 40, List.of()).text();
        for (int at = 4; at + 2 <= text.length() && prompt == null; at++) {
          if (!text.substring(at, at + 2).contains("\uFFFD")) {
            prompt = p;
            stop = text.substring(at, at + 2);
          }
        }
      }
      assertTrue(prompt != null, "no prompt's text has two whole characters");
      Recorder stopped = new Recorder();
      s.submit(new GenerationRequest(prompt, 40, 0, 1, null, List.of(stop)), stopped);
      Expected cut = expected(prompt, 40, List.of(stop));
      assertEquals(FinishReason.STOP, cut.reason());
      assertFalse(cut.text().contains(stop));
      assertGot(cut, stopped, "stopped");
      assertTrue(cut.tokens() < 40);
      awaitIdle(s);
    }
  }

  @Test
  void seededSamplingRepeatsAloneAndInABatch() {
    List<int[]> prompts = prompts(7, 6, 11, 3);
    GenerationRequest seeded = new GenerationRequest(prompts.get(0), 24, 2.0, 1, 1234L, List.of());
    try (Scheduler s = scheduler(LIMITS)) {
      Recorder alone = new Recorder();
      s.submit(seeded, alone);
      alone.await();
      Recorder batched = new Recorder(), other = new Recorder(), otherSeed = new Recorder();
      s.submit(greedy(prompts.get(1), 24), other);
      s.submit(seeded, batched);
      s.submit(new GenerationRequest(prompts.get(0), 24, 2.0, 1, 99L, List.of()), otherSeed);
      s.submit(greedy(prompts.get(2), 24), new Recorder());
      assertEquals(alone.await(), batched.await());
      assertEquals(alone.text(), batched.text(), "the seeded text alone and in a batch");
      otherSeed.await();
      assertNotEquals(alone.text(), otherSeed.text(), "another seed drew the same text");
      assertNotEquals(expected(prompts.get(0), 24, List.of()).text(), alone.text(), "greedy");
    }
  }

  @Test
  void aFailedStepFailsItsRequestsAndTheEngineServesTheNext() {
    List<int[]> prompts = prompts(8, 4, 6);
    IllegalStateException boom = new IllegalStateException("boom");
    try (Scheduler s =
        scheduler(
            LIMITS,
            steps ->
                new Steps() {
                  @Override
                  public int[] run(List<BatchStep.Chunk> chunks) {
                    for (BatchStep.Chunk c : chunks) {
                      if (Arrays.stream(c.tokens()).anyMatch(t -> t == 300 - 1)) {
                        throw boom;
                      }
                    }
                    return steps.run(chunks);
                  }

                  @Override
                  public void close() {
                    steps.close();
                  }
                })) {
      Recorder bad = new Recorder();
      s.submit(greedy(new int[] {1, 299, 2}, 5), bad);
      assertSame(boom, bad.await().failure());
      awaitIdle(s);
      Recorder good = new Recorder();
      s.submit(greedy(prompts.get(0), 12), good);
      assertGot(expected(prompts.get(0), 12, List.of()), good, "the next request");
    }
  }

  @Test
  void promptsBeyondTheContextOrTheCacheAreRefusedAtSubmitNamingTheNumbers() {
    try (Scheduler s = scheduler(new BatchStep.Limits(16, 4, 64, 2))) {
      var context =
          assertThrows(
              IllegalArgumentException.class,
              () -> s.submit(greedy(new int[60], 10), new Recorder()));
      assertTrue(
          context.getMessage().contains("60 tokens and maxTokens 10")
              && context.getMessage().contains("context of 64"),
          context.getMessage());
      var cache =
          assertThrows(
              IllegalArgumentException.class,
              () -> s.submit(greedy(new int[40], 10), new Recorder()));
      assertTrue(cache.getMessage().contains("needs 3 KV blocks"), cache.getMessage());
      assertEquals(2, KvCache.blocksFor(32));
    }
  }
}
