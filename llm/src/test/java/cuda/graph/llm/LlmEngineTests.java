// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 the cuda-graph authors
package cuda.graph.llm;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import cuda.graph.CudaPlatform;
import cuda.graph.llm.internal.checkpoint.Checkpoint;
import cuda.graph.llm.internal.reference.ReferenceModel;
import cuda.graph.llm.internal.serving.LlmEngineImpl;
import cuda.graph.llm.internal.serving.Scheduler;
import cuda.graph.llm.internal.text.DecodeStream;
import cuda.graph.llm.internal.text.Tokenizer;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.CompletionException;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;
import org.junit.jupiter.api.io.TempDir;

/**
 * The public engine on the simulator over a tiny fp32 checkpoint: a generation streams the
 * reference model's greedy text, a cancel ends it CANCELLED and frees its blocks, seeded sampling
 * repeats, and bad requests are refused on the caller's thread naming the numbers.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class LlmEngineTests {

  private TinyEngine tiny;
  private Path model;
  private CudaPlatform simulator;
  private LlmEngine engine;

  @BeforeAll
  void open(@TempDir Path tmp) {
    tiny = TinyEngine.open(tmp, 81, 32);
    model = tiny.model();
    simulator = tiny.simulator();
    engine = tiny.engine();
  }

  @AfterAll
  void close() {
    tiny.close();
  }

  static Scheduler scheduler(LlmEngine engine) {
    return ((LlmEngineImpl) engine).scheduler();
  }

  /** The reference model's greedy text after {@code prompt}, cut where the engine cuts it. */
  static Completion referenceGreedy(Path model, int[] prompt, int maxTokens) {
    try (Checkpoint checkpoint = Checkpoint.open(model);
        Tokenizer tokenizer = Tokenizer.load(model.resolve("tokenizer.json"))) {
      int[] tokens =
          ReferenceModel.load(checkpoint)
              .generateGreedy(List.of(prompt), maxTokens)
              .getFirst()
              .tokens();
      DecodeStream stream = tokenizer.stream(List.of());
      StringBuilder text = new StringBuilder();
      for (int k = 0; k < tokens.length; k++) {
        if (checkpoint.config().eosTokenIds().contains(tokens[k])) {
          return new Completion(
              text.append(stream.finish()).toString(), prompt.length, k + 1, FinishReason.STOP);
        }
        text.append(stream.next(tokens[k]));
      }
      return new Completion(
          text.append(stream.finish()).toString(), prompt.length, maxTokens, FinishReason.LENGTH);
    }
  }

  static void awaitIdle(LlmEngine engine) {
    long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(30);
    while (scheduler(engine).stats().usedBlocks() > 0 || scheduler(engine).stats().running() > 0) {
      assertTrue(System.nanoTime() < deadline, "still busy: " + scheduler(engine).stats());
      Thread.onSpinWait();
    }
  }

  @Test
  void aGreedyGenerationStreamsTheReferenceModelsText() {
    List<String> pieces = new CopyOnWriteArrayList<>();
    Completion done =
        engine
            .generate("hello world", GenerationOptions.greedy(24), pieces::add)
            .completion()
            .join();
    int[] prompt = scheduler(engine).tokenize("hello world", true);
    assertEquals(referenceGreedy(model, prompt, 24), done);
    assertEquals(done.text(), String.join("", pieces), "the pieces, in order, are the text");
    assertEquals(prompt.length, done.promptTokens());
  }

  @Test
  void aCancelledGenerationCompletesCancelledAndItsBlocksAreFreed() throws Exception {
    int[] prompt = scheduler(engine).tokenize("a long one", true);
    Completion whole = referenceGreedy(model, prompt, 200);
    assertEquals(FinishReason.LENGTH, whole.finishReason(), "the prompt's text runs to 200");
    List<String> pieces = new CopyOnWriteArrayList<>();
    CountDownLatch firstPiece = new CountDownLatch(1);
    scheduler(engine).afterStep(step -> pace());
    try {
      long cancelledBefore = scheduler(engine).stats().cancelled();
      Generation g =
          engine.generate(
              "a long one",
              GenerationOptions.greedy(200),
              p -> {
                pieces.add(p);
                firstPiece.countDown();
              });
      assertTrue(firstPiece.await(30, TimeUnit.SECONDS), "no text came");
      g.cancel(); // from the test's thread, while the engine runs
      Completion done = g.completion().join();
      assertEquals(FinishReason.CANCELLED, done.finishReason());
      assertTrue(done.completionTokens() < 200, done.toString());
      assertEquals(String.join("", pieces), done.text(), "the text up to the cancel");
      assertTrue(whole.text().startsWith(done.text()), done.text());
      long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(30);
      while (scheduler(engine).stats().cancelled() == cancelledBefore) {
        assertTrue(System.nanoTime() < deadline, "the cancel was not applied");
        Thread.onSpinWait();
      }
      assertEquals(0, scheduler(engine).stats().usedBlocks(), "its blocks are freed");
      assertEquals(0, scheduler(engine).stats().running());
      g.cancel(); // idempotent
      assertEquals(done, g.completion().join());
    } finally {
      scheduler(engine).afterStep(null);
    }
  }

  /** Slows the engine down so a cancel lands mid-generation (5 ms a step). */
  static void pace() {
    try {
      Thread.sleep(5);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
  }

  @Test
  void seededSamplingRepeatsAndAnotherSeedDiffers() {
    GenerationOptions seeded =
        GenerationOptions.greedy(24).withSampling(new Sampling.Random(2.0, 1.0, 5));
    String first = engine.generate("abc", seeded, p -> {}).completion().join().text();
    String again = engine.generate("abc", seeded, p -> {}).completion().join().text();
    String other =
        engine
            .generate("abc", seeded.withSampling(new Sampling.Random(2.0, 1.0, 6)), p -> {})
            .completion()
            .join()
            .text();
    assertEquals(first, again);
    assertNotEquals(first, other);
  }

  @Test
  void aTextConsumerThatThrowsFailsItsOwnGenerationOnly() {
    IllegalStateException boom = new IllegalStateException("consumer failed");
    Generation bad =
        engine.generate(
            "abc",
            GenerationOptions.greedy(8),
            p -> {
              throw boom;
            });
    Generation good = engine.generate("abc", GenerationOptions.greedy(8), p -> {});
    CompletionException e = assertThrows(CompletionException.class, () -> bad.completion().join());
    assertEquals(boom, e.getCause());
    assertEquals(
        referenceGreedy(model, scheduler(engine).tokenize("abc", true), 8),
        good.completion().join());
    awaitIdle(engine);
  }

  @Test
  void badRequestsAreRefusedOnTheCallersThreadNamingTheNumbers() {
    assertEquals(256, engine.contextLength(), "config.json's max_position_embeddings");
    assertEquals("tiny", engine.modelName());
    var empty =
        assertThrows(
            IllegalArgumentException.class,
            () -> engine.generate("", GenerationOptions.greedy(4), p -> {}));
    assertTrue(empty.getMessage().contains("empty"), empty.getMessage());
    var tooLong =
        assertThrows(
            IllegalArgumentException.class,
            () -> engine.generate("hi", GenerationOptions.greedy(300), p -> {}));
    assertTrue(
        tooLong.getMessage().contains("maxTokens 300") && tooLong.getMessage().contains("256"),
        tooLong.getMessage());
    assertThrows(IllegalArgumentException.class, () -> GenerationOptions.greedy(0));
    assertThrows(IllegalArgumentException.class, () -> new Sampling.Random(0, 1, 1));
    var builder =
        assertThrows(
            IllegalArgumentException.class,
            () ->
                LlmEngine.builder(model)
                    .device(simulator.defaultDevice())
                    .maxSequences(8)
                    .maxTokensPerStep(4)
                    .build());
    assertTrue(builder.getMessage().contains("maxSequences 8"), builder.getMessage());
  }

  @Test
  void aShorterContextLengthBoundsEachGenerationAndALongerOneIsRefusedWithTheNumbers() {
    try (LlmEngine shorter =
        LlmEngine.builder(model)
            .device(simulator.defaultDevice())
            .kvCacheBlocks(64)
            .contextLength(40)
            .build()) {
      assertEquals(40, shorter.contextLength());
      var tooLong =
          assertThrows(
              IllegalArgumentException.class,
              () -> shorter.generate("hi", GenerationOptions.greedy(39), p -> {}));
      assertTrue(tooLong.getMessage().contains("40"), tooLong.getMessage());
      assertEquals(
          FinishReason.LENGTH,
          shorter
              .generate("hi", GenerationOptions.greedy(8), p -> {})
              .completion()
              .join()
              .finishReason());
    }
    var above =
        assertThrows(
            IllegalArgumentException.class,
            () ->
                LlmEngine.builder(model)
                    .device(simulator.defaultDevice())
                    .kvCacheBlocks(64)
                    .contextLength(257)
                    .build());
    assertTrue(
        above.getMessage().contains("contextLength 257")
            && above.getMessage().contains("at most 256"),
        above.getMessage());
    assertThrows(IllegalArgumentException.class, () -> LlmEngine.builder(model).contextLength(1));
  }

  @Test
  void aClosedEngineRefusesNewGenerations() {
    LlmEngine closed = LlmEngine.builder(model).device(simulator.defaultDevice()).build();
    closed.close();
    closed.close();
    var e =
        assertThrows(
            IllegalStateException.class,
            () -> closed.generate("hi", GenerationOptions.greedy(4), p -> {}));
    assertInstanceOf(IllegalStateException.class, e);
    assertTrue(e.getMessage().contains("closed"), e.getMessage());
  }
}
