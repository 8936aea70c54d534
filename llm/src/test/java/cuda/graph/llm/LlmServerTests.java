// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 the cuda-graph authors
package cuda.graph.llm;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import cuda.graph.llm.internal.server.StreamedChat;
import cuda.graph.llm.internal.serving.LlmEngineImpl;
import cuda.graph.llm.internal.serving.Scheduler;
import dev.langchain4j.model.chat.response.ChatResponse;
import dev.langchain4j.model.openai.OpenAiStreamingChatModel;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;
import org.junit.jupiter.api.io.TempDir;

/**
 * The acceptance test on the simulator: {@link LlmServer} over {@link LlmEngine} over a
 * tiny checkpoint directory, with LangChain4j's OpenAI client (langchain4j-open-ai): a streaming
 * chat whose text is the engine's greedy generation for the rendered template (and the reference
 * model's), two concurrent clients each served their own text while both run in the engine, and a
 * client that disconnects mid-stream, whose generation is cancelled and whose KV blocks are freed
 * (read from the engine's scheduler), the next client served after it.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class LlmServerTests {

  static final String KEY = "acceptance-key";

  private TinyEngine tiny;
  private LlmEngine engine;
  private LlmServer server;

  @BeforeAll
  void start(@TempDir Path tmp) {
    tiny = TinyEngine.open(tmp, 91, 64);
    engine = tiny.engine();
    server = LlmServer.start(engine, LlmServer.Config.localhost(0).withApiKey(KEY));
  }

  @AfterAll
  void stop() {
    server.close();
    tiny.close();
  }

  @AfterEach
  void unpace() {
    scheduler().afterStep(null);
  }

  Scheduler scheduler() {
    return ((LlmEngineImpl) engine).scheduler();
  }

  OpenAiStreamingChatModel client(int maxTokens) {
    return OpenAiStreamingChatModel.builder()
        .baseUrl("http://127.0.0.1:" + server.port() + "/v1")
        .apiKey(KEY)
        .modelName(engine.modelName())
        .maxTokens(maxTokens)
        .temperature(0.0)
        .timeout(Duration.ofSeconds(60))
        .build();
  }

  /** The engine's own greedy answer to one user message. */
  String engineGreedy(String user, int maxTokens) {
    return engine
        .chat(List.of(new ChatMessage("user", user)), GenerationOptions.greedy(maxTokens), p -> {})
        .completion()
        .join()
        .text();
  }

  /** The reference model's greedy answer, over the rendered template's tokens. */
  Completion referenceGreedy(String user, int maxTokens) {
    String rendered = ((LlmEngineImpl) engine).render(List.of(new ChatMessage("user", user)));
    return LlmEngineTests.referenceGreedy(
        tiny.model(), scheduler().tokenize(rendered, false), maxTokens);
  }

  @Test
  void aStreamingChatStreamsTheEnginesGreedyTextForTheRenderedTemplate() throws Exception {
    StreamedChat streamed = new StreamedChat(-1);
    client(24).chat("Hello there!", streamed);
    ChatResponse response = streamed.done.get(60, TimeUnit.SECONDS);
    String expected = engineGreedy("Hello there!", 24);
    assertEquals(expected, response.aiMessage().text());
    assertEquals(expected, String.join("", streamed.pieces), "the pieces, in order");
    assertEquals(referenceGreedy("Hello there!", 24).text(), expected, "the reference's text");
  }

  @Test
  void twoConcurrentClientsEachGetTheirOwnTextWhileBothRunInTheEngine() throws Exception {
    AtomicInteger mostRunning = new AtomicInteger();
    scheduler()
        .afterStep(
            step -> {
              mostRunning.accumulateAndGet(scheduler().stats().running(), Math::max);
              pace();
            });
    StreamedChat a = new StreamedChat(-1), b = new StreamedChat(-1);
    client(32).chat("first client", a);
    client(32).chat("the second client asks", b);
    String textA = a.done.get(60, TimeUnit.SECONDS).aiMessage().text();
    String textB = b.done.get(60, TimeUnit.SECONDS).aiMessage().text();
    scheduler().afterStep(null);
    assertEquals(engineGreedy("first client", 32), textA);
    assertEquals(engineGreedy("the second client asks", 32), textB);
    assertEquals(2, mostRunning.get(), "the two generations shared steps");
  }

  @Test
  void aClientThatDisconnectsMidStreamHasItsGenerationCancelledAndItsBlocksFreed()
      throws Exception {
    assertEquals(
        FinishReason.LENGTH,
        referenceGreedy("tell me a long story", 200).finishReason(),
        "the answer runs to 200 tokens");
    long cancelledBefore = scheduler().stats().cancelled();
    scheduler().afterStep(step -> pace());
    StreamedChat streamed = new StreamedChat(3);
    client(200).chat("tell me a long story", streamed);
    streamed.cancelled.get(60, TimeUnit.SECONDS);
    long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(30);
    while (scheduler().stats().cancelled() == cancelledBefore) {
      assertTrue(System.nanoTime() < deadline, "not cancelled: " + scheduler().stats());
      Thread.sleep(1);
    }
    Scheduler.Stats after = scheduler().stats();
    assertEquals(0, after.running(), after.toString());
    assertEquals(0, after.usedBlocks(), "the disconnected client's blocks are freed: " + after);
    assertTrue(streamed.pieces.size() < 200, "pieces seen: " + streamed.pieces.size());
    // The next client is served.
    scheduler().afterStep(null);
    StreamedChat next = new StreamedChat(-1);
    client(8).chat("and now?", next);
    assertEquals(
        engineGreedy("and now?", 8), next.done.get(60, TimeUnit.SECONDS).aiMessage().text());
  }

  /** Slows the engine to 5 ms a step, so that clients overlap and a disconnect lands mid-stream. */
  static void pace() {
    try {
      Thread.sleep(5);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
  }
}
