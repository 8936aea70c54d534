// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 the cuda-graph authors
package cuda.graph.llm.internal.server;

import com.google.gson.JsonArray;
import com.google.gson.JsonElement;
import com.google.gson.JsonNull;
import com.google.gson.JsonObject;
import com.google.gson.JsonParseException;
import com.google.gson.JsonParser;
import com.google.gson.Strictness;
import com.google.gson.stream.JsonReader;
import com.google.gson.stream.JsonToken;
import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpServer;
import cuda.graph.llm.internal.server.PendingGeneration.Aborted;
import cuda.graph.llm.internal.server.PendingGeneration.Event;
import cuda.graph.llm.internal.server.PendingGeneration.Failed;
import cuda.graph.llm.internal.server.PendingGeneration.Finished;
import cuda.graph.llm.internal.server.PendingGeneration.Piece;
import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.InputStreamReader;
import java.io.OutputStream;
import java.io.UncheckedIOException;
import java.lang.System.Logger.Level;
import java.net.InetSocketAddress;
import java.nio.charset.CodingErrorAction;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.util.HexFormat;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledFuture;
import java.util.concurrent.ScheduledThreadPoolExecutor;
import java.util.concurrent.Semaphore;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import org.jspecify.annotations.Nullable;

/**
 * The OpenAI-compatible endpoint over a {@link Generator}: {@code POST /v1/completions}, {@code
 * POST /v1/chat/completions} (JSON or server-sent events) and {@code GET /v1/models}, on the JDK's
 * HTTP server with a virtual thread per exchange.
 *
 * <p>Guarantees: every refusal is OpenAI's error shape with its status and touches no other
 * request; a body is read only up to its limit; a streaming client that disconnects (a write fails)
 * or stops reading (a write blocks past the write timeout, or the buffer fills) cancels its
 * generation at once and its connection is closed; {@link #close()} answers new requests with 503,
 * lets requests in flight finish within the grace, cancels the rest and ends every thread it
 * started.
 */
public final class OpenAiServer implements AutoCloseable {

  private static final System.Logger LOG = System.getLogger(OpenAiServer.class.getName());

  private final Generator generator;
  private final ChatMessage.Template template;
  private final ServerOptions options;
  private final byte @Nullable [] apiKey;
  private final HttpServer server;
  private final ExecutorService exchanges;
  private final ScheduledThreadPoolExecutor writeAlarms;
  private final Semaphore permits;
  private final Set<PendingGeneration> inFlight = ConcurrentHashMap.newKeySet();
  private final AtomicBoolean closed = new AtomicBoolean();
  private volatile boolean closing;

  private OpenAiServer(
      Generator generator,
      ChatMessage.Template template,
      ServerOptions options,
      HttpServer server) {
    this.generator = generator;
    this.template = template;
    this.options = options;
    this.apiKey =
        options.apiKey() == null ? null : options.apiKey().getBytes(StandardCharsets.UTF_8);
    this.server = server;
    this.exchanges = Executors.newVirtualThreadPerTaskExecutor();
    this.writeAlarms =
        new ScheduledThreadPoolExecutor(
            1,
            r -> {
              Thread t = new Thread(r, "llm-server-write-alarms");
              t.setDaemon(true);
              return t;
            });
    writeAlarms.setRemoveOnCancelPolicy(true);
    this.permits = new Semaphore(options.maxConcurrentRequests());
    server.setExecutor(exchanges);
    server.createContext("/", this::handle);
  }

