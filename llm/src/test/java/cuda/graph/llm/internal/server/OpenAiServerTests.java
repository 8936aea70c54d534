// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 the cuda-graph authors
package cuda.graph.llm.internal.server;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.google.gson.JsonObject;
import com.google.gson.JsonParser;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.stream.Collectors;
import org.jspecify.annotations.Nullable;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/** The endpoint over raw HTTP: the shapes of answers and every refusal, its status and shape. */
class OpenAiServerTests {

  static final ChatMessage.Template TEMPLATE =
      messages ->
          messages.stream()
                  .map(m -> "<" + m.role() + "> " + m.content())
                  .collect(Collectors.joining(" "))
              + " <assistant>";

  final ScriptedGenerator generator = new ScriptedGenerator();
  final HttpClient client =
      HttpClient.newBuilder()
          .version(HttpClient.Version.HTTP_1_1)
          .connectTimeout(Duration.ofSeconds(5))
          .build();
  @Nullable OpenAiServer server;

  OpenAiServer start(ServerOptions options) {
    server = OpenAiServer.start(generator, TEMPLATE, options);
    return server;
  }

  static ServerOptions local() {
    return ServerOptions.defaults()
        .withAddress(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0));
  }

  @AfterEach
  void stop() throws InterruptedException {
    if (server != null) {
      server.close();
      assertEquals(0, server.generationsInFlight(), "no generation is left behind");
    }
    assertTrue(generator.awaitIdle(Duration.ofSeconds(5)), "every generation ended: " + generator);
    client.close();
  }

  URI uri(String path) {
    InetSocketAddress a = server.address();
    return URI.create("http://127.0.0.1:" + a.getPort() + path);
  }

  HttpResponse<String> post(String path, String body, @Nullable String key) throws Exception {
    HttpRequest.Builder b =
        HttpRequest.newBuilder(uri(path))
            .timeout(Duration.ofSeconds(20))
            .header("Content-Type", "application/json")
            .POST(HttpRequest.BodyPublishers.ofString(body));
    if (key != null) {
      b.header("Authorization", "Bearer " + key);
    }
    return client.send(b.build(), HttpResponse.BodyHandlers.ofString());
  }

  HttpResponse<String> post(String path, String body) throws Exception {
    return post(path, body, null);
  }

  static JsonObject json(HttpResponse<String> r) {
    return JsonParser.parseString(r.body()).getAsJsonObject();
  }

  /** Asserts OpenAI's error shape and status; returns the error object. */
  static JsonObject assertError(HttpResponse<String> r, int status, @Nullable String param) {
    assertEquals(status, r.statusCode(), r.body());
    assertTrue(
        r.headers().firstValue("Content-Type").orElse("").startsWith("application/json"),
        "errors are JSON");
    JsonObject body = json(r);
    assertEquals(1, body.size(), "only 'error': " + body);
    JsonObject error = body.getAsJsonObject("error");
    assertEquals(
        List.of("code", "message", "param", "type"),
        error.keySet().stream().sorted().toList(),
        "OpenAI's four fields");
    assertFalse(error.get("message").getAsString().isBlank());
    assertFalse(error.get("type").getAsString().isBlank());
    if (param == null) {
      assertTrue(error.get("param").isJsonNull(), "no param: " + error);
    } else {
      assertEquals(param, error.get("param").getAsString());
    }
    return error;
  }

  // ---- answers -------------------------------------------------------------------------------

  @Test
  void aCompletionAnswersTheGeneratedTextItsFinishReasonAndUsage() throws Exception {
    start(local());
    HttpResponse<String> r =
        post(
            "/v1/completions", "{\"model\":\"tiny-test\",\"prompt\":\"one two\",\"max_tokens\":3}");
    assertEquals(200, r.statusCode(), r.body());
    JsonObject body = json(r);
    assertEquals("text_completion", body.get("object").getAsString());
    assertTrue(body.get("id").getAsString().startsWith("cmpl-"));
    assertEquals("tiny-test", body.get("model").getAsString());
    assertTrue(body.get("created").getAsLong() > 1_700_000_000L);
    JsonObject choice = body.getAsJsonArray("choices").get(0).getAsJsonObject();
    // "one two" is BOS and two words: three tokens.
    assertEquals(ScriptedGenerator.expectedText(3, 3), choice.get("text").getAsString());
    assertEquals("length", choice.get("finish_reason").getAsString());
    JsonObject usage = body.getAsJsonObject("usage");
    assertEquals(3, usage.get("prompt_tokens").getAsInt());
    assertEquals(3, usage.get("completion_tokens").getAsInt());
    assertEquals(6, usage.get("total_tokens").getAsInt());
    GenerationRequest sent = generator.submitted.getFirst();
    assertEquals(ScriptedGenerator.BOS, sent.promptTokens()[0], "a completion adds BOS");
    assertEquals(1.0, sent.temperature(), "OpenAI's default temperature");
  }

  @Test
  void theRequestsSamplingFieldsReachTheGenerator() throws Exception {
    start(local());
    HttpResponse<String> r =
        post(
            "/v1/chat/completions",
            "{\"messages\":[{\"role\":\"user\",\"content\":\"hi\"}],\"max_completion_tokens\":4,"
                + "\"max_tokens\":9,\"temperature\":0,\"top_p\":0.5,\"seed\":42,\"stop\":\"x\","
                + "\"user\":\"someone\",\"n\":1}");
    assertEquals(200, r.statusCode(), r.body());
    GenerationRequest sent = generator.submitted.getFirst();
    assertEquals(4, sent.maxTokens(), "max_completion_tokens wins over max_tokens");
    assertEquals(0.0, sent.temperature());
    assertEquals(0.5, sent.topP());
    assertEquals(42L, sent.seed());
    assertEquals(List.of("x"), sent.stop());
    // The template's text, without BOS: "<user> hi <assistant>" is three words.
    assertEquals(3, sent.promptTokens().length);
  }

  @Test
  void aStopSequenceEndsTheTextBeforeItWithFinishReasonStop() throws Exception {
    start(local());
    HttpResponse<String> r =
        post(
            "/v1/chat/completions",
            "{\"messages\":[{\"role\":\"user\",\"content\":\"hi\"}],\"stop\":[\"w3.2\"]}");
    JsonObject choice = json(r).getAsJsonArray("choices").get(0).getAsJsonObject();
    assertEquals("stop", choice.get("finish_reason").getAsString());
    JsonObject message = choice.getAsJsonObject("message");
    assertEquals("assistant", message.get("role").getAsString());
    assertEquals(ScriptedGenerator.expectedText(3, 2), message.get("content").getAsString());
    assertEquals(
        List.of("w3.2"), generator.submitted.getFirst().stop(), "stop reaches the generator");
  }

  @Test
  void withoutMaxTokensTheGenerationFillsTheContextUpToTheServersBound() throws Exception {
    generator.context = 16;
    start(local().withMaxTokensPerRequest(100));
    post("/v1/completions", "{\"prompt\":\"a b c\"}");
    assertEquals(12, generator.submitted.getFirst().maxTokens(), "16 - 4 prompt tokens");
  }

  @Test
  void aPromptOfTokenIdsIsSubmittedAsGiven() throws Exception {
    start(local());
    HttpResponse<String> r = post("/v1/completions", "{\"prompt\":[5,6,7],\"max_tokens\":1}");
    assertEquals(200, r.statusCode(), r.body());
    assertEquals(List.of(5, 6, 7), boxed(generator.submitted.getFirst().promptTokens()));
  }

  static List<Integer> boxed(int[] ids) {
    List<Integer> out = new ArrayList<>();
    for (int id : ids) {
      out.add(id);
    }
    return out;
  }

  @Test
  void modelsListsTheServedModel() throws Exception {
    start(local());
    HttpResponse<String> r =
        client.send(
            HttpRequest.newBuilder(uri("/v1/models")).GET().build(),
            HttpResponse.BodyHandlers.ofString());
    assertEquals(200, r.statusCode());
    JsonObject body = json(r);
    assertEquals("list", body.get("object").getAsString());
    JsonObject model = body.getAsJsonArray("data").get(0).getAsJsonObject();
    assertEquals("tiny-test", model.get("id").getAsString());
    assertEquals("model", model.get("object").getAsString());
  }

  @Test
  void aStreamSendsOneChunkPerPieceInOrderThenTheFinishTheUsageAndDone() throws Exception {
    start(local());
    HttpResponse<String> r =
        post(
            "/v1/chat/completions",
            "{\"messages\":[{\"role\":\"user\",\"content\":\"hi\"}],\"max_tokens\":3,"
                + "\"stream\":true,\"stream_options\":{\"include_usage\":true}}");
    assertEquals(200, r.statusCode());
    assertTrue(r.headers().firstValue("Content-Type").orElse("").startsWith("text/event-stream"));
    List<String> data = dataLines(r.body());
    assertEquals("[DONE]", data.getLast());
    List<JsonObject> chunks =
        data.subList(0, data.size() - 1).stream()
            .map(d -> JsonParser.parseString(d).getAsJsonObject())
            .toList();
    // role, three pieces, finish, usage
    assertEquals(6, chunks.size(), data.toString());
    String id = chunks.getFirst().get("id").getAsString();
    for (JsonObject c : chunks) {
      assertEquals("chat.completion.chunk", c.get("object").getAsString());
      assertEquals(id, c.get("id").getAsString(), "one id for the stream");
    }
    assertEquals("assistant", delta(chunks.get(0)).get("role").getAsString());
    for (int i = 0; i < 3; i++) {
      assertEquals(
          ScriptedGenerator.piece(3, i, 0), delta(chunks.get(1 + i)).get("content").getAsString());
      assertTrue(chunks.get(1 + i).get("usage").isJsonNull(), "usage null until the last");
    }
    assertEquals(
        "length",
        chunks
            .get(4)
            .getAsJsonArray("choices")
            .get(0)
            .getAsJsonObject()
            .get("finish_reason")
            .getAsString());
    assertEquals(0, chunks.get(5).getAsJsonArray("choices").size());
    assertEquals(6, chunks.get(5).getAsJsonObject("usage").get("total_tokens").getAsInt());
  }

  @Test
  void aCompletionStreamCarriesTextChunksAndNoUsageUnlessAsked() throws Exception {
    start(local());
    HttpResponse<String> r =
        post("/v1/completions", "{\"prompt\":\"a\",\"max_tokens\":2,\"stream\":true}");
    List<String> data = dataLines(r.body());
    assertEquals(4, data.size(), data.toString());
    JsonObject first = JsonParser.parseString(data.get(0)).getAsJsonObject();
    assertEquals("text_completion", first.get("object").getAsString());
    assertFalse(first.has("usage"));
    assertEquals(
        ScriptedGenerator.piece(2, 0, 0),
        first.getAsJsonArray("choices").get(0).getAsJsonObject().get("text").getAsString());
    assertEquals("[DONE]", data.get(3));
  }

  static JsonObject delta(JsonObject chunk) {
    return chunk.getAsJsonArray("choices").get(0).getAsJsonObject().getAsJsonObject("delta");
  }

  static List<String> dataLines(String body) {
    List<String> data = new ArrayList<>();
    for (String event : body.split("\n\n")) {
      if (!event.isBlank()) {
        assertTrue(event.startsWith("data: "), "an SSE data line: " + event);
        data.add(event.substring("data: ".length()));
      }
    }
    return data;
  }

  // ---- refusals ------------------------------------------------------------------------------

  @Test
  void anUnknownParameterIsRefusedByName() throws Exception {
    start(local());
    JsonObject error =
        assertError(post("/v1/completions", "{\"prompt\":\"a\",\"top_k\":5}"), 400, "top_k");
    assertEquals("invalid_request_error", error.get("type").getAsString());
    assertTrue(error.get("message").getAsString().contains("top_k"));
    assertError(
        post(
            "/v1/chat/completions",
            "{\"messages\":[{\"role\":\"user\",\"content\":\"hi\"}],\"tools\":[]}"),
        400,
        "tools");
    assertError(
        post(
            "/v1/chat/completions",
            "{\"messages\":[{\"role\":\"user\",\"content\":\"hi\"}],\"stream\":true,"
                + "\"stream_options\":{\"include_obfuscation\":true}}"),
        400,
        "stream_options.include_obfuscation");
    assertError(
        post("/v1/completions", "{\"prompt\":\"a\",\"max_completion_tokens\":5}"),
        400,
        "max_completion_tokens");
    assertTrue(generator.submitted.isEmpty(), "nothing reached the generator");
  }

  @Test
  void documentedNoOpFieldsAreAcceptedAtTheirNeutralValueOnly() throws Exception {
    start(local());
    HttpResponse<String> neutral =
        post(
            "/v1/completions",
            "{\"prompt\":\"a\",\"max_tokens\":1,\"presence_penalty\":0,\"frequency_penalty\":0.0,"
                + "\"logprobs\":null,\"echo\":false,\"best_of\":1,\"logit_bias\":{},"
                + "\"store\":false}");
    assertEquals(200, neutral.statusCode(), neutral.body());
    assertError(
        post("/v1/completions", "{\"prompt\":\"a\",\"presence_penalty\":0.5}"),
        400,
        "presence_penalty");
    assertError(post("/v1/completions", "{\"prompt\":\"a\",\"echo\":true}"), 400, "echo");
  }

  @Test
  void onePromptAndOneChoicePerRequest() throws Exception {
    start(local());
    assertError(post("/v1/completions", "{\"prompt\":\"a\",\"n\":2}"), 400, "n");
    assertError(post("/v1/completions", "{\"prompt\":[\"a\",\"b\"]}"), 400, "prompt");
    assertError(post("/v1/completions", "{\"prompt\":[[1,2],[3]]}"), 400, "prompt");
    assertError(post("/v1/completions", "{\"prompt\":[1,1000]}"), 400, "prompt");
    assertError(post("/v1/completions", "{\"max_tokens\":1}"), 400, "prompt");
    assertTrue(generator.submitted.isEmpty());
  }

  @Test
  void badValuesAreRefusedNamingTheField() throws Exception {
    start(local());
    assertError(
        post("/v1/completions", "{\"prompt\":\"a\",\"temperature\":2.5}"), 400, "temperature");
    assertError(post("/v1/completions", "{\"prompt\":\"a\",\"top_p\":0}"), 400, "top_p");
    assertError(post("/v1/completions", "{\"prompt\":\"a\",\"max_tokens\":0}"), 400, "max_tokens");
    assertError(
        post("/v1/completions", "{\"prompt\":\"a\",\"max_tokens\":1.5}"), 400, "max_tokens");
    assertError(post("/v1/completions", "{\"prompt\":\"a\",\"seed\":\"x\"}"), 400, "seed");
    assertError(post("/v1/completions", "{\"prompt\":\"a\",\"stream\":\"yes\"}"), 400, "stream");
    assertError(
        post("/v1/completions", "{\"prompt\":\"a\",\"stop\":[\"1\",\"2\",\"3\",\"4\",\"5\"]}"),
        400,
        "stop");
    assertError(
        post("/v1/completions", "{\"prompt\":\"a\",\"stream_options\":{\"include_usage\":true}}"),
        400,
        "stream_options");
    assertError(
        post("/v1/chat/completions", "{\"messages\":[{\"role\":\"tool\",\"content\":\"x\"}]}"),
        400,
        "messages[0].role");
    assertError(post("/v1/chat/completions", "{\"messages\":[]}"), 400, "messages");
    assertError(post("/v1/completions", "{\"model\":\"gpt-4\",\"prompt\":\"a\"}"), 404, "model");
    assertTrue(generator.submitted.isEmpty());
  }

  @Test
  void malformedJsonIsRefusedWith400() throws Exception {
    start(local());
    for (String body :
        List.of(
            "{\"prompt\":",
            "{prompt:\"a\"}",
            "{\"prompt\":\"a\"} trailing",
            "[1,2]",
            "",
            "{\"prompt\":'a'}")) {
      JsonObject error = assertError(post("/v1/completions", body), 400, null);
      assertEquals("invalid_json", error.get("code").getAsString(), body);
    }
    HttpResponse<String> notUtf8 =
        client.send(
            HttpRequest.newBuilder(uri("/v1/completions"))
                .POST(
                    HttpRequest.BodyPublishers.ofByteArray(
                        new byte[] {'{', '"', 'p', '"', ':', '"', (byte) 0xff, '"', '}'}))
                .build(),
            HttpResponse.BodyHandlers.ofString());
    assertError(notUtf8, 400, null);
    assertTrue(generator.submitted.isEmpty());
  }

  @Test
  void aBodyOverTheLimitIsRefusedWithoutReadingItDeclaredOrChunked() throws Exception {
    start(local().withMaxBodyBytes(1024));
    String big = "{\"prompt\":\"" + "a ".repeat(1000) + "\"}";
    JsonObject declared = assertError(post("/v1/completions", big), 400, null);
    assertEquals("request_too_large", declared.get("code").getAsString());
    assertTrue(declared.get("message").getAsString().contains("1024"));
    // Without a length (chunked), the reading stops at the limit: 64 MiB are never buffered.
    InputStream endless =
        new InputStream() {
          @Override
          public int read() {
            return 'a';
          }

          @Override
          public int read(byte[] b, int off, int len) {
            java.util.Arrays.fill(b, off, off + len, (byte) 'a');
            return len;
          }
        };
    // The server answers and closes the connection while the client is still sending; where the
    // closing overtakes the answer (TCP resets what the client had not read: a race of the JDK's
    // server, which has no lingering close), the client sees the connection closed instead. Either
    // way the server stopped reading, and it goes on serving (the request below).
    HttpResponse<String> chunked;
    try {
      chunked =
          client.send(
              HttpRequest.newBuilder(uri("/v1/completions"))
                  .timeout(Duration.ofSeconds(20))
                  .POST(HttpRequest.BodyPublishers.ofInputStream(() -> endless))
                  .build(),
              HttpResponse.BodyHandlers.ofString());
    } catch (java.net.http.HttpTimeoutException stillReading) {
      throw new AssertionError("the server read on past its limit for 20 s", stillReading);
    } catch (IOException closedFirst) {
      chunked = null;
    }
    if (chunked != null) {
      assertEquals("request_too_large", assertError(chunked, 400, null).get("code").getAsString());
    }
    // A body at the limit is read.
    String head = "{\"prompt\":\"a\",\"max_tokens\":1";
    String fits = head + " ".repeat(1024 - head.length() - 1) + "}";
    assertEquals(1024, fits.length());
    assertEquals(200, post("/v1/completions", fits).statusCode());
  }

  @Test
  void anEmptyPromptIsRefused() throws Exception {
    start(local());
    assertEquals(
        "empty_prompt",
        assertError(post("/v1/completions", "{\"prompt\":\"\"}"), 400, "prompt")
            .get("code")
            .getAsString());
    assertError(post("/v1/completions", "{\"prompt\":[]}"), 400, "prompt");
    assertTrue(generator.submitted.isEmpty());
  }

  @Test
  void aPromptBeyondTheContextIsRefusedAndSoIsMaxTokensBeyondTheRoomLeft() throws Exception {
    generator.context = 8;
    start(local());
    JsonObject tooLong =
        assertError(post("/v1/completions", "{\"prompt\":\"1 2 3 4 5 6 7\"}"), 400, "prompt");
    assertEquals("context_length_exceeded", tooLong.get("code").getAsString());
    assertTrue(tooLong.get("message").getAsString().contains("8 tokens"), tooLong.toString());
    JsonObject noRoom =
        assertError(
            post("/v1/completions", "{\"prompt\":\"1 2 3\",\"max_tokens\":5}"), 400, "max_tokens");
    assertEquals("context_length_exceeded", noRoom.get("code").getAsString());
    assertEquals(
        200, post("/v1/completions", "{\"prompt\":\"1 2 3\",\"max_tokens\":4}").statusCode());
    assertEquals(1, generator.submitted.size(), "only the request that fits");
  }

  @Test
  void maxTokensAboveTheServersBoundIsRefused() throws Exception {
    generator.context = 10_000;
    start(local().withMaxTokensPerRequest(100));
    assertError(
        post("/v1/completions", "{\"prompt\":\"a\",\"max_tokens\":101}"), 400, "max_tokens");
  }

  @Test
  void unknownPathsAre404AndWrongMethods405() throws Exception {
    start(local());
    JsonObject notFound = assertError(post("/v1/embeddings", "{}"), 404, null);
    assertEquals("unknown_url", notFound.get("code").getAsString());
    assertError(post("/v1/completions/x", "{}"), 404, null);
    HttpResponse<String> get =
        client.send(
            HttpRequest.newBuilder(uri("/v1/completions")).GET().build(),
            HttpResponse.BodyHandlers.ofString());
    assertError(get, 405, null);
    assertEquals("POST", get.headers().firstValue("Allow").orElseThrow());
    assertError(post("/v1/models", "{}"), 405, null);
  }

  // ---- the API key ---------------------------------------------------------------------------

  @Test
  void withAKeyEveryRequestMustCarryItExactly() throws Exception {
    start(local().withApiKey("s3cret-key"));
    String body = "{\"prompt\":\"a\",\"max_tokens\":1}";
    assertEquals(
        "invalid_api_key",
        assertError(post("/v1/completions", body, null), 401, null).get("code").getAsString());
    assertError(post("/v1/completions", body, "s3cret-kez"), 401, null);
    assertError(post("/v1/completions", body, "s3cret-key-and-more"), 401, null);
    assertError(post("/v1/completions", body, "s3cret"), 401, null);
    HttpResponse<String> models =
        client.send(
            HttpRequest.newBuilder(uri("/v1/models")).GET().build(),
            HttpResponse.BodyHandlers.ofString());
    assertError(models, 401, null);
    assertTrue(generator.submitted.isEmpty(), "no request without the key reached the engine");
    assertEquals(200, post("/v1/completions", body, "s3cret-key").statusCode());
  }

  @Test
  void withoutAKeyOnlyALoopbackAddressIsServed() throws Exception {
    ServerOptions anyAddress = local().withAddress(new InetSocketAddress(0));
    IllegalArgumentException refused =
        assertThrows(
            IllegalArgumentException.class,
            () -> OpenAiServer.start(generator, TEMPLATE, anyAddress));
    assertTrue(refused.getMessage().contains("without an API key"), refused.getMessage());
    assertTrue(refused.getMessage().contains("withApiKey"), refused.getMessage());
    start(anyAddress.withApiKey("k"));
    assertEquals(
        200, post("/v1/completions", "{\"prompt\":\"a\",\"max_tokens\":1}", "k").statusCode());
  }

  @Test
  void theDefaultsListenOnLoopbackWithoutAKey() {
    ServerOptions d = ServerOptions.defaults();
    assertTrue(d.address().getAddress().isLoopbackAddress());
    assertEquals(null, d.apiKey());
    assertEquals(1 << 20, d.maxBodyBytes());
  }

  // ---- bounds and isolation ------------------------------------------------------------------

  @Test
  void requestsBeyondTheConcurrencyBoundGet429AndTheOthersGoOn() throws Exception {
    generator.delay = Duration.ofMillis(20);
    start(local().withMaxConcurrentRequests(2));
    String slow = "{\"prompt\":\"a\",\"max_tokens\":15}";
    CompletableFuture<HttpResponse<String>> first =
        client.sendAsync(request("/v1/completions", slow), HttpResponse.BodyHandlers.ofString());
    CompletableFuture<HttpResponse<String>> second =
        client.sendAsync(request("/v1/completions", slow), HttpResponse.BodyHandlers.ofString());
    awaitSubmitted(2);
    JsonObject error = assertError(post("/v1/completions", slow), 429, null);
    assertEquals("rate_limit_exceeded", error.get("code").getAsString());
    assertEquals(200, first.get().statusCode());
    assertEquals(200, second.get().statusCode());
    assertEquals(
        ScriptedGenerator.expectedText(2, 15),
        json(first.get())
            .getAsJsonArray("choices")
            .get(0)
            .getAsJsonObject()
            .get("text")
            .getAsString());
    assertEquals(200, post("/v1/completions", slow).statusCode(), "a permit is free again");
  }

  HttpRequest request(String path, String body) {
    return HttpRequest.newBuilder(uri(path))
        .timeout(Duration.ofSeconds(20))
        .POST(HttpRequest.BodyPublishers.ofString(body))
        .build();
  }

  void awaitSubmitted(int n) throws InterruptedException {
    long deadline = System.nanoTime() + Duration.ofSeconds(10).toNanos();
    while (generator.submitted.size() < n && System.nanoTime() < deadline) {
      Thread.sleep(2);
    }
    assertEquals(n, generator.submitted.size(), "submitted");
  }

  @Test
  void anEngineFailureIs500BeforeTheStreamAndAnErrorEventInIt() throws Exception {
    generator.failAfter = 2;
    start(local());
    JsonObject error =
        assertError(post("/v1/completions", "{\"prompt\":\"a\",\"max_tokens\":5}"), 500, null);
    assertEquals("server_error", error.get("type").getAsString());
    assertTrue(error.get("message").getAsString().contains("scripted failure"));
    HttpResponse<String> stream =
        post("/v1/completions", "{\"prompt\":\"a\",\"max_tokens\":5,\"stream\":true}");
    List<String> data = dataLines(stream.body());
    assertEquals(4, data.size(), data.toString());
    JsonObject event = JsonParser.parseString(data.get(2)).getAsJsonObject();
    assertEquals("server_error", event.getAsJsonObject("error").get("type").getAsString());
    assertEquals("[DONE]", data.get(3));
    assertEquals(
        200, postAfterFailure(), "the failed requests leave the endpoint serving the next");
  }

  int postAfterFailure() throws Exception {
    generator.failAfter = -1;
    return post("/v1/completions", "{\"prompt\":\"a\",\"max_tokens\":1}").statusCode();
  }

  @Test
  void whileShuttingDownNewRequestsGet503AndTheOnesInFlightEndCancelled() throws Exception {
    generator.context = 10_000;
    generator.delay = Duration.ofMillis(20);
    // A grace far longer than the 503 request takes, even on a loaded machine: the stream in
    // flight outlasts it, so the listener is still open when that request arrives.
    OpenAiServer s = start(local().withShutdownGrace(Duration.ofSeconds(3)));
    CompletableFuture<HttpResponse<String>> inFlight =
        client.sendAsync(
            request("/v1/completions", "{\"prompt\":\"a\",\"max_tokens\":1000,\"stream\":true}"),
            HttpResponse.BodyHandlers.ofString());
    awaitSubmitted(1);
    Thread closer = Thread.ofVirtual().start(s::close);
    while (!s.closing()) {
      Thread.onSpinWait();
    }
    JsonObject error = assertError(post("/v1/completions", "{\"prompt\":\"a\"}"), 503, null);
    assertEquals("service_unavailable", error.get("code").getAsString());
    closer.join(Duration.ofSeconds(15));
    assertFalse(closer.isAlive(), "close returned");
    assertTrue(
        Thread.getAllStackTraces().keySet().stream()
            .noneMatch(t -> t.getName().equals("llm-server-write-alarms")),
        "the write alarms' thread ended");
    List<String> data = dataLines(inFlight.get().body());
    assertEquals("[DONE]", data.getLast());
    JsonObject last = JsonParser.parseString(data.get(data.size() - 2)).getAsJsonObject();
    assertEquals(
        "service_unavailable", last.getAsJsonObject("error").get("code").getAsString(), last + "");
    assertTrue(generator.awaitIdle(Duration.ofSeconds(5)));
    assertEquals(1, generator.cancelled.get(), "the generation in flight was cancelled");
  }

  @Test
  void aClientThatNeverReadsIsCancelledAndClosedWhileOthersAreServed() throws Exception {
    generator.context = 10_000;
    generator.padding = 64 * 1024;
    generator.delay = Duration.ofMillis(1);
    // A buffer too large to fill: only the write timeout can end it.
    OpenAiServer s =
        start(local().withWriteTimeout(Duration.ofMillis(300)).withStreamBufferPieces(1_000_000));
    byte[] body =
        "{\"prompt\":\"a\",\"max_tokens\":2000,\"stream\":true}".getBytes(StandardCharsets.UTF_8);
    try (Socket socket = new Socket(InetAddress.getLoopbackAddress(), s.address().getPort())) {
      OutputStream out = socket.getOutputStream();
      out.write(
          ("POST /v1/completions HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\n"
                  + "Content-Length: "
                  + body.length
                  + "\r\n\r\n")
              .getBytes(StandardCharsets.US_ASCII));
      out.write(body);
      out.flush();
      // Never read. Meanwhile another client is served.
      awaitSubmitted(1);
      generator.padding = 0;
      assertEquals(
          200, post("/v1/completions", "{\"prompt\":\"b\",\"max_tokens\":2}").statusCode());
      assertTrue(generator.awaitIdle(Duration.ofSeconds(10)), "the unread generation ended");
      assertEquals(1, generator.cancelled.get(), "it was cancelled, not run to its 2000 tokens");
      long deadline = System.nanoTime() + Duration.ofSeconds(5).toNanos();
      while (s.generationsInFlight() > 0 && System.nanoTime() < deadline) {
        Thread.sleep(5);
      }
      assertEquals(0, s.generationsInFlight());
      // The server closed the connection: reading drains what was buffered and then ends.
      socket.setSoTimeout(10_000);
      InputStream in = socket.getInputStream();
      byte[] sink = new byte[1 << 20];
      long total = 0;
      try {
        for (int n; (n = in.read(sink)) != -1; ) {
          total += n;
        }
      } catch (IOException reset) {
        // A reset is a close as well.
      }
      assertTrue(total < 2000L * 64 * 1024, "the stream did not run to its end: " + total);
    }
  }

  @Test
  void aClientTooSlowForTheBufferIsCancelled() throws Exception {
    generator.context = 10_000;
    // One piece of buffer and a fast engine: the second queued piece ends the generation.
    generator.padding = 64 * 1024;
    OpenAiServer s =
        start(local().withStreamBufferPieces(1).withWriteTimeout(Duration.ofSeconds(30)));
    HttpResponse<InputStream> r =
        client.send(
            request("/v1/completions", "{\"prompt\":\"a\",\"max_tokens\":2000,\"stream\":true}"),
            HttpResponse.BodyHandlers.ofInputStream());
    assertTrue(generator.awaitIdle(Duration.ofSeconds(10)));
    assertEquals(1, generator.cancelled.get(), "cancelled at the full buffer");
    r.body().close();
    assertNotNull(s);
  }
}
