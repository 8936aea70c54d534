// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 the cuda-graph authors
package cuda.graph.llm;

import static org.apiguardian.api.API.Status.EXPERIMENTAL;

import cuda.graph.llm.internal.serving.LlmServerImpl;
import java.util.Objects;
import org.apiguardian.api.API;
import org.jspecify.annotations.Nullable;

/**
 * An OpenAI-compatible HTTP endpoint over an {@link LlmEngine}: {@code /v1/completions}, {@code
 * /v1/chat/completions} (streamed as server-sent events when asked) and {@code /v1/models}, with
 * OpenAI's error shape. Only 127.0.0.1 is served without an API key; with one, every request must
 * carry it as a bearer token. Bodies, tokens per request and concurrent requests are bounded
 * ({@link Config}); a client that disconnects or stops reading has its generation cancelled.
 *
 * <p>Thread-safe; {@link #close()} stops accepting requests, gives those in progress a few seconds,
 * then stops. The engine stays open: close it after the server.
 *
 * @since 0.2.0
 */
@API(status = EXPERIMENTAL, since = "0.2.0")
public sealed interface LlmServer extends AutoCloseable permits LlmServerImpl {

  /**
   * Starts serving {@code engine}.
   *
   * @param engine the engine, open
   * @param config where to listen and the bounds
   * @return the server, listening
   * @throws IllegalArgumentException for a non-loopback host without an API key
   * @throws java.io.UncheckedIOException when the address cannot be bound
   */
  static LlmServer start(LlmEngine engine, Config config) {
    return LlmServerImpl.start(engine, config);
  }

  /** {@return the port listened on (the one chosen where the config said 0)} */
  int port();

  /** Stops the server; closing twice does nothing. */
  @Override
  void close();

  /**
   * Where the server listens and its bounds.
   *
   * @param host the address to listen on; a non-loopback one requires an API key
   * @param port the port, 0 for a free one
   * @param apiKey the bearer token every request must carry, or null for none (loopback only)
   * @param maxBodyBytes the largest request body, at least 1
   * @param maxConcurrentRequests the most requests served at once (others get 429), at least 1
   * @param maxTokensPerRequest the most tokens one request may ask for, at least 1
   * @since 0.2.0
   */
  record Config(
      String host,
      int port,
      @Nullable String apiKey,
      int maxBodyBytes,
      int maxConcurrentRequests,
      int maxTokensPerRequest) {

    /**
     * Checks the config.
     *
     * @throws IllegalArgumentException for a port outside [0, 65535], a bound below 1 or a blank
     *     API key
     */
    public Config {
      Objects.requireNonNull(host, "LlmServer.Config: the host is null");
      if (port < 0
          || port > 65535
          || maxBodyBytes < 1
          || maxConcurrentRequests < 1
          || maxTokensPerRequest < 1
          || (apiKey != null && apiKey.isBlank())) {
        throw new IllegalArgumentException(
            "LlmServer.Config: port "
                + port
                + " must be in [0, 65535], maxBodyBytes "
                + maxBodyBytes
                + ", maxConcurrentRequests "
                + maxConcurrentRequests
                + " and maxTokensPerRequest "
                + maxTokensPerRequest
                + " at least 1, and an API key not blank");
      }
    }

    /**
     * {@return 127.0.0.1 on {@code port}, no API key, 1 MiB bodies, 64 concurrent requests, 4096
     * tokens a request}
     *
     * @param port the port, 0 for a free one
     */
    public static Config localhost(int port) {
      return new Config("127.0.0.1", port, null, 1 << 20, 64, 4096);
    }

    /**
     * {@return this config with another host}
     *
     * @param host the address to listen on; a non-loopback one requires an API key
     */
    public Config withHost(String host) {
      return new Config(
          host, port, apiKey, maxBodyBytes, maxConcurrentRequests, maxTokensPerRequest);
    }

    /**
     * {@return this config with an API key}
     *
     * @param apiKey the bearer token every request must carry, or null for none
     */
    public Config withApiKey(@Nullable String apiKey) {
      return new Config(
          host, port, apiKey, maxBodyBytes, maxConcurrentRequests, maxTokensPerRequest);
    }

    /**
     * {@return this config with other bounds}
     *
     * @param maxBodyBytes the largest request body, at least 1
     * @param maxConcurrentRequests the most requests served at once, at least 1
     * @param maxTokensPerRequest the most tokens one request may ask for, at least 1
     */
    public Config withBounds(int maxBodyBytes, int maxConcurrentRequests, int maxTokensPerRequest) {
      return new Config(
          host, port, apiKey, maxBodyBytes, maxConcurrentRequests, maxTokensPerRequest);
    }
  }
}