  /**
   * Binds and starts the endpoint.
   *
   * @throws IllegalArgumentException when the address is not a loopback one and no API key is
   *     configured
   * @throws UncheckedIOException when the address cannot be bound
   */
  public static OpenAiServer start(
      Generator generator, ChatMessage.Template template, ServerOptions options) {
    InetSocketAddress address = options.address();
    if (options.apiKey() == null
        && (address.isUnresolved() || !address.getAddress().isLoopbackAddress())) {
      throw new IllegalArgumentException(
          "OpenAiServer.start: refusing to listen on "
              + address
              + " without an API key: only a loopback address (127.0.0.1, ::1) may be served"
              + " without one; configure an API key (ServerOptions.withApiKey) or bind to"
              + " 127.0.0.1");
    }
    HttpServer server;
    try {
      server = HttpServer.create(address, 0);
    } catch (IOException e) {
      throw new UncheckedIOException(
          "OpenAiServer.start: cannot listen on " + address + ": " + e.getMessage(), e);
    }
    OpenAiServer s = new OpenAiServer(generator, template, options, server);
    server.start();
    LOG.log(Level.DEBUG, "serving {0} on {1}", generator.modelName(), s.address());
    return s;
  }

  /** The address listened on (with the port chosen where the options said 0). */
  public InetSocketAddress address() {
    return server.getAddress();
  }

  /** Generations submitted and not yet ended on this endpoint's side. */
  public int generationsInFlight() {
    return inFlight.size();
  }

  /** {@return whether {@link #close} has begun: new requests get 503 from then on} */
  boolean closing() {
    return closing;
  }

