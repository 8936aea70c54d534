// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 the cuda-graph authors
package cuda.graph.llm.internal.serving;

import cuda.graph.llm.ChatMessage;
import cuda.graph.llm.LlmEngine;
import cuda.graph.llm.LlmServer;
import cuda.graph.llm.internal.server.OpenAiServer;
import cuda.graph.llm.internal.server.ServerOptions;
import java.net.InetSocketAddress;
import java.util.ArrayList;
import java.util.List;

/** An {@link LlmServer}: the endpoint over the engine's scheduler and chat template. */
public final class LlmServerImpl implements LlmServer {

  private final OpenAiServer server;

  private LlmServerImpl(OpenAiServer server) {
    this.server = server;
  }

  /** {@return the server of {@code engine}}: see {@link LlmServer#start} */
  public static LlmServer start(LlmEngine engine, LlmServer.Config config) {
    LlmEngineImpl impl = (LlmEngineImpl) engine; // sealed: the only implementation
    ServerOptions options =
        ServerOptions.defaults()
            .withAddress(new InetSocketAddress(config.host(), config.port()))
            .withApiKey(config.apiKey())
            .withMaxBodyBytes(config.maxBodyBytes())
            .withMaxConcurrentRequests(config.maxConcurrentRequests())
            .withMaxTokensPerRequest(config.maxTokensPerRequest());
    return new LlmServerImpl(
        OpenAiServer.start(
            impl.scheduler(),
            messages -> {
              List<ChatMessage> list = new ArrayList<>();
              for (var m : messages) {
                list.add(new ChatMessage(m.role(), m.content()));
              }
              return impl.render(list);
            },
            options));
  }

  /** {@return the endpoint (tests read its counts)} */
  public OpenAiServer server() {
    return server;
  }

  @Override
  public int port() {
    return server.address().getPort();
  }

  @Override
  public void close() {
    server.close();
  }
}
