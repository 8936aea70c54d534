// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 the cuda-graph authors
package cuda.graph.llm.internal.server;

import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.time.Duration;
import org.jspecify.annotations.Nullable;

/**
 * How the endpoint listens and what it bounds. {@link #defaults()} listens on 127.0.0.1:8000
 * without an API key; every {@code with} method returns a copy with one value changed.
 *
 * @param address where to listen; an address other than a loopback one requires an API key
 * @param apiKey the bearer token every request must carry, or null for none (loopback only)
 * @param maxBodyBytes the largest request body read; a larger one is refused unread (default 1 MiB)
 * @param maxConcurrentRequests generation requests served at once; more are answered with 429
 * @param maxTokensPerRequest the largest {@code max_tokens} accepted, and the default's cap
 * @param writeTimeout how long one write to a client may block before the request is cancelled and
 *     its connection closed (a client that never reads)
 * @param streamBufferPieces text pieces queued for a client before the request is cancelled as too
 *     slow
 * @param shutdownGrace how long {@link OpenAiServer#close()} lets requests in flight finish, while
 *     new ones are answered with 503, before it cancels them
 */
public record ServerOptions(
    InetSocketAddress address,
    @Nullable String apiKey,
    int maxBodyBytes,
    int maxConcurrentRequests,
    int maxTokensPerRequest,
    Duration writeTimeout,
    int streamBufferPieces,
    Duration shutdownGrace) {

  /** Checks every bound is positive. */
  public ServerOptions {
    if (maxBodyBytes < 1
        || maxConcurrentRequests < 1
        || maxTokensPerRequest < 1
        || streamBufferPieces < 1
        || !writeTimeout.isPositive()
        || shutdownGrace.isNegative()) {
      throw new IllegalArgumentException(
          "ServerOptions: bodies, concurrent requests, tokens per request, the stream buffer and"
              + " the write timeout must be positive and the shutdown grace not negative, got "
              + "maxBodyBytes="
              + maxBodyBytes
              + ", maxConcurrentRequests="
              + maxConcurrentRequests
              + ", maxTokensPerRequest="
              + maxTokensPerRequest
              + ", streamBufferPieces="
              + streamBufferPieces
              + ", writeTimeout="
              + writeTimeout
              + ", shutdownGrace="
              + shutdownGrace);
    }
    if (apiKey != null && apiKey.isBlank()) {
      throw new IllegalArgumentException(
          "ServerOptions: the API key is blank; give a secret of at least one character, or null"
              + " for no key (loopback addresses only)");
    }
  }

  /** 127.0.0.1:8000, no key, 1 MiB bodies, 64 requests, 4096 tokens, 30 s writes, 5 s grace. */
  public static ServerOptions defaults() {
    return new ServerOptions(
        new InetSocketAddress(InetAddress.getLoopbackAddress(), 8000),
        null,
        1 << 20,
        64,
        4096,
        Duration.ofSeconds(30),
        4096,
        Duration.ofSeconds(5));
  }

  /** With another address (port 0 picks a free one). */
  public ServerOptions withAddress(InetSocketAddress value) {
    return new ServerOptions(
        value,
        apiKey,
        maxBodyBytes,
        maxConcurrentRequests,
        maxTokensPerRequest,
        writeTimeout,
        streamBufferPieces,
        shutdownGrace);
  }

  /** With an API key (null for none). */
  public ServerOptions withApiKey(@Nullable String value) {
    return new ServerOptions(
        address,
        value,
        maxBodyBytes,
        maxConcurrentRequests,
        maxTokensPerRequest,
        writeTimeout,
        streamBufferPieces,
        shutdownGrace);
  }

  /** With another body limit. */
  public ServerOptions withMaxBodyBytes(int value) {
    return new ServerOptions(
        address,
        apiKey,
        value,
        maxConcurrentRequests,
        maxTokensPerRequest,
        writeTimeout,
        streamBufferPieces,
        shutdownGrace);
  }

  /** With another bound on concurrent generation requests. */
  public ServerOptions withMaxConcurrentRequests(int value) {
    return new ServerOptions(
        address,
        apiKey,
        maxBodyBytes,
        value,
        maxTokensPerRequest,
        writeTimeout,
        streamBufferPieces,
        shutdownGrace);
  }

  /** With another bound on {@code max_tokens}. */
  public ServerOptions withMaxTokensPerRequest(int value) {
    return new ServerOptions(
        address,
        apiKey,
        maxBodyBytes,
        maxConcurrentRequests,
        value,
        writeTimeout,
        streamBufferPieces,
        shutdownGrace);
  }

  /** With another write timeout. */
  public ServerOptions withWriteTimeout(Duration value) {
    return new ServerOptions(
        address,
        apiKey,
        maxBodyBytes,
        maxConcurrentRequests,
        maxTokensPerRequest,
        value,
        streamBufferPieces,
        shutdownGrace);
  }

  /** With another stream buffer. */
  public ServerOptions withStreamBufferPieces(int value) {
    return new ServerOptions(
        address,
        apiKey,
        maxBodyBytes,
        maxConcurrentRequests,
        maxTokensPerRequest,
        writeTimeout,
        value,
        shutdownGrace);
  }

  /** With another shutdown grace. */
  public ServerOptions withShutdownGrace(Duration value) {
    return new ServerOptions(
        address,
        apiKey,
        maxBodyBytes,
        maxConcurrentRequests,
        maxTokensPerRequest,
        writeTimeout,
        streamBufferPieces,
        value);
  }
}