  /**
   * Stops: new requests get 503 while those in flight have the grace to finish; then the rest are
   * cancelled, the listener closed and every thread of the endpoint ended.
   */
  @Override
  public void close() {
    if (!closed.compareAndSet(false, true)) {
      return;
    }
    closing = true;
    long deadline = System.nanoTime() + options.shutdownGrace().toNanos();
    try {
      while (permits.availablePermits() < options.maxConcurrentRequests()
          && System.nanoTime() < deadline) {
        Thread.sleep(5);
      }
      ApiError shutdown =
          ApiError.unavailable("the server is shutting down; the generation was cancelled");
      inFlight.forEach(g -> g.abort(shutdown));
      server.stop(1);
      writeAlarms.shutdownNow();
      exchanges.shutdownNow();
      // Every thread of the endpoint has ended when close returns: none outlives it.
      if (!exchanges.awaitTermination(10, TimeUnit.SECONDS)
          || !writeAlarms.awaitTermination(10, TimeUnit.SECONDS)) {
        LOG.log(Level.WARNING, "OpenAiServer.close: request threads still running after 10 s");
      }
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
  }

  private void handle(HttpExchange exchange) {
    boolean permitted = false;
    try {
      String path = exchange.getRequestURI().getPath();
      String method = exchange.getRequestMethod();
      if (closing) {
        throw ApiError.unavailable("the server is shutting down; retry with another server");
      }
      authorize(exchange);
      boolean chat = path.equals("/v1/chat/completions");
      if (path.equals("/v1/models")) {
        requireMethod(method, "GET", path);
        sendJson(exchange, 200, models());
        return;
      }
      if (!chat && !path.equals("/v1/completions")) {
        throw ApiError.notFound(
            null,
            "unknown_url",
            "Unknown request URL: "
                + method
                + " "
                + path
                + "; this server serves POST /v1/completions, POST /v1/chat/completions and GET"
                + " /v1/models");
      }
      requireMethod(method, "POST", path);
      if (!permits.tryAcquire()) {
        throw ApiError.tooManyRequests(
            "too many concurrent requests: this server serves "
                + options.maxConcurrentRequests()
                + " at once; retry later");
      }
      permitted = true;
      JsonObject body = readJson(exchange);
      CompletionParams params = CompletionParams.parse(body, chat);
      GenerationRequest request = toRequest(params);
      generate(exchange, params, request);
    } catch (ApiError e) {
      sendError(exchange, e);
    } catch (RuntimeException e) {
      LOG.log(Level.DEBUG, "OpenAiServer: request failed", e);
      sendError(exchange, ApiError.server("the request failed: " + e));
    } finally {
      if (permitted) {
        permits.release();
      }
      exchange.close();
    }
  }

  private void authorize(HttpExchange exchange) {
    if (apiKey == null) {
      return;
    }
    String header = exchange.getRequestHeaders().getFirst("Authorization");
    if (header == null || !header.regionMatches(true, 0, "Bearer ", 0, 7)) {
      throw ApiError.unauthorized(
          "You didn't provide an API key: send it as the header 'Authorization: Bearer KEY'");
    }
    byte[] given = header.substring(7).strip().getBytes(StandardCharsets.UTF_8);
    // Constant time in the key's content; the configured key comes first, so the time depends
    // only on its length, never on the guess.
    if (!MessageDigest.isEqual(apiKey, given)) {
      throw ApiError.unauthorized("Incorrect API key provided");
    }
  }

  private static void requireMethod(String method, String expected, String path) {
    if (!method.equals(expected)) {
      throw ApiError.methodNotAllowed(
          "Method " + method + " is not allowed for " + path + "; use " + expected);
    }
  }

  private JsonObject models() {
    JsonObject model = new JsonObject();
    model.addProperty("id", generator.modelName());
    model.addProperty("object", "model");
    model.addProperty("created", 0);
    model.addProperty("owned_by", "cuda-graph");
    JsonArray data = new JsonArray();
    data.add(model);
    JsonObject list = new JsonObject();
    list.addProperty("object", "list");
    list.add("data", data);
    return list;
  }

  /** Reads at most the limit: a declared length above it is refused before a byte is read. */
  private JsonObject readJson(HttpExchange exchange) {
    int limit = options.maxBodyBytes();
    String declared = exchange.getRequestHeaders().getFirst("Content-Length");
    if (declared != null) {
      long length;
      try {
        length = Long.parseLong(declared.strip());
      } catch (NumberFormatException e) {
        length = Long.MAX_VALUE;
      }
      if (length > limit) {
        throw tooLarge(declared + " bytes");
      }
    }
    ByteArrayOutputStream bytes = new ByteArrayOutputStream();
    try (InputStream in = exchange.getRequestBody()) {
      byte[] buffer = new byte[8192];
      for (int n; (n = in.read(buffer)) != -1; ) {
        if (bytes.size() + n > limit) {
          throw tooLarge("more than " + limit + " bytes");
        }
        bytes.write(buffer, 0, n);
      }
    } catch (IOException e) {
      throw ApiError.invalid(null, "invalid_body", "the request body could not be read: " + e);
    }
    try {
      JsonReader reader =
          new JsonReader(
              new InputStreamReader(
                  new ByteArrayInputStream(bytes.toByteArray()),
                  StandardCharsets.UTF_8
                      .newDecoder()
                      .onMalformedInput(CodingErrorAction.REPORT)
                      .onUnmappableCharacter(CodingErrorAction.REPORT)));
      reader.setStrictness(Strictness.STRICT);
      JsonElement json = JsonParser.parseReader(reader);
      if (reader.peek() != JsonToken.END_DOCUMENT) {
        throw new JsonParseException("text after the JSON value");
      }
      if (!json.isJsonObject()) {
        throw new JsonParseException("the body is not a JSON object");
      }
      return json.getAsJsonObject();
    } catch (JsonParseException | IOException | IllegalStateException e) {
      throw ApiError.invalid(
          null,
          "invalid_json",
          "We could not parse the JSON body of your request: "
              + e.getMessage()
              + "; send one JSON object in UTF-8");
    }
  }

  private ApiError tooLarge(String size) {
    return ApiError.invalid(
        null,
        "request_too_large",
        "the request body is "
            + size
            + ", above this server's limit of "
            + options.maxBodyBytes()
            + " bytes; send a shorter prompt");
  }

  private GenerationRequest toRequest(CompletionParams params) {
    if (params.model() != null && !params.model().equals(generator.modelName())) {
      throw ApiError.notFound(
          "model",
          "model_not_found",
          "The model '"
              + params.model()
              + "' does not exist; this server serves '"
              + generator.modelName()
              + "'");
    }
    String promptParam = params.chat() ? "messages" : "prompt";
    int[] ids;
    try {
      if (params.chat()) {
        String text = template.apply(params.messages());
        ids = text.isEmpty() ? new int[0] : generator.tokenize(text, false);
      } else if (params.prompt() != null) {
        ids = params.prompt().isEmpty() ? new int[0] : generator.tokenize(params.prompt(), true);
      } else {
        ids = params.promptIds();
        checkIds(ids);
      }
    } catch (IllegalArgumentException e) {
      throw ApiError.invalid(promptParam, "invalid_value", e.getMessage());
    }
    if (ids == null || ids.length == 0) {
      throw ApiError.invalid(
          promptParam, "empty_prompt", "the prompt is empty; send at least one token of text");
    }
    int context = generator.contextLength();
    if (ids.length >= context) {
      throw ApiError.invalid(
          promptParam,
          "context_length_exceeded",
          "This model's maximum context length is "
              + context
              + " tokens, and the prompt has "
              + ids.length
              + " tokens, which leaves no room to generate; shorten the prompt");
    }
    int room = context - ids.length;
    String maxParam = params.chat() ? "max_completion_tokens" : "max_tokens";
    int maxTokens;
    if (params.maxTokens() == null) {
      maxTokens = Math.min(room, options.maxTokensPerRequest());
    } else {
      maxTokens = params.maxTokens();
      if (maxTokens > options.maxTokensPerRequest()) {
        throw ApiError.invalid(
            maxParam,
            "invalid_value",
            "'"
                + maxParam
                + "' is "
                + maxTokens
                + ", above this server's limit of "
                + options.maxTokensPerRequest()
                + " tokens per request");
      }
      if (maxTokens > room) {
        throw ApiError.invalid(
            maxParam,
            "context_length_exceeded",
            "This model's maximum context length is "
                + context
                + " tokens; you requested "
                + (ids.length + maxTokens)
                + " tokens ("
                + ids.length
                + " in the prompt, "
                + maxTokens
                + " for the completion); lower '"
                + maxParam
                + "' or shorten the prompt");
      }
    }
    return new GenerationRequest(
        ids, maxTokens, params.temperature(), params.topP(), params.seed(), params.stop());
  }

  private void checkIds(int @Nullable [] ids) {
    int vocabulary = generator.vocabularySize();
    for (int id : ids == null ? new int[0] : ids) {
      if (id >= vocabulary) {
        throw new IllegalArgumentException(
            "token id " + id + " is outside the vocabulary of " + vocabulary + " tokens");
      }
    }
  }

  private void generate(HttpExchange exchange, CompletionParams params, GenerationRequest request) {
    PendingGeneration pending = new PendingGeneration(options.streamBufferPieces());
    inFlight.add(pending);
    try {
      try {
        pending.attach(generator.submit(request, pending));
      } catch (IllegalArgumentException e) {
        throw ApiError.invalid(null, "invalid_value", "the engine refused: " + e.getMessage());
      } catch (IllegalStateException e) {
        throw ApiError.unavailable("the engine cannot take the request: " + e.getMessage());
      }
      if (closing) {
        pending.abort(ApiError.unavailable("the server is shutting down"));
      }
      String id = (params.chat() ? "chatcmpl-" : "cmpl-") + randomId();
      long created = System.currentTimeMillis() / 1000;
      if (params.stream()) {
        stream(exchange, params, pending, new Ids(id, created));
      } else {
        respond(exchange, params, pending, new Ids(id, created));
      }
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    } finally {
      pending.cancel();
      inFlight.remove(pending);
    }
  }

  private record Ids(String id, long created) {}

  private void respond(
      HttpExchange exchange, CompletionParams params, PendingGeneration pending, Ids ids)
      throws InterruptedException {
    StringBuilder text = new StringBuilder();
    while (true) {
      Event event = pending.take();
      switch (event) {
        case Piece p -> text.append(p.text());
        case Failed f -> throw engineFailure(f.cause());
        case Aborted a -> throw a.reason();
        case Finished f -> {
          JsonObject choice = new JsonObject();
          choice.addProperty("index", 0);
          if (params.chat()) {
            JsonObject message = new JsonObject();
            message.addProperty("role", "assistant");
            message.addProperty("content", text.toString());
            choice.add("message", message);
          } else {
            choice.addProperty("text", text.toString());
          }
          choice.add("logprobs", JsonNull.INSTANCE);
          choice.addProperty("finish_reason", f.reason().openAiName());
          JsonObject body = envelope(params, ids, false);
          JsonArray choices = new JsonArray();
          choices.add(choice);
          body.add("choices", choices);
          body.add("usage", usage(f.usage()));
          sendJson(exchange, 200, body);
          return;
        }
      }
    }
  }

  private static ApiError engineFailure(Throwable cause) {
    LOG.log(Level.DEBUG, "OpenAiServer: the generation failed", cause);
    return ApiError.server("the generation failed: " + cause.getMessage());
  }

  private void stream(
      HttpExchange exchange, CompletionParams params, PendingGeneration pending, Ids ids)
      throws InterruptedException {
    exchange.getResponseHeaders().set("Content-Type", "text/event-stream; charset=utf-8");
    exchange.getResponseHeaders().set("Cache-Control", "no-cache");
    EventWriter out;
    try {
      exchange.sendResponseHeaders(200, 0);
      out = new EventWriter(exchange.getResponseBody());
      if (params.chat()) {
        JsonObject delta = new JsonObject();
        delta.addProperty("role", "assistant");
        delta.addProperty("content", "");
        out.send(chunk(params, ids, delta, null, null), true);
      }
    } catch (IOException e) {
      LOG.log(Level.DEBUG, "OpenAiServer: the client went away before the stream", e);
      return;
    }
    try {
      while (true) {
        Event event = pending.take();
        switch (event) {
          case Piece p -> {
            JsonObject delta = new JsonObject();
            delta.addProperty(params.chat() ? "content" : "text", p.text());
            out.send(chunk(params, ids, delta, null, null), !pending.hasQueued());
          }
          case Finished f -> {
            out.send(chunk(params, ids, new JsonObject(), f.reason().openAiName(), null), false);
            if (params.includeUsage()) {
              out.send(chunk(params, ids, null, null, f.usage()), false);
            }
            out.done();
            return;
          }
          case Failed f -> {
            out.send(engineFailure(f.cause()).toJson().toString(), false);
            out.done();
            return;
          }
          case Aborted a -> {
            out.send(a.reason().toJson().toString(), false);
            out.done();
            return;
          }
        }
      }
    } catch (IOException e) {
      // The client disconnected or stopped reading: the finally of generate cancels at once.
      LOG.log(Level.DEBUG, "OpenAiServer: stream ended by the client: {0}", e.toString());
    }
  }

  /**
   * Server-sent events, each write bounded by the write timeout: a write blocked past it is
   * interrupted, which closes the connection's channel (an interruptible channel) and fails it.
   */
  private final class EventWriter {
    private final OutputStream out;

    EventWriter(OutputStream out) {
      this.out = out;
    }

    void send(String json, boolean flush) throws IOException {
      write(("data: " + json + "\n\n").getBytes(StandardCharsets.UTF_8), flush);
    }

    void done() throws IOException {
      write("data: [DONE]\n\n".getBytes(StandardCharsets.UTF_8), true);
    }

    private void write(byte[] bytes, boolean flush) throws IOException {
      Thread writer = Thread.currentThread();
      ScheduledFuture<?> alarm =
          writeAlarms.schedule(
              writer::interrupt, options.writeTimeout().toNanos(), TimeUnit.NANOSECONDS);
      try {
        out.write(bytes);
        if (flush) {
          out.flush();
        }
      } finally {
        if (!alarm.cancel(false)) {
          // The alarm went off, perhaps just after the write: the client is too slow either way.
          Thread.interrupted();
          throw new IOException(
              "a write blocked for more than " + options.writeTimeout() + " (client not reading)");
        }
      }
    }
  }

  private JsonObject envelope(CompletionParams params, Ids ids, boolean chunk) {
    JsonObject body = new JsonObject();
    body.addProperty("id", ids.id());
    body.addProperty(
        "object",
        params.chat() ? (chunk ? "chat.completion.chunk" : "chat.completion") : "text_completion");
    body.addProperty("created", ids.created());
    body.addProperty("model", generator.modelName());
    return body;
  }

  /** A stream chunk: a delta (or text) with its finish reason, or the usage chunk (no choices). */
  private String chunk(
      CompletionParams params,
      Ids ids,
      @Nullable JsonObject delta,
      @Nullable String finishReason,
      TokenSink.@Nullable Usage usage) {
    JsonObject body = envelope(params, ids, true);
    JsonArray choices = new JsonArray();
    if (delta != null) {
      JsonObject choice = new JsonObject();
      choice.addProperty("index", 0);
      if (params.chat()) {
        choice.add("delta", delta);
      } else {
        choice.addProperty("text", delta.has("text") ? delta.get("text").getAsString() : "");
      }
      choice.add("logprobs", JsonNull.INSTANCE);
      if (finishReason == null) {
        choice.add("finish_reason", JsonNull.INSTANCE);
      } else {
        choice.addProperty("finish_reason", finishReason);
      }
      choices.add(choice);
    }
    body.add("choices", choices);
    if (params.includeUsage()) {
      // OpenAI's shape: null on every chunk but the last, which has no choices.
      body.add("usage", usage == null ? JsonNull.INSTANCE : usage(usage));
    }
    return body.toString();
  }

  private static JsonObject usage(TokenSink.Usage usage) {
    JsonObject u = new JsonObject();
    u.addProperty("prompt_tokens", usage.promptTokens());
    u.addProperty("completion_tokens", usage.completionTokens());
    u.addProperty("total_tokens", usage.totalTokens());
    return u;
  }

  private static String randomId() {
    byte[] bytes = new byte[12];
    ThreadLocalRandom.current().nextBytes(bytes);
    return HexFormat.of().formatHex(bytes);
  }

  private static void sendJson(HttpExchange exchange, int status, JsonObject body) {
    byte[] bytes = body.toString().getBytes(StandardCharsets.UTF_8);
    exchange.getResponseHeaders().set("Content-Type", "application/json");
    try {
      exchange.sendResponseHeaders(status, bytes.length);
      exchange.getResponseBody().write(bytes);
    } catch (IOException e) {
      LOG.log(Level.DEBUG, "OpenAiServer: the client went away before the response", e);
    }
  }

  private static void sendError(HttpExchange exchange, ApiError error) {
    if (exchange.getResponseCode() != -1) {
      // Headers are out (a stream): the error was sent as an event, or the client is gone.
      return;
    }
    LOG.log(
        Level.DEBUG,
        "OpenAiServer: {0} {1} -> {2} {3}",
        exchange.getRequestMethod(),
        exchange.getRequestURI().getPath(),
        error.status,
        error.getMessage());
    if (error.status == 405) {
      exchange
          .getResponseHeaders()
          .set("Allow", exchange.getRequestURI().getPath().endsWith("models") ? "GET" : "POST");
    }
    if (error.status == 401) {
      exchange.getResponseHeaders().set("WWW-Authenticate", "Bearer");
    }
    sendJson(exchange, error.status, error.toJson());
  }
}
