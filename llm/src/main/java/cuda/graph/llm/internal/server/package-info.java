// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 the cuda-graph authors
/**
 * The OpenAI-compatible HTTP endpoint: {@code /v1/completions}, {@code /v1/chat/completions} (with
 * server-sent events) and {@code /v1/models} on the JDK's {@code com.sun.net.httpserver}, OpenAI's
 * error shape, the API key, and the bounds on bodies, tokens, concurrent requests and slow clients;
 * it reaches the engine only through {@link cuda.graph.llm.internal.server.Generator}. May depend on
 * nothing of the project.
 */
@NullMarked
package cuda.graph.llm.internal.server;

import org.jspecify.annotations.NullMarked;
