// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 the cuda-graph authors
package cuda.graph.llm.internal.server;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.langchain4j.data.message.SystemMessage;
import dev.langchain4j.data.message.UserMessage;
import dev.langchain4j.exception.AuthenticationException;
import dev.langchain4j.model.chat.request.ChatRequest;
import dev.langchain4j.model.chat.response.ChatResponse;
import dev.langchain4j.model.openai.OpenAiChatModel;
import dev.langchain4j.model.openai.OpenAiLanguageModel;
import dev.langchain4j.model.openai.OpenAiStreamingChatModel;
import dev.langchain4j.model.output.FinishReason;
import dev.langchain4j.model.output.Response;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.jspecify.annotations.Nullable;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * LangChain4j's OpenAI client (langchain4j-open-ai, its JDK HTTP client) against the endpoint, as
 * an application talks to it: the paths, headers and fields it sends by default are all accepted.
 */
class LangChain4jClientTests {

  static final String KEY = "test-key";

  final ScriptedGenerator generator = new ScriptedGenerator();
  @Nullable OpenAiServer server;

  String baseUrl(ServerOptions options) {
    server = OpenAiServer.start(generator, OpenAiServerTests.TEMPLATE, options);
    return "http://127.0.0.1:" + server.address().getPort() + "/v1";
  }

  String baseUrl() {
    return baseUrl(
        ServerOptions.defaults()
            .withAddress(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0))
            .withApiKey(KEY));
  }

  @AfterEach
  void stop() throws InterruptedException {
    if (server != null) {
      server.close();
      assertEquals(0, server.generationsInFlight());
    }
    assertTrue(generator.awaitIdle(Duration.ofSeconds(5)), "every generation ended");
  }

  OpenAiStreamingChatModel streaming(String baseUrl, int maxTokens) {
    return OpenAiStreamingChatModel.builder()
        .baseUrl(baseUrl)
        .apiKey(KEY)
        .modelName("tiny-test")
        .maxTokens(maxTokens)
        .timeout(Duration.ofSeconds(20))
        .build();
  }

  @Test
  void aPlainChatAnswersTheGeneratedTextWithUsageAndFinishReason() {
    OpenAiChatModel model =
        OpenAiChatModel.builder()
            .baseUrl(baseUrl())
            .apiKey(KEY)
            .modelName("tiny-test")
            .maxTokens(4)
            .temperature(0.0)
            .seed(7)
            .build();
    ChatResponse response =
        model.chat(
            ChatRequest.builder()
                .messages(SystemMessage.from("be brief"), UserMessage.from("hello there"))
                .build());
    // "<system> be brief <user> hello there <assistant>": seven words.
    assertEquals(ScriptedGenerator.expectedText(7, 4), response.aiMessage().text());
    assertEquals(FinishReason.LENGTH, response.finishReason());
    assertEquals(7, response.tokenUsage().inputTokenCount());
    assertEquals(4, response.tokenUsage().outputTokenCount());
    assertEquals("tiny-test", response.modelName());
    assertEquals(7L, generator.submitted.getFirst().seed());
  }

  @Test
  void aStreamingChatDeliversThePiecesInOrderAndTheCompleteText() throws Exception {
    generator.delay = Duration.ofMillis(2);
    StreamedChat streamed = new StreamedChat(-1);
    streaming(baseUrl(), 12).chat("hi", streamed);
    ChatResponse response = streamed.done.get(20, TimeUnit.SECONDS);
    List<String> expected = new ArrayList<>();
    for (int i = 0; i < 12; i++) {
      expected.add(ScriptedGenerator.piece(3, i, 0));
    }
    assertEquals(expected, streamed.pieces, "one partial response per piece, in order");
    assertEquals(ScriptedGenerator.expectedText(3, 12), response.aiMessage().text());
    assertEquals(FinishReason.LENGTH, response.finishReason());
    assertEquals(15, response.tokenUsage().totalTokenCount(), "include_usage was honoured");
  }

  @Test
  void aCompletionThroughTheLanguageModel() {
    OpenAiLanguageModel model =
        OpenAiLanguageModel.builder()
            .baseUrl(baseUrl())
            .apiKey(KEY)
            .modelName("tiny-test")
            .temperature(0.0)
            .build();
    generator.context = 8;
    Response<String> response = model.generate("one two three");
    // BOS and three words leave 4 tokens of the context of 8.
    assertEquals(ScriptedGenerator.expectedText(4, 4), response.content());
    assertEquals(FinishReason.LENGTH, response.finishReason());
    assertEquals(4, response.tokenUsage().outputTokenCount());
  }

  @Test
  void twoConcurrentClientsEachGetTheirOwnCompleteStream() throws Exception {
    generator.delay = Duration.ofMillis(5);
    String base = baseUrl();
    StreamedChat a = new StreamedChat(-1);
    StreamedChat b = new StreamedChat(-1);
    streaming(base, 20).chat("short", a);
    streaming(base, 20).chat("a longer prompt", b);
    ChatResponse ra = a.done.get(20, TimeUnit.SECONDS);
    ChatResponse rb = b.done.get(20, TimeUnit.SECONDS);
    assertEquals(ScriptedGenerator.expectedText(3, 20), ra.aiMessage().text());
    assertEquals(ScriptedGenerator.expectedText(5, 20), rb.aiMessage().text());
    assertEquals(2, generator.mostActive.get(), "the two generations ran at the same time");
  }

  @Test
  void aClientThatDisconnectsMidStreamCancelsItsGeneration() throws Exception {
    generator.context = 10_000;
    generator.delay = Duration.ofMillis(10);
    StreamedChat streamed = new StreamedChat(3);
    streaming(baseUrl(), 1000).chat("hi", streamed);
    streamed.cancelled.get(20, TimeUnit.SECONDS);
    assertTrue(generator.awaitIdle(Duration.ofSeconds(5)), "the generation ended at once");
    assertEquals(1, generator.cancelled.get(), "it was cancelled");
    assertEquals(0, generator.finished.get(), "not run to its 1000 tokens");
    assertTrue(streamed.pieces.size() < 50, "pieces seen: " + streamed.pieces.size());
    long deadline = System.nanoTime() + Duration.ofSeconds(5).toNanos();
    while (server.generationsInFlight() > 0 && System.nanoTime() < deadline) {
      Thread.sleep(5);
    }
    assertEquals(0, server.generationsInFlight());
    // The endpoint serves the next client.
    StreamedChat next = new StreamedChat(-1);
    streaming("http://127.0.0.1:" + server.address().getPort() + "/v1", 2).chat("hi", next);
    assertEquals(
        ScriptedGenerator.expectedText(3, 2),
        next.done.get(20, TimeUnit.SECONDS).aiMessage().text());
  }

  @Test
  void aWrongKeyIsAnAuthenticationErrorForTheClient() {
    OpenAiChatModel model =
        OpenAiChatModel.builder()
            .baseUrl(baseUrl())
            .apiKey("wrong")
            .modelName("tiny-test")
            .maxRetries(0)
            .build();
    AuthenticationException e = assertThrows(AuthenticationException.class, () -> model.chat("hi"));
    assertTrue(e.getMessage().contains("Incorrect API key"), e.getMessage());
    assertTrue(generator.submitted.isEmpty());
  }
}
